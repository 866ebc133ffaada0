// A POSIX serial port as the UART bridge's byte link (simt run --device PORT --baud N): the
// terminal in raw mode (8N1, no flow control, no echo, no line editing) at a baud rate of
// termios, opened for this process alone, reads with a timeout (poll), never blocking
// forever. Works the same on a USB-UART (an FTDI: its latency timer is asked for 1 ms) and on
// a pseudo-terminal (the tests' simulated board).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/uart_protocol.h"
#include "host/unique_fd.h"

namespace simt::host {

// The port cannot be used: it does not exist, is not a terminal, or refuses the baud rate.
class PortError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SerialPort : public ByteLink {
 public:
  // Throws PortError with a message that names the port and what is wrong.
  SerialPort(const std::string& path, uint32_t baud);
  ~SerialPort() override;
  SerialPort(const SerialPort&) = delete;
  SerialPort& operator=(const SerialPort&) = delete;

  void send(const std::vector<uint8_t>& bytes) override;
  std::optional<uint8_t> recv(uint64_t timeoutUs) override;

  const std::string& path() const { return path_; }
  uint32_t baud() const { return baud_; }
  // The baud rates termios has a constant for (the ones a port can be asked for).
  static std::vector<uint32_t> supportedBauds();

 private:
  std::string path_;
  uint32_t baud_;
  UniqueFd fd_;               // closed also when the constructor throws
  std::vector<uint8_t> buf_;  // bytes read and not yet taken
  size_t pos_ = 0;
};

}  // namespace simt::host
