// simt_sm_fpu (the SM's FP unit with its result queue, issue #24) on its own against
// model::Fpu, on 32 lanes, on 8 and on 4 (issue #26: an instruction in passes, a group of 8
// or 4 threads a cycle; 4 are the board core's FP lanes beside its 8 ALU lanes): random FP instructions of 4 warps offered every cycle (more often than the core
// can: it starts one every 4 cycles at best), started as soon as the unit's scoreboard lets
// them (de_hazard_o: RAW/WAW on a result in flight, the queue's capacity for every pass, one
// division), a pass a cycle for each group with an executing thread, while the register
// file's write port is taken in random bursts (rf_busy_i). Every write is checked: the port
// was free, it is a pass's result in flight for that warp, register and group, its threads
// and every executing thread's value are the model's, no result that came back earlier is
// still waiting (oldest first), each is written exactly once; a division's groups come back
// 27 cycles apart (one iterative unit a lane, the later groups' operands kept); done_o comes
// the cycle after the last pass; busy_o, warps_o and freed_o follow. The capacity limit must
// be reached (the queue full: an FP instruction given back).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <vector>

#include "Vsm_fpu.h"
#include "Vsm_fpu4.h"
#include "Vsm_fpu8.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "model/fpu/fpu.h"

namespace simt::tb {
namespace {

using model::Fpu;

constexpr int kWarps = 4;  // CMakeLists.txt: Vsm_fpu, Vsm_fpu8 and Vsm_fpu4, NumWarps = 4

// A pass's result in flight (a division's later groups from their pass on: their operands
// wait in the unit).
struct InFlight {
  int warp = 0, rd = 0;
  bool ds = false;  // a division or square root
  uint32_t exec = 0;  // the pass's threads
  uint64_t done = 0;  // the cycle its result comes back
  std::vector<uint32_t> want;  // by thread
};

// An instruction whose passes are being started.
struct Passes {
  int opcode = 0, warp = 0, rd = 0, ra = 0, rb = 0, sub = 0;
  Fpu::Op op = Fpu::Op::Add;
  std::vector<uint32_t> groups;  // the groups' executing threads, in order
  size_t next = 0;
  uint64_t first = 0;  // the first pass's cycle
};

// {imm, sub, rb, ra, rd, guard, imm_b, op} as simt_sm_pkg::inst_t.
uint64_t instWord(int op, int rd, int ra, int rb, int sub) {
  return (static_cast<uint64_t>(sub) << 27) | (static_cast<uint64_t>(rb) << 22) |
         (static_cast<uint64_t>(ra) << 17) | (static_cast<uint64_t>(rd) << 12) | static_cast<uint64_t>(op);
}

template <class Dut>
void randomInstructions(int lanes, const char* name) {
  const int passes = 32 / lanes;
  const int depth = Fpu::kLatency + passes;  // simt_sm_fpu's Depth
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SimContext<Dut> sim(name, seed);
    auto& d = sim.dut();
    d.start_i = 0;
    d.de_fpu_i = 0;
    d.rf_busy_i = 0;
    sim.reset();
    std::vector<InFlight> flight;
    Passes cur;  // the instruction in its passes (groups empty: none)
    uint64_t started = 0, written = 0, capacityBacks = 0, divBacks = 0, rawBacks = 0, busyCycles = 0;
    uint64_t multiPass = 0, divGroups = 0, lastStart = ~0ull;
    int busyLeft = 0, maxFlight = 0;
    const int n = 4000 * lengthScale();
    for (int cyc = 0; cyc < n + 400 && sim.ok(); ++cyc) {
      const uint64_t now = sim.cycle();
      // The write port: taken in bursts of 1..6 cycles.
      if (busyLeft == 0 && rng.chance(20)) busyLeft = rng.range(1, 6);
      const bool busy = busyLeft > 0;
      if (busyLeft > 0) --busyLeft;
      d.rf_busy_i = busy;
      busyCycles += busy;
      d.start_i = 0;
      d.de_fpu_i = 0;
      if (cur.next == cur.groups.size()) {
        // DE: a random FP instruction (none in the last cycles: everything drains).
        const bool offer = cyc < n && rng.chance(85);
        static const Fpu::Op kOps[] = {Fpu::Op::Add, Fpu::Op::Mul, Fpu::Op::Fma, Fpu::Op::Max, Fpu::Op::S2F,
                                       Fpu::Op::F2S, Fpu::Op::Neg, Fpu::Op::Div, Fpu::Op::Sqrt};
        Passes in;
        in.op = kOps[rng.below(9)];
        in.warp = rng.below(kWarps);
        in.rd = rng.below(8);
        in.ra = rng.below(8);
        in.rb = rng.below(8);
        const bool ds = in.op == Fpu::Op::Div || in.op == Fpu::Op::Sqrt;
        in.opcode = 64 + static_cast<int>(in.op);
        in.sub = (in.op == Fpu::Op::F2S) ? 1 : (in.op == Fpu::Op::Fma ? rng.below(8) : 0);
        d.de_w_i = in.warp;
        d.de_regs_i = (1u << in.rd) | (1u << in.ra) | (1u << in.rb) | (in.op == Fpu::Op::Fma ? 1u << in.sub : 0u);
        d.de_fpu_i = offer;
        d.de_ds_i = ds;
        sim.eval();
        if (offer && d.de_hazard_o) {
          bool raw = false, div = false;
          for (const auto& f : flight) {
            if (f.warp == in.warp && ((d.de_regs_i >> f.rd) & 1u)) raw = true;
            if (f.ds && f.done >= now) div = true;  // the division's tag lasts to its last result
          }
          if (raw) ++rawBacks;
          else if (ds && div) ++divBacks;
          else ++capacityBacks;
          EXPECT_TRUE(raw || (ds && div) || flight.size() + static_cast<size_t>(passes) > static_cast<size_t>(depth))
              << "given back without a reason at cycle " << now;
        }
        if (offer && !d.de_hazard_o) {
          // Start it now (the core starts a cycle or more later; nothing else starts between):
          // a pass for each group with an executing thread (a few threads or all of them).
          const uint32_t exec = rng.chance(30) ? 0xffffffffu : (static_cast<uint32_t>(rng.bits(32)) & 0x01010101u) | 1u;
          const uint32_t mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
          for (int g = 0; g < passes; ++g) {
            const uint32_t t = exec & (mask << (g * lanes));
            if (t) in.groups.push_back(t);
          }
          in.first = now;
          multiPass += in.groups.size() > 1;
          cur = in;
        }
      }
      InFlight start;
      bool last = false;
      if (cur.next < cur.groups.size()) {
        const uint32_t threads = cur.groups[cur.next];
        const int g = __builtin_ctz(threads) / lanes;  // the pass's group
        const bool ds = cur.op == Fpu::Op::Div || cur.op == Fpu::Op::Sqrt;
        last = cur.next + 1 == cur.groups.size();
        start.warp = cur.warp;
        start.rd = cur.rd;
        start.ds = ds;
        start.exec = threads;
        start.done = ds ? cur.first + Fpu::kDivSqrtLatency * (cur.next + 1) : now + Fpu::kLatency;
        start.want.assign(32, 0);
        d.inst_i = instWord(cur.opcode, cur.rd, cur.ra, cur.rb, cur.sub);
        d.exec_i = threads;
        d.pass_i = g;
        d.last_i = last;
        d.warp_i = cur.warp;
        for (int l = 0; l < lanes; ++l) {
          const uint32_t a = static_cast<uint32_t>(rng.bits(32)), b = static_cast<uint32_t>(rng.bits(32)),
                         c = static_cast<uint32_t>(rng.bits(32));
          d.opa_i[l] = a;
          d.opb_i[l] = b;
          d.opc_i[l] = c;
          start.want[g * lanes + l] =
              Fpu::execute(cur.op, static_cast<Fpu::Rm>(cur.sub & 3), Fpu::Cmp::Eq, a, b, c).value;
        }
        divGroups += ds && cur.next > 0;
        ++cur.next;
        d.start_i = 1;
        sim.eval();
      }
      // done_o: the cycle after an instruction's last pass.
      EXPECT_EQ(d.done_o, lastStart + 1 == now) << "cycle " << now;
      // The write of this cycle.
      const bool wrote = d.rf_we_o != 0;
      EXPECT_EQ(d.freed_o, wrote) << "cycle " << now;
      EXPECT_EQ(d.rf_late_o, wrote) << "cycle " << now;
      EXPECT_EQ(d.wb_wait_o && !busy, false) << "a result waits with the port free, cycle " << now;
      if (wrote) {
        EXPECT_FALSE(busy) << "a write while the port is taken, cycle " << now;
        const int ww = static_cast<int>(d.rf_waddr_o >> 5), wr = static_cast<int>(d.rf_waddr_o & 31);
        const uint32_t we = static_cast<uint32_t>(d.rf_we_o);
        size_t hit = flight.size();
        for (size_t i = 0; i < flight.size(); ++i) {
          if (flight[i].warp == ww && flight[i].rd == wr && (flight[i].exec & we) != 0) hit = i;
        }
        if (hit == flight.size()) {
          ADD_FAILURE() << "a write of warp " << ww << " r" << wr << " threads " << std::hex << we << std::dec
                        << " with no such result in flight, cycle " << now;
          break;
        }
        const InFlight& f = flight[hit];
        EXPECT_LE(f.done, now) << "written before it came back (due " << f.done << "), cycle " << now;
        for (const auto& o : flight) {
          EXPECT_FALSE(o.done < f.done) << "an older result (back in cycle " << o.done << ") waits while one of cycle "
                                        << f.done << " is written";
        }
        EXPECT_EQ(we, f.exec) << "threads of warp " << ww << " r" << wr;
        for (int t = 0; t < 32; ++t) {
          if ((f.exec >> t) & 1u) {
            EXPECT_EQ(d.rf_wdata_o[t % lanes], f.want[t]) << "thread " << t << " of warp " << ww << " r" << wr;
          }
        }
        flight.erase(flight.begin() + static_cast<long>(hit));
        ++written;
      } else {
        // Nothing written although a result is back and the port free: it must be waiting.
        for (const auto& o : flight) {
          EXPECT_FALSE(o.done <= now && !busy) << "a result not written (due " << o.done << "), cycle " << now;
        }
      }
      if (d.start_i) {
        flight.push_back(start);
        ++started;
        if (last) lastStart = now;
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
    EXPECT_EQ(maxFlight, depth) << "the queue must fill";
    EXPECT_GT(capacityBacks, 0u) << "an FP instruction must be given back at the capacity";
    EXPECT_GT(divBacks, 0u);
    EXPECT_GT(rawBacks, 0u);
    if (passes > 1) {
      EXPECT_GT(multiPass, 0u);
      EXPECT_GT(divGroups, 0u) << "a division's later groups must run";
    }
    std::printf("sm fpu, %d lanes: %llu passes started and written (%llu instructions of several passes, %llu later "
                "division groups); given back: %llu capacity, %llu division, %llu RAW/WAW; port taken %llu cycles\n",
                lanes, static_cast<unsigned long long>(started), static_cast<unsigned long long>(multiPass),
                static_cast<unsigned long long>(divGroups), static_cast<unsigned long long>(capacityBacks),
                static_cast<unsigned long long>(divBacks), static_cast<unsigned long long>(rawBacks),
                static_cast<unsigned long long>(busyCycles));
  }
}

TEST(SmFpuRtl, RandomInstructionsOfFourWarpsWithTheQueueFullAndThePortTaken) {
  randomInstructions<Vsm_fpu>(32, "simt_sm_fpu");
}

TEST(SmFpuRtl, EightLanesRunAnInstructionInPassesAndADivisionsGroupsInTurn) {
  randomInstructions<Vsm_fpu8>(8, "simt_sm_fpu8");
}

TEST(SmFpuRtl, FourLanesRunAnInstructionInEightPasses) {
  randomInstructions<Vsm_fpu4>(4, "simt_sm_fpu4");
}

}  // namespace
}  // namespace simt::tb
