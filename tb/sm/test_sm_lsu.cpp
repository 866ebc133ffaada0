// simt_sm_lsu against model::SmLsu: random warp memory instructions (ld/st global and
// shared, v4, atomics, cas; lanes colliding on one word; misaligned and out-of-range
// addresses) on a C++ memory that answers with random latency and back-pressure. Every
// request on the global port, every register write and every fault is compared with the
// model's, and the memories and registers at the end. Directed tests pin the port's timing.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Vsm_lsu.h"
#include "asm/isa.h"
#include "common/harness.h"
#include "common/port_bits.h"
#include "common/sim_context.h"
#include "model/sm/lsu.h"

namespace simt::tb {
namespace {

using isa::Op;
using model::SmLsu;
using model::WarpRegs;

// The verilated geometry (CMakeLists.txt: Vsm_lsu).
constexpr int kWarpW = 2;       // NumWarps = 4
constexpr int kCtas = 2;
constexpr int kSharedWords = 256;
constexpr int kMaxCycles = 20000;  // per instruction: a hang fails the test

// The memory on the port: accepts a request when ready (random back-pressure), answers it
// after a latency drawn per request (>= 1 cycle), one request outstanding as the unit issues.
struct PortTiming {
  int readyPercent = 100;
  int minLatency = 1, maxLatency = 1;
};

struct Observed {
  std::vector<SmLsu::MemRequest> requests;
  std::vector<SmLsu::RegWrite> writes;
  int fault = 0, faultLane = 0;
  uint32_t faultAddr = 0;
  int cycles = 0;
  int stallCycles = 0;   // valid without ready
  bool ok = true;        // finished without a hang or an RTL assertion
};

class LsuBench {
 public:
  LsuBench(const SmLsu::Config& cfg, uint64_t seed)
      : cfg_(cfg), sim_("simt_sm_lsu", seed), model_(cfg), rng_(seed ^ 0x15u),
        mem_(cfg.globalBytes / 4, 0) {
    sim_->cfg_global_bytes_i = cfg.globalBytes;
    sim_->cfg_shared_bytes_i = cfg.sharedBytes;
    sim_->start_i = 0;
    sim_->sh_clr_i = 0;
    sim_->mem_req_ready_i = 0;
    sim_->mem_rsp_valid_i = 0;
    auto s = [](const char* name, int w) { return waveSignal("simt_sm_lsu", name, w); };
    sim_.setWaveGroups({
        {"control", {s("start_i", 1), s("exec_i", 32), s("state_q", 3), s("mrem_q", 32),
                     s("mlane_q", 5), s("melem_q", 2), s("done_o", 1)}},
        {"memory", {s("mem_req_valid_o", 1), s("mem_req_ready_i", 1), s("mem_req_we_o", 1),
                    s("mem_req_addr_o", 32), s("mem_req_wdata_o", 32), s("mem_rsp_valid_i", 1),
                    s("mem_rsp_rdata_i", 32)}},
        {"registers", {s("rf_re_o", 1), s("rf_reg_o", 5), s("rf_we_o", 32), s("rf_waddr_o", 7)}},
    });
    sim_.reset();
  }

  SimContext<Vsm_lsu>& sim() { return sim_; }
  SmLsu& model() { return model_; }
  std::vector<uint32_t>& memory() { return mem_; }
  WarpRegs& regs() { return regs_; }
  WarpRegs& modelRegs() { return modelRegs_; }
  void setTiming(const PortTiming& t) { timing_ = t; }

  // Fills both memories and both register files alike.
  void fill(Rng& rng) {
    for (auto& w : mem_) w = static_cast<uint32_t>(rng.bits(32));
    model_.global() = mem_;
    for (auto& r : regs_) for (auto& v : r) v = static_cast<uint32_t>(rng.bits(32));
    modelRegs_ = regs_;
  }

  // The launch's clear of a CTA's shared memory, one word per cycle.
  void clearShared(int cta, int words) {
    for (int i = 0; i < words; ++i) {
      sim_->sh_clr_i = 1;
      sim_->sh_clr_addr_i = static_cast<uint32_t>(cta * kSharedWords + i);
      sim_.eval();
      sim_.tick();
    }
    sim_->sh_clr_i = 0;
    model_.clearShared(cta, words);
  }

