// A simulated board behind a pseudo-terminal, for `simt run --device /dev/pts/N` without a
// board: a thread runs the verilated simt_fpga_uart_top (UartBoard, tb/fpga/uart_board.h; either
// build) in real time and moves bytes between the pty's master side and the board's pins, through
// LineFaults (flipped bits, dropped bytes, a dead line). The slave side is what the host opens,
// in-process (host::SerialPort) or in another process (the simt binary).
//
// Time: the board clocks continuously while anything is on the line or the core runs (a
// simulated byte is 40 clocks at 4 clocks per bit: some 5,000 bytes per second at this
// simulation's speed); otherwise it waits for the host in steps of 2 ms, clocking 256 cycles
// per step, so that the bridge's timeouts (64 bit times, 256 clocks) still elapse.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "fpga/uart_board.h"
#include "host/unique_fd.h"

namespace simt::tb {

class PtyBoard {
 public:
  explicit PtyBoard(uint64_t seed, BoardBuild build = BoardBuild::Default)
      : faults(seed ^ 0x5EED), seed_(seed), build_(build) {
    master_.reset(::posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
    if (master_.get() < 0 || ::grantpt(master_.get()) != 0 || ::unlockpt(master_.get()) != 0) {
      throw std::runtime_error(std::string("pseudo-terminal: ") + std::strerror(errno));
    }
    const char* name = ::ptsname(master_.get());
    if (!name) throw std::runtime_error("ptsname failed");
    path_ = name;
    // Held open while the board lives: without a slave the master reads EIO between hosts.
    // Raw from the start, so that nothing is echoed before a host sets the port up.
    slave_.reset(::open(path_.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC));
    termios tio{};
    if (slave_.get() < 0 || ::tcgetattr(slave_.get(), &tio) != 0) {
      throw std::runtime_error("cannot open " + path_);
    }
    ::cfmakeraw(&tio);
    ::tcsetattr(slave_.get(), TCSANOW, &tio);
    thread_ = std::thread([this] { loop(); });
  }
  ~PtyBoard() {
    stop_ = true;
    thread_.join();
  }
  PtyBoard(const PtyBoard&) = delete;
  PtyBoard& operator=(const PtyBoard&) = delete;

  const std::string& path() const { return path_; }  // /dev/pts/N, the host's port
  LineFaults faults;
  // Bytes that reached the board's pins and its answers' bytes, frames the bridge answered
  // with an error, clocks run; whether an RTL assertion failed.
  std::atomic<uint64_t> bytesToBoard{0}, bytesToHost{0}, linkErrors{0}, cycles{0};
  std::atomic<bool> rtlOk{true};

 private:
  void loop() {
    UartBoard board(seed_, build_);  // made and run on this thread only
    constexpr int kBatch = 256, kQuietBeforeSleep = 1024, kSleepMs = 2;
    uint64_t quiet = 0;
    std::vector<uint8_t> out;
    while (!stop_) {
      uint8_t in[1024];
      for (ssize_t n; (n = ::read(master_.get(), in, sizeof in)) > 0;) {
        for (ssize_t i = 0; i < n; ++i) {
          if (const auto flip = faults.toBoard()) {
            board.send(in[i], *flip);
            ++bytesToBoard;
          }
        }
        quiet = 0;
      }
      for (int i = 0; i < kBatch; ++i) {
        const auto b = board.clock();
        if (!b) continue;
        ++bytesToHost;
        if (const auto v = faults.toHost(*b)) out.push_back(*v);
      }
      cycles = board.cycle();
      linkErrors = board.linkErrors;
      rtlOk = board.ok();
      writeOut(out);
      quiet = board.quiet() ? quiet + kBatch : 0;
      if (quiet >= kQuietBeforeSleep) {
        pollfd p{master_.get(), POLLIN, 0};
        ::poll(&p, 1, kSleepMs);
      }
    }
  }

  // The board's bytes to the host (the pty buffers them until the host reads).
  void writeOut(std::vector<uint8_t>& out) {
    size_t done = 0;
    while (done < out.size() && !stop_) {
      const ssize_t n = ::write(master_.get(), out.data() + done, out.size() - done);
      if (n > 0) {
        done += static_cast<size_t>(n);
      } else {
        pollfd p{master_.get(), POLLOUT, 0};
        ::poll(&p, 1, kWriteWaitMs);
      }
    }
    out.clear();
  }
  static constexpr int kWriteWaitMs = 5;

  host::UniqueFd master_, slave_;
  uint64_t seed_;
  BoardBuild build_;
  std::string path_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace simt::tb
