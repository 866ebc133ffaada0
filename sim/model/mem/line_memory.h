// The memory behind the line-wide memory port (docs/blocks/mem_port.md), as the C++ harness
// serves it to the verilated core and block tests serve it to units: functional words plus
// timing. A request is performed when it is accepted (so requests take effect in acceptance
// order, rule 3 of the port) and answered after its latency; a data channel of `bandwidth`
// bytes per cycle moves each request's line, so back-to-back requests queue behind it.
// Block tests add random back-pressure, random extra latency (responses then come out of
// order) and injected errors, from a seed.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <vector>

namespace simt::model {

class LineMemory {
 public:
  struct Timing {
    uint32_t latency = 1;           // cycles from a request's data transfer to its response
    uint32_t bandwidth = 64;        // bytes per cycle of the data channel
    uint32_t maxOutstanding = 64;   // requests accepted and not yet answered (then not ready)
    // Block tests: the chance (in 1/256) of refusing a request in a cycle, of adding up to
    // `jitter` cycles to a response's latency, and of answering with an error.
    uint32_t refuse256 = 0, jitter = 0, error256 = 0;
    uint64_t seed = 1;
  };
  struct Request {
    uint32_t id = 0;
    bool write = false;
    uint8_t amo = 0;                 // simt_mem_pkg::amo_e
    uint32_t addr = 0;               // the line's byte address
    std::vector<uint8_t> be;         // LineBytes byte enables
    std::vector<uint32_t> wdata;     // LineBytes / 4 words
    uint32_t cmp = 0;
  };
  struct Response {
    uint32_t id = 0;
    bool err = false;
    std::vector<uint32_t> rdata;     // LineBytes / 4 words
    uint64_t readyAt = 0;
  };
  struct Stats {
    uint64_t requests = 0, reads = 0, writes = 0, atomics = 0, readBytes = 0, writeBytes = 0, errors = 0;
  };
  // Called for every word a write or atomic changes: byte address, old and new value.
  using WriteHook = std::function<void(uint32_t, uint32_t, uint32_t)>;

  LineMemory(std::vector<uint32_t>& words, uint32_t lineBytes, const Timing& timing);

  // This cycle: would a request be accepted? (Decided once per cycle, before accept().)
  bool ready() const { return ready_; }
  // Requests a memory of this latency and bandwidth must hold at once so that its data channel,
  // not the number it holds, bounds the traffic (Little's law: one line a cycle at most, each
  // in the memory for its transfer and its latency), twice over for bursts, and at least 64:
  // `simt run`'s default for --mem-outstanding.
  static uint32_t outstandingFor(uint32_t latency, uint32_t bandwidth, uint32_t lineBytes);
  // Performs the request (the caller saw ready()): its effect is immediate.
  void accept(const Request& r);
  // The request's effect on the words and its response (id, err, a read's line, an atomic's
  // old word), without timing: what accept() does first, for benches of other memories.
  Response perform(const Request& r);
  // The response offered this cycle, if any (the oldest ready one; with jitter, any ready).
  const Response* offered() const;
  void take();                       // the requester took the offered response
  void tick();                       // the clock edge: next cycle
  bool idle() const { return pending_.empty(); }
  const Stats& stats() const { return stats_; }
  void onWrite(WriteHook h) { writeHook_ = std::move(h); }
  uint32_t lineBytes() const { return lineBytes_; }

  // The word an atomic leaves (simt_mem_pkg::amo_apply).
  static uint32_t amoApply(uint8_t op, uint32_t old, uint32_t operand, uint32_t cmp);

 private:
  void decideReady();
  // Cycles a line holds the data channel.
  static uint64_t transferCycles(uint32_t lineBytes, uint32_t bandwidth);
  size_t offeredIndex() const;  // pending_.size() when none

  std::vector<uint32_t>& words_;
  uint32_t lineBytes_;
  Timing t_;
  std::mt19937_64 rng_;
  uint64_t now_ = 0, channelFree_ = 0;
  bool ready_ = true;
  std::deque<Response> pending_;
  Stats stats_;
  WriteHook writeHook_;
};

}  // namespace simt::model
