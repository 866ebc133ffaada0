// A serial line at the pins, bit-accurate at a divisor (clocks per bit), for the UART
// bridge's tests: the host's transmitter as a queue of line levels, one per clock (with the
// faults a real line has: flipped bits, low stop bits, breaks), and UartRxModel, a
// cycle-accurate copy of simt_uart_rx (two-flop synchronizer, start-bit check at the bit
// centre, majority of three samples, framing error, wait for a high line after one). One
// instance predicts the bytes the bridge's receiver delivers; another decodes its tx pin.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace simt::tb {

class UartRxModel {
 public:
  struct Byte {
    uint8_t data = 0;
    bool framingError = false;
  };
  explicit UartRxModel(int div) : div_(div) {}

  // One clock edge with the line at `line`; returns the byte the receiver delivers at it.
  std::optional<Byte> clock(bool line) {
    std::optional<Byte> out;
    const int half = div_ / 2;
    switch (state_) {
      case kIdle:
        if (!sync2_) {
          state_ = kBits;
          cnt_ = 1;
          bit_ = 0;
        }
        break;
      case kBits: {
        const int c = cnt_;
        cnt_ = (c == div_ - 1) ? 0 : c + 1;
        if (c == half - 1) smp0_ = sync2_;
        if (c == half) smp1_ = sync2_;
        if (c == half + 1) {
          const bool vote = (smp0_ && smp1_) || (smp0_ && sync2_) || (smp1_ && sync2_);
          if (bit_ == 0) {
            if (vote) state_ = kIdle;
          } else if (bit_ == 9) {
            out = Byte{shift_, !vote};
            state_ = vote ? kIdle : kBreak;
          } else {
            shift_ = static_cast<uint8_t>((shift_ >> 1) | (vote ? 0x80 : 0));
          }
        }
        if (c == div_ - 1) ++bit_;
        break;
      }
      default:
        if (sync2_) state_ = kIdle;
    }
    sync2_ = sync1_;
    sync1_ = line;
    return out;
  }
  bool idle() const { return state_ == kIdle && sync1_ && sync2_; }

 private:
  enum { kIdle, kBits, kBreak };
  int div_;
  bool sync1_ = true, sync2_ = true;
  int state_ = kIdle, cnt_ = 0, bit_ = 0;
  bool smp0_ = false, smp1_ = false;
  uint8_t shift_ = 0;
};

// The host's side of the line: levels queued per clock, high when empty.
class UartLine {
 public:
  explicit UartLine(int div) : div_(div) {}
  int div() const { return div_; }

  // A character: start bit, 8 data bits LSB first, stop bit. flip: bit i of the mask inverts
  // serial bit i (0 start, 1-8 data, 9 stop).
  void put(uint8_t b, uint16_t flip = 0) {
    for (int i = 0; i < 10; ++i) {
      bool v = i == 0 ? false : i == 9 ? true : ((b >> (i - 1)) & 1) != 0;
      if ((flip >> i) & 1) v = !v;
      level(v, div_);
    }
  }
  // A character with one clock inverted: serial bit `bit`, clock `clk` within it (noise the
  // receiver's majority vote removes when it falls on a sample).
  void putGlitch(uint8_t b, int bit, int clk) {
    const size_t at = q_.size() + static_cast<size_t>(bit * div_ + clk);
    put(b);
    q_[at] = !q_[at];
  }
  void idleBits(int bits) { level(true, bits * div_); }
  void idleClocks(int clocks) { level(true, clocks); }
  void breakBits(int bits) { level(false, bits * div_); }
  bool empty() const { return q_.empty(); }
  size_t pending() const { return q_.size(); }
  // The level for this clock.
  bool next() {
    if (q_.empty()) return true;
    const bool v = q_.front();
    q_.pop_front();
    return v;
  }

 private:
  void level(bool v, int clocks) {
    for (int i = 0; i < clocks; ++i) q_.push_back(v);
  }
  int div_;
  std::deque<bool> q_;
};

}  // namespace simt::tb