  // Runs one instruction on the RTL until done or fault.
  Observed runRtl(const SmLsu::Instruction& in, int warp) {
    Observed ob;
    isa::Instr enc;
    enc.op = in.op;
    enc.immB = in.immB;
    enc.rd = in.rd;
    enc.ra = in.ra;
    enc.rb = in.rb;
    enc.sub = in.sub;
    enc.imm = in.imm;
    sim_->inst_i = enc.encode();
    sim_->exec_i = in.exec;
    sim_->warp_i = static_cast<uint8_t>(warp);
    sim_->cta_i = static_cast<uint8_t>(in.cta);
    for (int l = 0; l < 32; ++l) {  // operands as latched in EXEC
      setBits(sim_->opa_i, l * 32, 32, regs_[in.ra][static_cast<size_t>(l)]);
      setBits(sim_->opb_i, l * 32, 32, regs_[in.rb][static_cast<size_t>(l)]);
      setBits(sim_->opc_i, l * 32, 32, regs_[in.sub][static_cast<size_t>(l)]);
    }
    sim_->start_i = 1;
    for (int c = 0; c < kMaxCycles; ++c) {
      drivePort();
      sim_.eval();
      const bool done = sim_->done_o;
      const uint64_t fault = sim_->fault_o;
      samplePort(ob);
      sampleRegisters(ob, warp);
      sim_.tick();
      sim_->start_i = 0;
      ++ob.cycles;
      if (!sim_.ok()) {
        ADD_FAILURE() << "RTL assertion failed";
        ob.ok = false;
        return ob;
      }
      const int cause = static_cast<int>(fault >> 38) & 0xF;
      if (cause != 0) {
        ob.fault = cause;
        ob.faultLane = static_cast<int>((fault >> 32) & 0x1F);
        ob.faultAddr = static_cast<uint32_t>(fault);
        EXPECT_TRUE((fault >> 37) & 1u) << "a memory fault names its lane";
        return ob;
      }
      if (done) {
        EXPECT_FALSE(sim_->busy_o) << "done while still busy";
        return ob;
      }
    }
    ADD_FAILURE() << "load/store unit did not finish in " << kMaxCycles << " cycles";
    ob.ok = false;
    return ob;
  }

 private:
  void drivePort() {
    sim_->mem_req_ready_i = rng_.chance(timing_.readyPercent);
    sim_->mem_rsp_valid_i = 0;
    if (!pending_.empty() && pending_.front().due == cycle_) {
      sim_->mem_rsp_valid_i = 1;
      sim_->mem_rsp_rdata_i = pending_.front().data;
      pending_.pop_front();
    }
    sim_->rf_rdata_i = rfRead_;
  }

  void samplePort(Observed& ob) {
    if (sim_->mem_req_valid_o && !sim_->mem_req_ready_i) ++ob.stallCycles;
    if (sim_->mem_req_valid_o && sim_->mem_req_ready_i) {
      const uint32_t addr = sim_->mem_req_addr_o;
      const bool we = sim_->mem_req_we_o;
      EXPECT_TRUE(pending_.empty()) << "a second request before the response";
      EXPECT_EQ(addr % 4, 0u) << "unaligned request reached the port";
      EXPECT_LT(addr / 4, mem_.size()) << "out-of-range request reached the port";
      uint32_t data = 0;
      if (addr / 4 < mem_.size()) {
        data = mem_[addr / 4];
        if (we) mem_[addr / 4] = sim_->mem_req_wdata_o;
      }
      ob.requests.push_back({we, addr, we ? static_cast<uint32_t>(sim_->mem_req_wdata_o) : 0u});
      const int lat = rng_.range(timing_.minLatency, timing_.maxLatency);
      pending_.push_back({cycle_ + static_cast<uint64_t>(lat), data});
    }
    ++cycle_;
  }

