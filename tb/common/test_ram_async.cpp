// simt_ram_async against model::RamAsync every cycle, random writes and reads on every port:
// 16 words x 22 bits with 3 read ports (the barrier table's tag RAM) and one word with 2
// ports (a single-warp core's per-warp state). A read in the cycle of a write to its address
// sees the old word; the written word is there from the next cycle.
#include "Vram_async.h"
#include "Vram_async1.h"
#include "common/harness.h"
#include "common/port_bits.h"
#include "common/sim_context.h"
#include "model/common/ram_async.h"

namespace simt::tb {
namespace {

template <class V>
void runRandom(const char* name, int depth, int width, int ports, int addrW) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SimContext<V> sim(name, seed);
    model::RamAsync model(static_cast<size_t>(depth));
    Scoreboard sb(name);
    Coverage cov(name);
    cov.define({"write", "read_written", "read_of_word_written_this_cycle", "ports_same_word"});
    const uint64_t mask = (uint64_t{1} << width) - 1;
    const int cycles = 20000 * lengthScale();
    for (int c = 0; c < cycles && sim.ok(); ++c) {
      const bool we = rng.chance(40);
      const auto waddr = static_cast<uint32_t>(rng.range(0, depth - 1));
      const uint64_t wdata = rng.bits(width) & mask;
      std::vector<uint32_t> addrs;
      for (int p = 0; p < ports; ++p) {
        // Half the reads at the word being written, to catch a write that shows early.
        const auto a = rng.chance(50) ? waddr : static_cast<uint32_t>(rng.range(0, depth - 1));
        addrs.push_back(a);
        setBits(sim->raddr_i, p * addrW, addrW, a);
      }
      sim->we_i = we;
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
        cov.sample("read_of_word_written_this_cycle", we && addrs[p] == waddr);
      }
      cov.sample("write", we);
      cov.sample("ports_same_word", ports > 1 && addrs[0] == addrs[1]);
      model.commit(we, waddr, wdata);
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

}  // namespace
}  // namespace simt::tb
