// A simulated board for the host link's tests: the verilated simt_fpga_uart_top (the UART
// bridge in front of the core's FPGA top, verilated with BaudDiv 4 and TimeoutBits 64 at the
// top's defaults and at other parameters, CMakeLists.txt) with the line model at its pins (tb/fpga/uart_line.h), faults on the line
// (flipped bits and dropped bytes in either direction), and SimTimeLink, a host::ByteLink to
// it in simulated time: 12 MHz, so 4 clocks per bit are 3 Mbaud. The pseudo-terminal board
// (tb/fpga/pty_board.h) runs the same UartBoard in real time.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "Vsimt_fpga_uart_top.h"
#include "Vsimt_ulx3s_board.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "fpga/board_builds.h"
#include "fpga/uart_line.h"
#include "host/uart_protocol.h"

namespace simt::tb {

// The top's bit time and timeout as verilated, and the clock the simulated time assumes.
constexpr int kBoardDiv = 4;
constexpr int kBoardTimeoutBits = 64;
constexpr uint32_t kBoardClockHz = 12'000'000;
constexpr uint32_t kBoardBaud = kBoardClockHz / kBoardDiv;  // 3 Mbaud

// The verilated board at its pins: bytes from the host go onto the rx line, bit by bit; the
// tx pin is decoded into bytes for the host.
class UartBoard {
 public:
  explicit UartBoard(uint64_t seed, BoardBuild build = BoardBuild::Default)
      : line_(kBoardDiv), rx_(kBoardDiv) {
    if (build == BoardBuild::Other) {
      pins_ = std::make_unique<Pins<Vsimt_ulx3s_board>>(seed);
    } else {
      pins_ = std::make_unique<Pins<Vsimt_fpga_uart_top>>(seed);
    }
  }
  // A byte onto the line (flip: serial bits to invert, UartLine::put).
  void send(uint8_t b, uint16_t flip = 0) { line_.put(b, flip); }
  // One clock; the byte the host's receiver completes at it, if any.
  std::optional<uint8_t> clock() {
    pins_->setRx(line_.next());
    pins_->eval();
    const auto b = rx_.clock(pins_->tx());
    linkErrors += pins_->linkErr();
    pins_->tick();
    if (b) return b->data;
    return std::nullopt;
  }
  // Nothing on the line either way and the core idle: the board only waits for the host.
  bool quiet() { return line_.empty() && rx_.idle() && pins_->tx() && !pins_->busy(); }
  uint64_t cycle() const { return pins_->cycle(); }
  bool ok() const { return pins_->ok(); }
  uint64_t linkErrors = 0;  // frames the bridge answered with an error (link_err_o)

 private:
  // The pins of either verilated build (the same ports, other parameters).
  struct PinsIf {
    virtual ~PinsIf() = default;
    virtual void setRx(bool v) = 0;
    virtual bool tx() = 0;
    virtual bool linkErr() = 0;
    virtual bool busy() = 0;
    virtual void eval() = 0;
    virtual void tick() = 0;
    virtual uint64_t cycle() const = 0;
    virtual bool ok() const = 0;
  };
  template <class V>
  struct Pins : PinsIf {
    explicit Pins(uint64_t seed) : sim("simt_fpga_uart_top", seed) {
      sim->uart_rx_i = 1;
      sim.reset();
    }
    void setRx(bool v) override { sim->uart_rx_i = v; }
    bool tx() override { return sim->uart_tx_o; }
    bool linkErr() override { return sim->link_err_o; }
    bool busy() override { return sim->busy_o; }
    void eval() override { sim.eval(); }
    void tick() override { sim.tick(); }
    uint64_t cycle() const override { return sim.cycle(); }
    bool ok() const override { return sim.ok(); }
    SimContext<V> sim;
  };

