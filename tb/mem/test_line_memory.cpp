// The harness memory's timing (sim/model/mem/line_memory.{h,cpp}, docs/blocks/mem_port.md,
// "Who serves the port"): a requester that offers a read every cycle and takes every response
// gets what the data channel allows once the memory holds enough requests (Little's law), and
// no more than the requests it holds allow when that is the bound.
#include "model/mem/line_memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace simt::tb {
namespace {

using model::LineMemory;

// Reads of consecutive lines offered every cycle for `cycles` cycles, every response taken at
// once: the responses taken.
uint64_t streamReads(uint32_t latency, uint32_t bandwidth, uint32_t outstanding, int cycles) {
  constexpr uint32_t kLine = 64;
  std::vector<uint32_t> words(1u << 16, 0);
  LineMemory::Timing t;
  t.latency = latency;
  t.bandwidth = bandwidth;
  t.maxOutstanding = outstanding;
  LineMemory mem(words, kLine, t);
  uint64_t accepted = 0, taken = 0;
  uint32_t id = 0;
  for (int c = 0; c < cycles; ++c) {
    if (mem.offered() != nullptr) {
      mem.take();
      ++taken;
    }
    if (mem.ready()) {
      LineMemory::Request r;
      r.id = id++;
      r.addr = static_cast<uint32_t>((accepted * kLine) % (words.size() * 4));
      r.be.assign(kLine, 1);
      r.wdata.assign(kLine / 4, 0);
      mem.accept(r);
      ++accepted;
    }
    mem.tick();
  }
  return taken;
}

TEST(LineMemory, OutstandingForKeepsTheDataChannelTheBound) {
  // The defaults (20 cycles, 16 bytes a cycle: a line every 4 cycles) need 6: at least 64.
  EXPECT_EQ(LineMemory::outstandingFor(20, 16, 64), 64u);
  // 100 cycles at a line a cycle: 101 in the memory, twice over.
  EXPECT_EQ(LineMemory::outstandingFor(100, 64, 64), 202u);
  EXPECT_EQ(LineMemory::outstandingFor(300, 64, 64), 602u);
  // A channel wider than a line still takes one request a cycle.
  EXPECT_EQ(LineMemory::outstandingFor(100, 256, 64), 202u);

  constexpr int kCycles = 20000;
  // With outstandingFor's requests a line a cycle at 100 cycles: the channel's rate (all but
  // the first latency's worth of cycles accept).
  const uint64_t full = streamReads(100, 64, LineMemory::outstandingFor(100, 64, 64), kCycles);
  EXPECT_GE(full, static_cast<uint64_t>(kCycles - 110));
  // With 64 held the memory is the bound: 64 requests per latency plus transfer (0.63 a cycle).
  const uint64_t held = streamReads(100, 64, 64, kCycles);
  EXPECT_LE(held, static_cast<uint64_t>(kCycles * 64 / 100));
  EXPECT_GE(held, static_cast<uint64_t>(kCycles * 64 / 103));
  // At the defaults the channel is the bound with 64: a line every 4 cycles.
  const uint64_t slow = streamReads(20, 16, LineMemory::outstandingFor(20, 16, 64), kCycles);
  EXPECT_GE(slow, static_cast<uint64_t>(kCycles / 4 - 30));
  EXPECT_LE(slow, static_cast<uint64_t>(kCycles / 4 + 1));
}

}  // namespace
}  // namespace simt::tb
