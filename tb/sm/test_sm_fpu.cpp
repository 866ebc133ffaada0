// simt_sm_fpu (the SM's FP unit with its result queue, issue #24) on its own against
// model::Fpu: random FP instructions of 4 warps offered every cycle (more often than the core
// can: it starts one every 4 cycles at best), started as soon as the unit's scoreboard lets
// them (de_hazard_o: RAW/WAW on a result in flight, the queue's capacity, one division), while
// the register file's write port is taken in random bursts (rf_busy_i). Every write is
// checked: the port was free, it is a result in flight for that warp and register, its lanes
// and every executing lane's value are the model's, no result that came back earlier is still
// waiting (oldest first), each is written exactly once; busy_o, warps_o and freed_o follow.
// The capacity limit must be reached (the queue full: an FP instruction given back).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <vector>

#include "Vsm_fpu.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "model/fpu/fpu.h"

namespace simt::tb {
namespace {

using model::Fpu;

constexpr int kWarps = 4;  // CMakeLists.txt: Vsm_fpu, NumWarps = 4
constexpr int kDepth = 4;  // simt_sm_fpu's Depth (Latency + 1)

struct InFlight {
  int warp = 0, rd = 0;
  bool ds = false;  // a division or square root
  uint32_t exec = 0;
  uint64_t done = 0;  // the cycle its result comes back
  std::vector<uint32_t> want;
};

// {imm, sub, rb, ra, rd, guard, imm_b, op} as simt_sm_pkg::inst_t.
uint64_t instWord(int op, int rd, int ra, int rb, int sub) {
  return (static_cast<uint64_t>(sub) << 27) | (static_cast<uint64_t>(rb) << 22) |
         (static_cast<uint64_t>(ra) << 17) | (static_cast<uint64_t>(rd) << 12) | static_cast<uint64_t>(op);
}

TEST(SmFpuRtl, RandomInstructionsOfFourWarpsWithTheQueueFullAndThePortTaken) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SimContext<Vsm_fpu> sim("simt_sm_fpu", seed);
    auto& d = sim.dut();
    d.start_i = 0;
    d.de_fpu_i = 0;
    d.rf_busy_i = 0;
    sim.reset();
    std::vector<InFlight> flight;
    uint64_t started = 0, written = 0, capacityBacks = 0, divBacks = 0, rawBacks = 0, busyCycles = 0;
    int busyLeft = 0, maxFlight = 0;
    const int n = 4000 * lengthScale();
    for (int cyc = 0; cyc < n + 200 && sim.ok(); ++cyc) {
      const uint64_t now = sim.cycle();
      // The write port: taken in bursts of 1..6 cycles.
      if (busyLeft == 0 && rng.chance(20)) busyLeft = rng.range(1, 6);
      const bool busy = busyLeft > 0;
      if (busyLeft > 0) --busyLeft;
      d.rf_busy_i = busy;
      busyCycles += busy;
      // DE: a random FP instruction (none in the last cycles: everything drains).
      const bool offer = cyc < n && rng.chance(85);
      static const Fpu::Op kOps[] = {Fpu::Op::Add, Fpu::Op::Mul, Fpu::Op::Fma, Fpu::Op::Max, Fpu::Op::S2F,
                                     Fpu::Op::F2S, Fpu::Op::Neg, Fpu::Op::Div, Fpu::Op::Sqrt};
      const Fpu::Op op = kOps[rng.below(9)];
      const int warp = rng.below(kWarps), rd = rng.below(8), ra = rng.below(8), rb = rng.below(8);
      const bool ds = op == Fpu::Op::Div || op == Fpu::Op::Sqrt;
      const int opcode = 64 + static_cast<int>(op);
      const int sub = (op == Fpu::Op::F2S) ? 1 : (op == Fpu::Op::Fma ? rng.below(8) : 0);
      d.de_w_i = warp;
      d.de_regs_i = (1u << rd) | (1u << ra) | (1u << rb) | (op == Fpu::Op::Fma ? 1u << sub : 0u);
      d.de_fpu_i = offer;
      d.de_ds_i = ds;
      d.start_i = 0;
      sim.eval();
      if (offer && d.de_hazard_o) {
        bool raw = false, div = false;
        for (const auto& f : flight) {
          if (f.warp == warp && ((d.de_regs_i >> f.rd) & 1u)) raw = true;
          if (f.ds && f.done >= now) div = true;  // the division's tag lasts to its result
        }
        if (raw) ++rawBacks;
        else if (ds && div) ++divBacks;
        else ++capacityBacks;
        EXPECT_TRUE(raw || (ds && div) || flight.size() >= static_cast<size_t>(kDepth))
            << "given back without a reason at cycle " << now;
      }
      InFlight start;
      if (offer && !d.de_hazard_o) {
        // Start it now (the core starts a cycle or more later; nothing else starts between).
        start.warp = warp;
        start.rd = rd;
        start.ds = ds;
        start.exec = static_cast<uint32_t>(rng.bits(32)) | 1u;
        start.done = now + (ds ? Fpu::kDivSqrtLatency : Fpu::kLatency);
        d.inst_i = instWord(opcode, rd, ra, rb, sub);
        d.exec_i = start.exec;
        d.warp_i = warp;
        for (int l = 0; l < 32; ++l) {
          const uint32_t a = static_cast<uint32_t>(rng.bits(32)), b = static_cast<uint32_t>(rng.bits(32)),
                         c = static_cast<uint32_t>(rng.bits(32));
          d.opa_i[l] = a;
          d.opb_i[l] = b;
          d.opc_i[l] = c;
          start.want.push_back(
              Fpu::execute(op, static_cast<Fpu::Rm>(sub & 3), Fpu::Cmp::Eq, a, b, c).value);
        }
        d.start_i = 1;
        sim.eval();
      }
      // The write of this cycle.
      const bool wrote = d.rf_we_o != 0;
      EXPECT_EQ(d.freed_o, wrote) << "cycle " << now;
      EXPECT_EQ(d.rf_late_o, wrote) << "cycle " << now;
      EXPECT_EQ(d.wb_wait_o && !busy, false) << "a result waits with the port free, cycle " << now;
      if (wrote) {
        EXPECT_FALSE(busy) << "a write while the port is taken, cycle " << now;
        const int ww = static_cast<int>(d.rf_waddr_o >> 5), wr = static_cast<int>(d.rf_waddr_o & 31);
        size_t hit = flight.size();
        for (size_t i = 0; i < flight.size(); ++i) {
          if (flight[i].warp == ww && flight[i].rd == wr) hit = i;
        }
        if (hit == flight.size()) {
          ADD_FAILURE() << "a write of warp " << ww << " r" << wr << " with no such result in flight, cycle " << now;
          break;
        }
        const InFlight& f = flight[hit];
        EXPECT_LE(f.done, now) << "written before it came back";
        for (const auto& o : flight) {
          EXPECT_FALSE(o.done < f.done) << "an older result (back in cycle " << o.done << ") waits while one of cycle "
                                        << f.done << " is written";
        }
        EXPECT_EQ(d.rf_we_o, f.exec) << "lanes of warp " << ww << " r" << wr;
        for (int l = 0; l < 32; ++l) {
          if ((f.exec >> l) & 1u) {
            EXPECT_EQ(d.rf_wdata_o[l], f.want[l]) << "lane " << l << " of warp " << ww << " r" << wr;
          }
        }
        flight.erase(flight.begin() + static_cast<long>(hit));
        ++written;
      } else {
        // Nothing written although a result is back and the port free: it must be waiting.
        for (const auto& o : flight) EXPECT_FALSE(o.done <= now && !busy) << "a result not written, cycle " << now;
      }
      if (d.start_i) {
        flight.push_back(start);
        ++started;
      }
      maxFlight = std::max(maxFlight, static_cast<int>(flight.size()));
      sim.tick();
      // After the edge: busy_o and warps_o describe what is in flight.
      d.start_i = 0;
      d.de_fpu_i = 0;
      sim.eval();
      uint32_t warps = 0;
      for (const auto& f : flight) warps |= 1u << f.warp;
      EXPECT_EQ(d.busy_o, !flight.empty()) << "cycle " << sim.cycle();
      EXPECT_EQ(static_cast<uint32_t>(d.warps_o), warps) << "cycle " << sim.cycle();
      if (::testing::Test::HasFailure()) break;
    }
    EXPECT_TRUE(flight.empty()) << flight.size() << " results never written";
    EXPECT_EQ(written, started);
    EXPECT_EQ(maxFlight, kDepth) << "the queue must fill";
    EXPECT_GT(capacityBacks, 0u) << "an FP instruction must be given back at the capacity";
    EXPECT_GT(divBacks, 0u);
    EXPECT_GT(rawBacks, 0u);
    std::printf("sm fpu: %llu started and written; given back: %llu capacity, %llu division, %llu RAW/WAW; "
                "port taken %llu cycles\n",
                static_cast<unsigned long long>(started), static_cast<unsigned long long>(capacityBacks),
                static_cast<unsigned long long>(divBacks), static_cast<unsigned long long>(rawBacks),
                static_cast<unsigned long long>(busyCycles));
  }
}

}  // namespace
}  // namespace simt::tb
