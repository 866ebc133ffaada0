// Golden model of simt_uart_bridge's protocol engine (docs/blocks/uart_bridge.md): the bytes
// the bridge's receiver delivers go in, host-port accesses and the response's bytes come out,
// as the RTL makes them. Timing is abstracted to two events: a received byte (with its
// framing-error flag) and idle(), the line quiet for the bridge's TimeoutBits bit times
// (which ends a partial frame with a timeout answer and a drained bad frame with its
// answer). Bytes the RTL drops because they arrive while it executes or answers are not
// modelled: a host waits for the answer (a test checks the RTL's drop counter stays 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simt::model {

namespace uart {
// Protocol constants (the RTL's localparams).
constexpr uint8_t kSyncReq = 0xA5, kSyncRsp = 0x5A;
enum Cmd : uint8_t { CmdRead = 0x01, CmdWrite = 0x02, CmdBurstRead = 0x03, CmdBurstWrite = 0x04, CmdStatus = 0x05 };
enum Status : uint8_t {
  StOk = 0x00, StDup = 0x80, ErrCrc = 0x01, ErrCmd = 0x02, ErrLen = 0x03, ErrTimeout = 0x04, ErrFraming = 0x05
};
constexpr uint8_t kVersion = 0x01;
constexpr int kStatusWords = 3;
// CRC-16/CCITT-FALSE: polynomial 0x1021, init 0xFFFF, MSB first, no final XOR.
uint16_t crc16(uint16_t crc, uint8_t byte);
uint16_t crc16(const uint8_t* data, size_t n, uint16_t crc = 0xFFFF);
}  // namespace uart

// The host port behind the bridge (simt_fpga_top's, or a test's memory).
class HostPortIf {
 public:
  virtual ~HostPortIf() = default;
  virtual void write(uint16_t addr, uint32_t data) = 0;
  virtual uint32_t read(uint16_t addr) = 0;
};

class UartBridge {
 public:
  struct Config {
    int maxBurst = 64;  // MaxBurst
  };
  struct Access {       // one host-port access, in order
    bool write = false;
    uint16_t addr = 0;
    uint32_t data = 0;  // write data, or the read data returned
    bool operator==(const Access& o) const { return write == o.write && addr == o.addr && data == o.data; }
  };
  struct Counters {     // the status command's words 1 and 2
    uint16_t good = 0, bad = 0, dropped = 0, junk = 0;
    uint8_t lastError = 0;
  };

  UartBridge(const Config& cfg, HostPortIf& port) : cfg_(cfg), port_(port) {}

  // A byte from the receiver (framingError: its stop bit was low).
  void rxByte(uint8_t b, bool framingError = false);
  // The line has been quiet for TimeoutBits bit times.
  void idle();
  // A byte that arrived while the bridge executed or answered a frame: dropped, counted.
  void rxWhileBusy() { ++ctr_.dropped; }

  // Everything produced so far; the caller may clear them.
  std::vector<Access> accesses;
  std::vector<uint8_t> tx;
  // Responses started (one per answered frame), their status codes in order.
  std::vector<uint8_t> statuses;

  const Counters& counters() const { return ctr_; }
  // Whether a frame is being received or drained (the RTL's in-frame states).
  bool inFrame() const { return state_ != State::Idle; }

 private:
  enum class State { Idle, Hdr, Data, Crc, Drain };
  bool lenOk() const;
  bool isWrite() const { return cmd_ == uart::CmdWrite || cmd_ == uart::CmdBurstWrite; }
  void respond(uint8_t status, const std::vector<uint32_t>& words);
  void complete();

  Config cfg_;
  HostPortIf& port_;
  State state_ = State::Idle;
  int pos_ = 0;
  uint8_t cmd_ = 0, seq_ = 0, cnt_ = 0;
  uint16_t addr_ = 0;
  bool ferr_ = false;
  uint16_t crc_ = 0xFFFF;
  uint8_t drainErr_ = 0;
  std::vector<uint32_t> buf_;
  uint32_t asm_ = 0;
  bool lastValid_ = false, lastWrite_ = false;
  uint8_t lastSeq_ = 0;
  Counters ctr_;
};

}  // namespace simt::model
