// Host side of the UART bridge's protocol (docs/blocks/uart_bridge.md): frame encoder and
// response decoder, and UartClient, the word/burst/status transactions with bounded retries
// and timeouts over any byte link (a serial port, a simulated line). `simt run --device`
// builds on this; the protocol constants and the CRC are the bridge model's
// (sim/model/fpga/uart_bridge.h), so host, model and RTL share one definition.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/fpga/uart_bridge.h"

namespace simt::host {

namespace uart = model::uart;

struct Request {
  uint8_t cmd = uart::CmdRead;
  uint8_t seq = 0;
  uint16_t addr = 0;
  uint8_t cnt = 1;
  std::vector<uint32_t> data;  // writes: cnt words
};
// The request's bytes: A5 CMD SEQ ADDR_L ADDR_H CNT data... CRC_H CRC_L.
std::vector<uint8_t> encodeRequest(const Request& r);
// Bytes of a request frame and of its answer (no error) for a command and count.
size_t requestBytes(uint8_t cmd, int cnt);
size_t responseBytes(uint8_t cmd, int cnt);

struct Response {
  uint8_t status = 0, seq = 0;
  std::vector<uint32_t> data;
  bool ok() const { return (status & 0x7F) == uart::StOk; }
};
std::vector<uint8_t> encodeResponse(const Response& r);  // what the bridge sends

// Byte-wise response decoder: skips bytes until the sync byte, then collects one frame.
class ResponseDecoder {
 public:
  enum class Event { None, Frame, BadCrc };
  Event feed(uint8_t b);
  const Response& frame() const { return rsp_; }
  void reset() { buf_.clear(); }
  uint64_t skipped() const { return skipped_; }

 private:
  std::vector<uint8_t> buf_;
  Response rsp_;
  uint64_t skipped_ = 0;
};

// A byte link to the bridge. Time is in microseconds of the link's clock (real time for a
// serial port, simulated time for a simulated line).
class ByteLink {
 public:
  virtual ~ByteLink() = default;
  virtual void send(const std::vector<uint8_t>& bytes) = 0;
  // The next received byte, or nothing after timeoutUs without one.
  virtual std::optional<uint8_t> recv(uint64_t timeoutUs) = 0;
};

class LinkError : public std::runtime_error {
 public:
  // WrongDevice: the board answers, but is not the FPGA top (of a layout) the host knows.
  enum class Kind { NoAnswer, Corrupt, Refused, WrongDevice };
  LinkError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

class UartClient {
 public:
  struct Options {
    uint32_t baud = 115200;
    int timeoutBits = 2000;  // the bridge's TimeoutBits
    int maxBurst = 64;       // the bridge's MaxBurst (status word 0 tells it)
    int retries = 4;         // further attempts after a failed one
    uint64_t latencyUs = 20000;  // the link's turnaround (USB, OS) on top of the line time
  };
  struct Stats {
    uint64_t transactions = 0, retries = 0, timeouts = 0, badCrc = 0, errorAnswers = 0, stale = 0;
    uint64_t payloadWords = 0;
    uint64_t bytesSent = 0, bytesReceived = 0;  // on the line, retries and drains included
  };
  struct BridgeStatus {
    uint8_t version = 0, maxBurst = 0, lastError = 0;
    uint16_t good = 0, bad = 0, dropped = 0, junk = 0;
  };

  UartClient(ByteLink& link, const Options& opt) : link_(link), opt_(opt) {}

  uint32_t read(uint16_t addr);
  void write(uint16_t addr, uint32_t data);
  std::vector<uint32_t> readBurst(uint16_t addr, size_t words);   // in MaxBurst pieces
  void writeBurst(uint16_t addr, const std::vector<uint32_t>& words);
  BridgeStatus status();
  // The bridge's MaxBurst (its status word says it): bursts are split at it.
  void setMaxBurst(int words) { opt_.maxBurst = words; }
  const Options& options() const { return opt_; }

  const Stats& stats() const { return stats_; }
  // Microseconds to wait for an answer: the request's and the answer's line time, the
  // bridge's timeout (an error is answered after a quiet line) and the link's latency.
  uint64_t answerTimeoutUs(size_t reqBytes, size_t rspBytes) const;

 private:
  Response transact(Request r);
  // Reads and discards until the line has been quiet for the bridge's timeout and more.
  void drain();
  std::optional<uint8_t> recv(uint64_t timeoutUs);  // link_.recv, counted

  ByteLink& link_;
  Options opt_;
  Stats stats_;
  uint8_t seq_ = 0;
};

const char* statusName(uint8_t status);

}  // namespace simt::host