  std::unique_ptr<PinsIf> pins_;
  UartLine line_;
  UartRxModel rx_;
};

// Faults on the line, decided per byte in each direction: a flipped data bit or a lost
// byte, at random (per mille of the bytes) or at given byte indexes (counted from the first
// byte of the direction, repeats included: a fault that certainly happens), or a dead line
// (nothing gets through). Settings may change while another thread runs the line (the
// pseudo-terminal board); the schedule is set before.
class LineFaults {
 public:
  enum Dir { ToBoard = 0, ToHost = 1 };
  explicit LineFaults(uint64_t seed) : rng_(seed) {}
  void set(int flipPerMille, int dropPerMille) {
    flip_ = flipPerMille;
    drop_ = dropPerMille;
  }
  void setDead(bool dead) { dead_ = dead; }
  void flipAt(Dir d, uint64_t index) {
    std::lock_guard<std::mutex> lock(mu_);
    flipAt_[d].insert(index);
  }
  void dropAt(Dir d, uint64_t index) {
    std::lock_guard<std::mutex> lock(mu_);
    dropAt_[d].insert(index);
  }
  // Host to board: nothing (dropped) or the serial bits to flip.
  std::optional<uint16_t> toBoard() {
    if (dropped(ToBoard)) return std::nullopt;
    return flipped(ToBoard) ? static_cast<uint16_t>(1u << rng_.range(1, 8)) : uint16_t{0};
  }
  // Board to host: nothing (dropped) or the byte as it arrives.
  std::optional<uint8_t> toHost(uint8_t b) {
    if (dropped(ToHost)) return std::nullopt;
    return flipped(ToHost) ? static_cast<uint8_t>(b ^ (1u << rng_.below(8))) : b;
  }
  std::atomic<uint64_t> flips{0}, drops{0};

 private:
  bool dropped(Dir d) {
    std::lock_guard<std::mutex> lock(mu_);
    const uint64_t i = index_[d]++;  // the byte's index; flipped() asks about the same byte
    if (!dead_ && !dropAt_[d].count(i) && !(drop_ && rng_.below(1000) < drop_)) return false;
    ++drops;
    return true;
  }
  bool flipped(Dir d) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!flipAt_[d].count(index_[d] - 1) && !(flip_ && rng_.below(1000) < flip_)) return false;
    ++flips;
    return true;
  }
  Rng rng_;
  std::atomic<int> flip_{0}, drop_{0};
  std::atomic<bool> dead_{false};
  std::mutex mu_;  // the schedule, set by the test while the board's thread runs
  std::set<uint64_t> flipAt_[2], dropAt_[2];
  uint64_t index_[2] = {0, 0};
};

// The host's serial port with the board at its other end, in simulated time: the board's
// clock runs only while the host waits for a byte (recv), one microsecond being 12 clocks.
class SimTimeLink : public host::ByteLink {
 public:
  SimTimeLink(UartBoard& board, LineFaults& faults) : board_(board), faults_(faults) {}
  void send(const std::vector<uint8_t>& bytes) override {
    // A real link's turnaround (USB, the OS): the board runs on before the request arrives.
    for (uint64_t i = 0; i < turnaroundClocks; ++i) {
      if (const auto r = board_.clock()) early_.push_back(*r);
    }
    for (uint8_t b : bytes) {
      ++bytesToBoard;
      if (const auto flip = faults_.toBoard()) board_.send(b, *flip);
    }
  }
  std::optional<uint8_t> recv(uint64_t timeoutUs) override {
    if (!early_.empty()) {
      const uint8_t b = early_.front();
      early_.pop_front();
      ++bytesToHost;
      if (const auto v = faults_.toHost(b)) return v;
    }
    const uint64_t end = board_.cycle() + timeoutUs * (kBoardClockHz / 1'000'000);
    while (board_.cycle() < end && board_.ok()) {
      const auto b = board_.clock();
      if (!b) continue;
      ++bytesToHost;
      if (const auto v = faults_.toHost(*b)) return v;
    }
    return std::nullopt;
  }
  uint64_t bytesToBoard = 0, bytesToHost = 0;  // on the line, faulty or not
  uint64_t turnaroundClocks = 0;               // per request, before it reaches the line

 private:
  UartBoard& board_;
  LineFaults& faults_;
  std::deque<uint8_t> early_;  // answer bytes that came during a turnaround
};

}  // namespace simt::tb
