// simt_ram_async against model::RamAsync every cycle, random writes and reads on every port:
// 16 words x 22 bits with 3 read ports (the barrier table's tag RAM), one word with 2 ports,
// and with ResetValid 8 words and one word (the divergence unit's per-warp state at 8 warps
// and at 1) under resets at random cycles; with 4 write enables (parts of 7 bits: the barrier
// table's thread state, a thread's 7 bits each) at 2 words and at 1, random parts written. A
// read in the cycle of a write to its address sees the old word; the written word is there
// from the next cycle.
#include "Vram_async.h"
#include "Vram_async1.h"
#include "Vram_async_rv.h"
#include "Vram_async_rv1.h"
#include "Vram_async_we.h"
#include "Vram_async_we1.h"
#include "common/harness.h"
#include "common/port_bits.h"
#include "common/sim_context.h"
#include "model/common/ram_async.h"

namespace simt::tb {
namespace {

// resetWord: the RTL's ResetWord when it is built with ResetValid (resets then come at random).
// numWe: the RTL's write enables (parts of width / numWe bits).
template <class V>
void runRandom(const char* name, int depth, int width, int ports, int addrW,
               std::optional<uint64_t> resetWord = std::nullopt, int numWe = 1) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SimContext<V> sim(name, seed);
    sim->we_i = 0;  // (inputs start random: no write, to no word, in the reset cycles)
    sim->waddr_i = 0;
    sim.reset();    // (clears only the valid bits of a ResetValid RAM)
    model::RamAsync model(static_cast<size_t>(depth), resetWord);
    Scoreboard sb(name);
    Coverage cov(name);
    cov.define({"write", "read_written", "read_of_word_written_this_cycle", "ports_same_word"});
    if (resetWord) cov.define({"reset", "read_of_reset_word"});
    if (numWe > 1) cov.define({"some_parts_written", "read_of_word_partly_written_this_cycle"});
    const uint32_t allParts = (1u << numWe) - 1;
    const int cycles = 20000 * lengthScale();
    for (int c = 0; c < cycles && sim.ok(); ++c) {
      if (resetWord && rng.chance(1)) {
        sim.reset();
        model.reset();
        cov.sample("reset", true);
      }
      const bool we = rng.chance(40);
      const auto waddr = static_cast<uint32_t>(rng.range(0, depth - 1));
      const uint64_t wdata = rng.bits(width);
      // With parts: every part half the time (a word is defined once written whole), else
      // a random set of them.
      const uint32_t parts = !we ? 0u : (numWe == 1 || rng.chance(50)) ? allParts
                                                                      : static_cast<uint32_t>(rng.bits(numWe));
      std::vector<uint32_t> addrs;
      for (int p = 0; p < ports; ++p) {
        // Half the reads at the word being written, to catch a write that shows early.
        const auto a = rng.chance(50) ? waddr : static_cast<uint32_t>(rng.range(0, depth - 1));
        addrs.push_back(a);
        setBits(sim->raddr_i, p * addrW, addrW, a);
      }
      sim->we_i = parts;
      sim->waddr_i = waddr;
      sim->wdata_i = wdata;
      sim.eval();
      for (int p = 0; p < ports; ++p) {
        const auto expected = model.read(addrs[p]);
        if (!expected) continue;  // never written: undefined by contract
        const uint64_t got = getBits(sim->rdata_o, p * width, width);
        sb.check("cycle " + std::to_string(c) + " port " + std::to_string(p),
                 {{"rdata", *expected}}, {{"rdata", got}});
        cov.sample("read_written", true);
        if (resetWord) cov.sample("read_of_reset_word", *expected == *resetWord);
        cov.sample("read_of_word_written_this_cycle", we && addrs[p] == waddr);
        if (numWe > 1) {
          cov.sample("read_of_word_partly_written_this_cycle",
                     addrs[p] == waddr && parts != 0 && parts != allParts);
        }
      }
      cov.sample("write", we);
      if (numWe > 1) cov.sample("some_parts_written", parts != 0 && parts != allParts);
      cov.sample("ports_same_word", ports > 1 && addrs[0] == addrs[1]);
      model.commitParts(parts, numWe, width / numWe, waddr, wdata);
      sim.tick();
    }
    EXPECT_TRUE(sb.clean());
    cov.requireAllHit();
  }
}

TEST(RamAsync, SixteenWordsThreePortsMatchModel) {
  runRandom<Vram_async>("simt_ram_async", 16, 22, 3, 4);
}

TEST(RamAsync, OneWordTwoPortsMatchModel) {
  runRandom<Vram_async1>("simt_ram_async_depth1", 1, 22, 2, 1);
}

TEST(RamAsync, ResetValidEightWordsReadResetWordUntilWritten) {
  runRandom<Vram_async_rv>("simt_ram_async_rv", 8, 22, 2, 3, 0x2A5A5Aull);
}

TEST(RamAsync, ResetValidOneWordIsARegisterWithReset) {
  runRandom<Vram_async_rv1>("simt_ram_async_rv1", 1, 22, 2, 1, 0x2A5A5Aull);
}

TEST(RamAsync, WriteEnablesPerPartWriteOnlyTheirParts) {
  runRandom<Vram_async_we>("simt_ram_async_we", 2, 28, 2, 1, std::nullopt, 4);
}

TEST(RamAsync, WriteEnablesPerPartOneWord) {
  runRandom<Vram_async_we1>("simt_ram_async_we1", 1, 28, 2, 1, std::nullopt, 4);
}

}  // namespace
}  // namespace simt::tb