  void sampleRegisters(Observed& ob, int warp) {
    if (sim_->rf_re_o) {  // the bank's registered read: data in the next cycle
      for (int l = 0; l < 32; ++l) setBits(rfRead_, l * 32, 32, regs_[sim_->rf_reg_o & 31u][static_cast<size_t>(l)]);
    }
    const uint32_t we = sim_->rf_we_o;
    if (we == 0) return;
    const int waddr = sim_->rf_waddr_o;
    EXPECT_EQ(waddr >> 5, warp) << "register write to another warp";
    const int reg = waddr & 31;
    for (int l = 0; l < 32; ++l) {
      if (!((we >> l) & 1u)) continue;
      const uint32_t v = static_cast<uint32_t>(getBits(sim_->rf_wdata_o, l * 32, 32));
      regs_[static_cast<size_t>(reg)][static_cast<size_t>(l)] = v;
      ob.writes.push_back({l, reg, v});
    }
  }

  struct Response {
    uint64_t due;
    uint32_t data;
  };

  SmLsu::Config cfg_;
  SimContext<Vsm_lsu> sim_;
  SmLsu model_;
  Rng rng_;
  PortTiming timing_;
  std::vector<uint32_t> mem_;
  WarpRegs regs_{}, modelRegs_{};
  std::deque<Response> pending_;
  VlWide<32> rfRead_{};
  uint64_t cycle_ = 0;
};

const Op kMemOps[] = {Op::LdGlobal, Op::StGlobal, Op::LdShared, Op::StShared, Op::LdGlobalV4,
                      Op::StGlobalV4, Op::AtomGlobal, Op::AtomShared, Op::AtomGlobalCas,
                      Op::AtomSharedCas};

// A random instruction; its address registers (ra, per lane) are written into both register
// files: mostly valid addresses from a small pool (lanes collide), sometimes misaligned or
// out of range.
SmLsu::Instruction randomInstruction(Rng& rng, const SmLsu::Config& cfg, WarpRegs& regs,
                                     WarpRegs& modelRegs) {
  SmLsu::Instruction in;
  in.op = kMemOps[rng.below(static_cast<int>(std::size(kMemOps)))];
  const SmLsu::Access acc = SmLsu::accessOf(in.op);
  const bool sh = acc.shared, v4 = acc.v4;
  in.rd = static_cast<uint8_t>(rng.below(v4 ? 29 : 32));
  in.ra = static_cast<uint8_t>(rng.below(32));
  in.rb = static_cast<uint8_t>(rng.below(v4 ? 29 : 32));
  // cas: rc, the swap value's register; other atomics: the operation.
  in.sub = acc.cas ? static_cast<uint8_t>(rng.below(32))
           : acc.atom ? static_cast<uint8_t>(rng.below(static_cast<int>(isa::AtomOp::Count)))
                      : uint8_t{0};
  in.cta = rng.below(kCtas);
  const uint32_t exec = rng.chance(20) ? 0xFFFFFFFFu : static_cast<uint32_t>(rng.bits(32));
  in.exec = exec != 0 ? exec : 1u << rng.below(32);
  in.immB = rng.chance(10);
  const uint32_t bytes = sh ? cfg.sharedBytes : cfg.globalBytes;
  const uint32_t align = v4 ? 16 : 4;
  const int poolSize = rng.range(1, 8);
  std::vector<uint32_t> pool;
  for (int i = 0; i < poolSize; ++i) {
    pool.push_back(static_cast<uint32_t>(rng.below(static_cast<int>((bytes - (v4 ? 16 : 4)) / align) + 1)) * align);
  }
  in.imm = in.immB ? pool[0] : (rng.chance(50) ? 0u : align * static_cast<uint32_t>(rng.below(4)));
  // One instruction in about 12 has a bad address in one lane (the core stops at a fault).
  const int badLane = rng.chance(12) ? rng.below(32) : -1;
  const bool misaligned = rng.chance(50);
  for (int l = 0; l < 32; ++l) {
    uint32_t a = pool[static_cast<size_t>(rng.below(poolSize))] - (in.immB ? 0u : in.imm);
    if (l == badLane && misaligned) a += static_cast<uint32_t>(rng.range(1, 3)) * (rng.chance(50) ? 1u : 4u);
    if (l == badLane && !misaligned) a = bytes + static_cast<uint32_t>(rng.below(64)) * 4u;
    regs[in.ra][static_cast<size_t>(l)] = a;
    modelRegs[in.ra][static_cast<size_t>(l)] = a;
  }
  return in;
}

void compare(const SmLsu::Result& want, const Observed& got, const std::string& ctx, Scoreboard& sb) {
  sb.check(ctx + " outcome", {{"requests", want.requests.size()}, {"writes", want.writes.size()},
                              {"fault", static_cast<uint64_t>(want.fault)}},
           {{"requests", got.requests.size()}, {"writes", got.writes.size()},
            {"fault", static_cast<uint64_t>(got.fault)}});
  if (want.fault != SmLsu::Fault::None && got.fault == static_cast<int>(want.fault)) {
    sb.check(ctx + " fault", {{"lane", static_cast<uint64_t>(want.faultLane)}, {"addr", want.faultAddr}},
             {{"lane", static_cast<uint64_t>(got.faultLane)}, {"addr", got.faultAddr}});
  }
  for (size_t i = 0; i < want.requests.size() && i < got.requests.size(); ++i) {
    const auto& w = want.requests[i];
    const auto& g = got.requests[i];
    sb.check(ctx + " request " + std::to_string(i),
             {{"we", w.write}, {"addr", w.addr}, {"wdata", w.write ? w.data : 0u}},
             {{"we", g.write}, {"addr", g.addr}, {"wdata", g.data}});
  }
  for (size_t i = 0; i < want.writes.size() && i < got.writes.size(); ++i) {
    const auto& w = want.writes[i];
    const auto& g = got.writes[i];
    sb.check(ctx + " write " + std::to_string(i),
             {{"lane", static_cast<uint64_t>(w.lane)}, {"reg", static_cast<uint64_t>(w.reg)}, {"value", w.value}},
             {{"lane", static_cast<uint64_t>(g.lane)}, {"reg", static_cast<uint64_t>(g.reg)}, {"value", g.value}});
  }
}

SmLsu::Config smallConfig() {
  SmLsu::Config cfg;
  cfg.globalBytes = 2048;
  cfg.sharedBytes = 512;
  cfg.numCtas = kCtas;
  cfg.sharedWords = kSharedWords;
  return cfg;
}

// The random stream into both, under three port timings: the old harness's (always ready,
// 1 cycle), back-pressure with short latency, and a slow memory with long latency.
TEST(SmLsuRtl, RandomInstructionsMatchTheModelUnderRandomLatencyAndBackPressure) {
  const PortTiming timings[] = {{100, 1, 1}, {50, 1, 4}, {30, 5, 40}};
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    const SmLsu::Config cfg = smallConfig();
    LsuBench bench(cfg, seed);
    bench.fill(rng);
    bench.clearShared(0, kSharedWords);
    bench.clearShared(1, kSharedWords);
    Scoreboard sb("sm_lsu");
    Coverage cov("sm_lsu");
    for (Op op : kMemOps) cov.define(std::string("op_") + isa::opName(op));
    cov.define({"fault_global_align", "fault_global_range", "fault_shared_align", "fault_shared_range",
                "back_pressure", "long_latency", "lanes_collide", "all_lanes", "imm_address",
                "shared_clear"});
    // A seed that leaves a bin unhit runs on, up to 4x the instructions, until every bin is.
    const int n = 400 * lengthScale();
    for (int i = 0; i < n || (!cov.allHit() && i < 4 * n); ++i) {
      const PortTiming& t = timings[(i / 50) % 3];
      bench.setTiming(t);
      if (rng.chance(3)) {
        const int cta = rng.below(kCtas);
        bench.clearShared(cta, rng.range(1, 32));
        cov.hit("shared_clear");
      }
      const SmLsu::Instruction in = randomInstruction(rng, cfg, bench.regs(), bench.modelRegs());
      const int warp = rng.below(1 << kWarpW);
      const SmLsu::Result want = bench.model().execute(in, bench.modelRegs());
      const Observed got = bench.runRtl(in, warp);
      const std::string ctx = "instruction " + std::to_string(i) + " (" + isa::opName(in.op) + ")";
      compare(want, got, ctx, sb);
      if (!sb.clean() || !got.ok) break;

      cov.hit(std::string("op_") + isa::opName(in.op));
      switch (want.fault) {
        case SmLsu::Fault::GlobalAlign: cov.hit("fault_global_align"); break;
        case SmLsu::Fault::GlobalRange: cov.hit("fault_global_range"); break;
        case SmLsu::Fault::SharedAlign: cov.hit("fault_shared_align"); break;
        case SmLsu::Fault::SharedRange: cov.hit("fault_shared_range"); break;
        default: break;
      }
      cov.sample("back_pressure", got.stallCycles > 0);
      cov.sample("long_latency", t.minLatency > 1 && !got.requests.empty());
      cov.sample("all_lanes", in.exec == 0xFFFFFFFFu);
      cov.sample("imm_address", in.immB);
      {
        std::vector<uint32_t> seen;
        bool collide = false;
        for (int l = 0; l < 32; ++l) {
          if (!((in.exec >> l) & 1u)) continue;
          const uint32_t a = bench.modelRegs()[in.ra][static_cast<size_t>(l)];
          for (uint32_t s : seen) collide |= s == a;
          seen.push_back(a);
        }
        cov.sample("lanes_collide", collide && !in.immB);
      }
    }
    EXPECT_TRUE(bench.memory() == bench.model().global()) << "global memory differs";
    EXPECT_TRUE(bench.regs() == bench.modelRegs()) << "registers differ";
    // The shared memories, read back through the unit: one load per word, lane 0.
    for (int cta = 0; cta < kCtas && sb.clean(); ++cta) {
      for (int w = 0; w < static_cast<int>(cfg.sharedBytes / 4); ++w) {
        SmLsu::Instruction ld;
        ld.op = Op::LdShared;
        ld.immB = true;
        ld.imm = static_cast<uint32_t>(w) * 4;
        ld.exec = 1;
        ld.cta = cta;
        const Observed got = bench.runRtl(ld, 0);
        ASSERT_EQ(got.writes.size(), 1u);
        ASSERT_EQ(got.writes[0].value, bench.model().shared(cta, w)) << "cta " << cta << " word " << w;
      }
    }
    EXPECT_TRUE(sb.clean());
    cov.requireAllHit();
  }
}

// The port's timing: with a memory that is always ready and answers in the next cycle, a
// global load costs 2 cycles per lane, a store the same, an atomic 4 (read, then write); a
// shared access 2 cycles per lane; back-pressure and latency add exactly their cycles. Each
// count includes the start cycle (EXEC, in the core).
TEST(SmLsuRtl, CyclesPerLaneFollowThePortTiming) {
  const SmLsu::Config cfg = smallConfig();
  LsuBench bench(cfg, baseSeed());
  auto run = [&](Op op, uint32_t exec, const PortTiming& t) {
    bench.setTiming(t);
    for (int l = 0; l < 32; ++l) bench.regs()[1][static_cast<size_t>(l)] = 64u * static_cast<uint32_t>(l % 8);
    SmLsu::Instruction in;
    in.op = op;
    in.ra = 1;
    in.rb = 2;
    in.rd = 3;
    in.exec = exec;
    return bench.runRtl(in, 0);
  };
  const PortTiming fast{100, 1, 1};
  EXPECT_EQ(run(Op::LdGlobal, 0xFFFFFFFFu, fast).cycles, 1 + 64);
  EXPECT_EQ(run(Op::StGlobal, 0x0000000Fu, fast).cycles, 1 + 8);
  EXPECT_EQ(run(Op::AtomGlobal, 0x00000003u, fast).cycles, 1 + 8);
  EXPECT_EQ(run(Op::LdShared, 0x000000FFu, fast).cycles, 1 + 16);
  EXPECT_EQ(run(Op::LdGlobalV4, 0x00000001u, fast).cycles, 1 + 8);
  // A memory answering after 10 cycles: 11 cycles per lane.
  EXPECT_EQ(run(Op::LdGlobal, 0x00000007u, {100, 10, 10}).cycles, 1 + 33);
  // Back-pressure: every cycle without ready is one more cycle.
  const Observed pressed = run(Op::StGlobal, 0xFFFFFFFFu, {50, 1, 1});
  EXPECT_GT(pressed.stallCycles, 0);
  EXPECT_EQ(pressed.cycles, 1 + 64 + pressed.stallCycles);
}

}  // namespace
}  // namespace simt::tb
