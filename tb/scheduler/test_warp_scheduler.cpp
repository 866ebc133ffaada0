// simt_warp_scheduler against model::WarpScheduler: the exact choice every cycle for each
// policy on random eligibility and barrier-table patterns, directed tests for the barrier
// scoreboard cases of seed 000 [0099], fallback, greed, in-flight rule and fairness.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "Vwarp_scheduler.h"
#include "Vwarp_scheduler32.h"
#include "common/harness.h"
#include "common/port_bits.h"
#include "common/sim_context.h"
#include "model/scheduler/warp_scheduler.h"

namespace simt::tb {
namespace {

using model::BarState;
using model::SchedPolicy;
using model::WarpScheduler;
using Inputs = WarpScheduler::Inputs;

int bitsFor(int n) {  // $clog2 with the RTL's minimum of one bit
  int b = 0;
  while ((1 << b) < n) ++b;
  return b == 0 ? 1 : b;
}

struct SchedOut {
  bool valid = false;
  int warp = 0;
  uint64_t gnt = 0, eligible = 0, barWait = 0, busy = 0;
  bool rdValid = false;
  int rdIdx = 0;
};

template <class Dut>
class SchedBench {
 public:
  SchedBench(const WarpScheduler::Config& cfg, uint64_t seed)
      : cfg_(cfg), sim_("simt_warp_scheduler", seed), model_(cfg), sb_("warp_scheduler") {
    const int n = cfg.numWarps;
    auto s = [](const char* name, int w) { return waveSignal("simt_warp_scheduler", name, w); };
    sim_.setWaveGroups({
        {"eligibility", {s("warp_valid_i", n), s("warp_active_i", n), s("inst_valid_i", n),
                         s("warp_stall_i", n), s("retire_i", n), s("busy_o", n),
                         s("bar_wait_o", n), s("eligible_o", n)}},
        {"issue", {s("policy_i", 3), s("issue_ready_i", 1), s("issue_valid_o", 1),
                   s("issue_warp_o", bitsFor(n)), s("issue_gnt_o", n)}},
        {"state", {s("rr_ptr_q", bitsFor(n)), s("last_q", bitsFor(n)), s("last_valid_q", 1)}},
    });
    sim_.reset();
  }

  // One cycle: drive, answer the table read port from in.barriers, compare with the model,
  // clock both.
  SchedOut cycle(const Inputs& in) {
    drive(in);
    sim_.eval();
    Dut& d = sim_.dut();
    const auto& entry = in.barriers.at(static_cast<size_t>(d.bar_rd_idx_o));
    d.bar_rd_state_i = static_cast<uint8_t>(entry.state);
    d.bar_rd_tag_i = entry.tag;
    d.bar_rd_late_ok_i = entry.lateOk;
    sim_.eval();
    SchedOut want;
    const auto fill = model_.fillWarp(in);
    want.rdValid = fill.has_value();
    want.rdIdx = fill ? model_.barrierIndex(in, *fill) : 0;
    const auto pick = model_.choose(in);
    want.valid = pick.has_value();
    want.warp = pick.value_or(0);
    for (int w = 0; w < cfg_.numWarps; ++w) {
      if (model_.eligible(in, w)) want.eligible |= 1ull << w;
      if (model_.barrierBlocks(in, w)) want.barWait |= 1ull << w;
      if (model_.busy(w)) want.busy |= 1ull << w;
    }
    if (want.valid && in.issueReady) want.gnt = 1ull << want.warp;
    SchedOut got;
    got.rdValid = d.bar_rd_valid_o;
    got.rdIdx = want.rdValid ? static_cast<int>(d.bar_rd_idx_o) : 0;
    got.valid = d.issue_valid_o;
    got.warp = want.valid ? static_cast<int>(d.issue_warp_o) : 0;
    got.gnt = getBits(d.issue_gnt_o, 0, cfg_.numWarps);
    got.eligible = getBits(d.eligible_o, 0, cfg_.numWarps);
    got.barWait = getBits(d.bar_wait_o, 0, cfg_.numWarps);
    got.busy = getBits(d.busy_o, 0, cfg_.numWarps);
    sb_.check("cycle " + std::to_string(sim_.cycle()), fields(want), fields(got));
    model_.commit(in);
    sim_.tick();
    return got;
  }

  WarpScheduler& model() { return model_; }
  Scoreboard& scoreboard() { return sb_; }
  bool ok() const { return sim_.ok() && sb_.clean(); }

 private:
  static Scoreboard::Fields fields(const SchedOut& o) {
    return {{"issue_valid", o.valid}, {"issue_warp", static_cast<uint64_t>(o.warp)},
            {"issue_gnt", o.gnt},     {"eligible", o.eligible},
            {"bar_wait", o.barWait},  {"busy", o.busy},
            {"bar_rd_valid", o.rdValid}, {"bar_rd_idx", static_cast<uint64_t>(o.rdIdx)}};
  }

  void drive(const Inputs& in) {
    Dut& d = sim_.dut();
    const int ctaW = bitsFor(cfg_.numCtas), idW = bitsFor(cfg_.numBarIds);
    d.policy_i = static_cast<uint8_t>(in.policy);
    d.issue_ready_i = in.issueReady;
    for (int w = 0; w < cfg_.numWarps; ++w) {
      const auto& wi = in.warps[static_cast<size_t>(w)];
      setBits(d.warp_valid_i, w, 1, wi.valid);
      setBits(d.warp_active_i, w, 1, wi.active);
      setBits(d.inst_valid_i, w, 1, wi.instValid);
      setBits(d.warp_stall_i, w, 1, wi.stall);
      setBits(d.retire_i, w, 1, wi.retire);
      setBits(d.inst_bar_i, w, 1, wi.instBar);
      setBits(d.warp_cta_i, w * ctaW, ctaW, static_cast<uint64_t>(wi.cta));
      setBits(d.prog_prio_i, w * cfg_.prioBits, cfg_.prioBits, wi.progPrio);
      setBits(d.inst_bar_id_i, w * idW, idW, static_cast<uint64_t>(wi.barId));
      setBits(d.inst_tag_i, w * cfg_.tagBits, cfg_.tagBits, wi.tag);
    }
    for (int c = 0; c < cfg_.numCtas; ++c) {
      setBits(d.cta_prio_i, c * cfg_.prioBits, cfg_.prioBits, in.ctaPrio[static_cast<size_t>(c)]);
    }
    const int barW = ctaW + idW;
    d.bar_upd_valid_i = 0;
    for (int u = 0; u < cfg_.numUpd; ++u) {
      const bool v = u < static_cast<int>(in.updates.size());
      const auto upd = v ? in.updates[static_cast<size_t>(u)] : WarpScheduler::BarrierUpdate{};
      setBits(d.bar_upd_valid_i, u, 1, v);
      setBits(d.bar_upd_idx_i, u * barW, barW, static_cast<uint64_t>(upd.idx));
      setBits(d.bar_upd_state_i, u * 2, 2, static_cast<uint64_t>(upd.value.state));
      setBits(d.bar_upd_tag_i, u * cfg_.tagBits, cfg_.tagBits, upd.value.tag);
      setBits(d.bar_upd_late_ok_i, u, 1, upd.value.lateOk);
    }
  }

  WarpScheduler::Config cfg_;
  SimContext<Dut> sim_;
  WarpScheduler model_;
  Scoreboard sb_;
};

// A warp that can issue: valid, active, decoded, no barrier.
Inputs allReady(const WarpScheduler& m) {
  Inputs in = m.blankInputs();
  for (auto& w : in.warps) {
    w.valid = w.active = w.instValid = true;
    w.retire = true;  // single-cycle pipeline: the in-flight instruction retires at once
  }
  return in;
}

const WarpScheduler::Config kDefault{8, 6, 4, 16, 22, 2};
const WarpScheduler::Config kWide{32, 10, 4, 16, 22, 2};

// ---- random ------------------------------------------------------------------------------

template <class Dut>
void randomRun(const WarpScheduler::Config& cfg, uint64_t seed, int cycles,
               std::optional<SchedPolicy> fixedPolicy) {
  SIMT_SEED_TRACE(seed);
  Rng rng(seed);
  SchedBench<Dut> b(cfg, seed);
  WarpScheduler& m = b.model();
  Coverage cov("warp_scheduler_" + std::to_string(cfg.numWarps));
  cov.define({"bar_wait_fill", "bar_update_hits_copy", "bar_fill_and_update_same_entry",
              "bar_copy_reused"});
  cov.define({"no_eligible", "ready_low", "tie_broken_round_robin", "fallback_lower_priority",
              "bar_wait_other_tag_static", "bar_wait_other_tag_dynamic",
              "bar_wait_dynamic_closed", "bar_pass_same_tag", "bar_pass_idle",
              "reissue_on_retire", "age_saturated", "gto_greedy_repeat"});
  for (const char* p : {"oldest", "program", "cta", "gto", "lrr"}) {
    cov.define(std::string("issue_") + p);
  }
  static const char* const kPolicyName[] = {"oldest", "program", "cta", "gto", "lrr"};

  Inputs in = m.blankInputs();
  int validPct = 90, instPct = 70, barPct = 20, retirePct = 50, readyPct = 90, updPct = 30;
  int lastIssued = -1;
  // Phases long enough for ages to saturate (2^prioBits - 1 cycles) in some of them.
  const int phase = std::max(500, 3 << cfg.prioBits);
  for (int c = 0; c < cycles && b.ok(); ++c) {
    if (c % phase == 0) {
      // The first five phases visit every policy; later ones pick at random. Under the
      // program policy every warp stays valid, so low-priority warps age to saturation.
      const int phaseIndex = c / phase;
      in.policy = fixedPolicy    ? *fixedPolicy
                  : phaseIndex < 5 ? static_cast<SchedPolicy>(phaseIndex)
                                   : static_cast<SchedPolicy>(rng.below(5));
      validPct = (in.policy == SchedPolicy::Program || rng.chance(25)) ? 100
                                                                       : rng.range(50, 100);
      instPct = rng.range(30, 100);
      barPct = rng.range(0, 50);
      retirePct = rng.range(10, 100);
      readyPct = rng.range(60, 100);
      updPct = rng.range(5, 80);
      for (auto& p : in.ctaPrio) p = static_cast<uint32_t>(rng.bits(cfg.prioBits));
      for (int w = 0; w < cfg.numWarps; ++w) {
        auto& wi = in.warps[static_cast<size_t>(w)];
        wi.cta = rng.below(cfg.numCtas);
        // Few distinct priorities, so ties are common.
        wi.progPrio = static_cast<uint32_t>(rng.below(4)) << (cfg.prioBits - 2);
      }
    }
    // The barrier unit changes up to numUpd entries at the end of this cycle and reports
    // them; tags come from a small set so that they match. Entries of the CTA most warps
    // name change more often, so updates hit copies.
    in.updates.clear();
    const int nUpd = rng.chance(updPct) ? rng.range(1, cfg.numUpd) : 0;
    for (int k = 0; k < nUpd; ++k) {
      WarpScheduler::BarrierUpdate u;
      u.idx = rng.chance(50) ? rng.below(cfg.numBarIds)
                             : rng.below(static_cast<int>(in.barriers.size()));
      u.value.state = static_cast<BarState>(rng.below(3));
      u.value.tag = static_cast<uint32_t>(rng.range(1, 3));
      u.value.lateOk = rng.chance(50);
      in.updates.push_back(u);
    }
    const bool bubble = rng.chance(1);  // the front end delivers nothing this cycle
    for (int w = 0; w < cfg.numWarps; ++w) {
      auto& wi = in.warps[static_cast<size_t>(w)];
      wi.valid = rng.chance(validPct);
      wi.active = rng.chance(95);
      wi.instValid = !bubble && rng.chance(instPct);
      wi.stall = rng.chance(3);
      wi.retire = m.busy(w) && rng.chance(retirePct);
      // A warp keeps its instruction until it issues (as a real front end does), so copies
      // are reused; otherwise a new instruction may arrive.
      if (!wi.instBar || !m.busy(w) || rng.chance(10)) {
        wi.instBar = rng.chance(barPct);
        wi.barId = rng.below(cfg.numBarIds);
        wi.tag = static_cast<uint32_t>(rng.range(1, 3));
      }
    }
    in.issueReady = rng.chance(readyPct);

    // Coverage (model view before the edge).
    const auto pick = m.choose(in);
    int eligibleCount = 0, topKeyWarp = -1;
    for (int w = 0; w < cfg.numWarps; ++w) {
      const auto& wi = in.warps[static_cast<size_t>(w)];
      if (m.eligible(in, w)) ++eligibleCount;
      if (wi.instBar && wi.valid) {
        const auto& e = in.barriers[static_cast<size_t>(wi.cta * cfg.numBarIds + wi.barId)];
        const bool same = e.tag == wi.tag;
        cov.sample("bar_wait_other_tag_static", e.state == BarState::Static && !same);
        cov.sample("bar_wait_other_tag_dynamic", e.state == BarState::Dynamic && !same);
        cov.sample("bar_wait_dynamic_closed", e.state == BarState::Dynamic && same && !e.lateOk);
        cov.sample("bar_pass_same_tag", e.state != BarState::Idle && same &&
                                            !m.barrierBlocks(in, w));
        cov.sample("bar_pass_idle", e.state == BarState::Idle);
      }
      cov.sample("reissue_on_retire", m.busy(w) && wi.retire && pick && *pick == w);
      cov.sample("age_saturated", m.age(w) == (1u << cfg.prioBits) - 1);
      if (in.policy == SchedPolicy::Program && wi.valid &&
          (topKeyWarp < 0 || wi.progPrio > in.warps[static_cast<size_t>(topKeyWarp)].progPrio)) {
        topKeyWarp = w;
      }
    }
    const auto fill = m.fillWarp(in);
    for (int w = 0; w < cfg.numWarps; ++w) {
      const auto& wi = in.warps[static_cast<size_t>(w)];
      if (!wi.instBar || !wi.valid) continue;
      const bool waitsFill = fill.has_value() && m.barrierBlocks(in, w) &&
                             !m.barrierBlocksByTable(in, w);
      cov.sample("bar_wait_fill", waitsFill);
      cov.sample("bar_copy_reused", !m.barrierBlocks(in, w) && !(fill && *fill == w));
      for (const auto& u : in.updates) {
        cov.sample("bar_update_hits_copy", u.idx == m.barrierIndex(in, w));
        cov.sample("bar_fill_and_update_same_entry",
                   fill && *fill == w && u.idx == m.barrierIndex(in, w));
      }
      // The copy is never more lenient than the table itself.
      if (m.barrierBlocksByTable(in, w)) {
        EXPECT_TRUE(m.barrierBlocks(in, w)) << "warp " << w << " passes a held barrier, cycle " << c;
      }
    }
    cov.sample("no_eligible", eligibleCount == 0);
    cov.sample("ready_low", pick.has_value() && !in.issueReady);
    cov.sample("tie_broken_round_robin", in.policy == SchedPolicy::Lrr && eligibleCount > 1);
    cov.sample("fallback_lower_priority", topKeyWarp >= 0 && pick && !m.eligible(in, topKeyWarp) &&
                                              in.warps[static_cast<size_t>(*pick)].progPrio <
                                                  in.warps[static_cast<size_t>(topKeyWarp)].progPrio);
    if (pick && in.issueReady) {
      cov.hit(std::string("issue_") + kPolicyName[static_cast<int>(in.policy)]);
      cov.sample("gto_greedy_repeat", in.policy == SchedPolicy::Gto && *pick == lastIssued &&
                                          eligibleCount > 1);
      lastIssued = *pick;
    }
    b.cycle(in);
    for (const auto& u : in.updates) in.barriers[static_cast<size_t>(u.idx)] = u.value;
    if (!m.copiesCoherent(in.barriers)) {
      ADD_FAILURE() << "a barrier-entry copy differs from the table at cycle " << c;
      break;
    }
  }
  EXPECT_TRUE(b.scoreboard().clean());
  EXPECT_GE(b.scoreboard().checks(), static_cast<uint64_t>(cycles));
  cov.requireAllHit();
}

TEST(WarpScheduler, RandomAllPoliciesMatchModel) {
  for (uint64_t seed : testSeeds()) {
    randomRun<Vwarp_scheduler>(kDefault, seed, 30000 * lengthScale(), std::nullopt);
  }
}

TEST(WarpScheduler32, RandomAllPoliciesMatchModel) {
  for (uint64_t seed : testSeeds()) {
    randomRun<Vwarp_scheduler32>(kWide, seed, 60000 * lengthScale(), std::nullopt);
  }
}

// ---- directed: barrier scoreboard (seed 000 [0099]) --------------------------------------

struct BarCase {
  const char* name;
  BarState state;
  bool sameTag;
  bool lateOk;
  bool waits;
};

TEST(WarpScheduler, BarrierScoreboardCases) {
  const BarCase cases[] = {
      {"idle", BarState::Idle, false, false, false},
      {"static, same tag", BarState::Static, true, false, false},
      {"static, other tag", BarState::Static, false, false, true},
      {"dynamic, other tag", BarState::Dynamic, false, true, true},
      {"dynamic, same tag, late arrivals accepted", BarState::Dynamic, true, true, false},
      {"dynamic, same tag, late arrivals refused", BarState::Dynamic, true, false, true},
  };
  for (const auto& bc : cases) {
    SCOPED_TRACE(bc.name);
    SchedBench<Vwarp_scheduler> b(kDefault, baseSeed());
    Inputs in = b.model().blankInputs();
    in.policy = SchedPolicy::Lrr;
    auto& w = in.warps[5];
    w.valid = w.active = w.instValid = true;
    w.cta = 2;
    w.instBar = true;
    w.barId = 9;
    w.tag = 0x1234;
    auto& e = in.barriers[static_cast<size_t>(2 * kDefault.numBarIds + 9)];
    e.state = bc.state;
    e.tag = bc.sameTag ? 0x1234 : 0x4321;
    e.lateOk = bc.lateOk;
    // The same id in another CTA never matters.
    in.barriers[static_cast<size_t>(1 * kDefault.numBarIds + 9)].state = BarState::Static;
    // First cycle: no copy of the entry yet: the warp waits while the entry is read.
    const SchedOut fill = b.cycle(in);
    EXPECT_EQ(fill.barWait, 1u << 5);
    EXPECT_FALSE(fill.valid);
    EXPECT_TRUE(fill.rdValid);
    EXPECT_EQ(fill.rdIdx, 2 * kDefault.numBarIds + 9);
    const SchedOut out = b.cycle(in);
    EXPECT_FALSE(out.rdValid);
    EXPECT_EQ(out.barWait, bc.waits ? 1u << 5 : 0u);
    EXPECT_EQ(out.valid, !bc.waits);
    if (!bc.waits) EXPECT_EQ(out.warp, 5);
    // A non-barrier instruction of the same warp is never held.
    in.warps[5].instBar = false;
    in.warps[5].retire = true;
    const SchedOut plain = b.cycle(in);
    EXPECT_TRUE(plain.valid);
    EXPECT_EQ(plain.barWait, 0u);
    EXPECT_TRUE(b.ok());
  }
}

// A held warp's copy follows the barrier unit's updates: when the other instance finishes
// (entry back to idle) the warp issues without reading the table again.
TEST(WarpScheduler, BarrierCopyFollowsUpdates) {
  SchedBench<Vwarp_scheduler> b(kDefault, baseSeed());
  Inputs in = b.model().blankInputs();
  in.policy = SchedPolicy::Lrr;
  auto& w = in.warps[1];
  w.valid = w.active = w.instValid = true;
  w.cta = 0;
  w.instBar = true;
  w.barId = 3;
  w.tag = 100;
  in.barriers[3] = {BarState::Static, 200, false};  // another instance is gathering
  EXPECT_TRUE(b.cycle(in).rdValid);                  // fill
  for (int i = 0; i < 3; ++i) {
    const SchedOut held = b.cycle(in);
    EXPECT_EQ(held.barWait, 1u << 1);
    EXPECT_FALSE(held.rdValid) << "the copy is reused, not read again";
  }
  // The other instance completes: the entry returns to idle at the end of this cycle.
  in.updates = {{3, {BarState::Idle, 200, false}}};
  EXPECT_EQ(b.cycle(in).barWait, 1u << 1);  // still the old value this cycle
  in.barriers[3] = {BarState::Idle, 200, false};
  in.updates.clear();
  const SchedOut go = b.cycle(in);
  EXPECT_EQ(go.barWait, 0u);
  EXPECT_EQ(go.gnt, 1u << 1);
  EXPECT_FALSE(go.rdValid);
  EXPECT_TRUE(b.ok());
}

// ---- directed: priorities, fallback, greed, in-flight ------------------------------------

TEST(WarpScheduler, ProgramPriorityWithFallback) {
  SchedBench<Vwarp_scheduler> b(kDefault, baseSeed());
  Inputs in = allReady(b.model());
  in.policy = SchedPolicy::Program;
  for (int w = 0; w < 8; ++w) in.warps[static_cast<size_t>(w)].progPrio = static_cast<uint32_t>(w);
  EXPECT_EQ(b.cycle(in).warp, 7);  // highest priority
  in.warps[7].instValid = false;   // the best warp cannot issue: the next one does
  EXPECT_EQ(b.cycle(in).warp, 6);
  in.warps[6].stall = true;
  EXPECT_EQ(b.cycle(in).warp, 5);
  in.warps[7].instValid = true;
  EXPECT_EQ(b.cycle(in).warp, 7);
  EXPECT_TRUE(b.ok());
}

TEST(WarpScheduler, CtaPriority) {
  SchedBench<Vwarp_scheduler> b(kDefault, baseSeed());
  Inputs in = allReady(b.model());
  in.policy = SchedPolicy::Cta;
  for (int w = 0; w < 8; ++w) in.warps[static_cast<size_t>(w)].cta = w / 2;
  in.ctaPrio = {1, 3, 2, 0};  // CTA 1 (warps 2, 3) first, round robin between them
  EXPECT_EQ(b.cycle(in).warp, 2);
  EXPECT_EQ(b.cycle(in).warp, 3);
  EXPECT_EQ(b.cycle(in).warp, 2);
  in.warps[2].valid = in.warps[3].valid = false;  // CTA 1 finishes: CTA 2 next
  EXPECT_EQ(b.cycle(in).warp, 4);
  EXPECT_TRUE(b.ok());
}

TEST(WarpScheduler, GreedyThenOldest) {
  SchedBench<Vwarp_scheduler> b(kDefault, baseSeed());
  Inputs in = allReady(b.model());
  in.policy = SchedPolicy::Gto;
  const int first = b.cycle(in).warp;
  for (int i = 0; i < 10; ++i) EXPECT_EQ(b.cycle(in).warp, first) << "greedy";
  in.warps[static_cast<size_t>(first)].instValid = false;  // it stalls: the oldest goes
  const int next = b.cycle(in).warp;
  EXPECT_NE(next, first);
  // Every other warp waited 11 cycles; the oldest by age wins, ties round-robin from the
  // last issued warp.
  EXPECT_EQ(next, (first + 1) % 8);
  EXPECT_TRUE(b.ok());
}

TEST(WarpScheduler, OneInstructionInFlightPerWarp) {
  SchedBench<Vwarp_scheduler> b(kDefault, baseSeed());
  Inputs in = b.model().blankInputs();
  in.policy = SchedPolicy::Lrr;
  auto& w = in.warps[3];
  w.valid = w.active = w.instValid = true;
  EXPECT_EQ(b.cycle(in).gnt, 1u << 3);
  const SchedOut held = b.cycle(in);  // in flight, not retired: no issue
  EXPECT_FALSE(held.valid);
  EXPECT_EQ(held.busy, 1u << 3);
  w.retire = true;  // retires this cycle: may issue again in the same cycle
  EXPECT_EQ(b.cycle(in).gnt, 1u << 3);
  EXPECT_TRUE(b.ok());
}

// Every warp always eligible: LRR issues each warp exactly every 8 cycles; oldest-first also
// serves everybody within its bound (the RTL asserts the bound every cycle).
TEST(WarpScheduler, NoStarvationUnderLrrAndOldest) {
  for (SchedPolicy p : {SchedPolicy::Lrr, SchedPolicy::Oldest}) {
    SchedBench<Vwarp_scheduler> b(kDefault, baseSeed());
    Inputs in = allReady(b.model());
    in.policy = p;
    std::vector<int> lastIssue(8, -1);
    int worstGap = 0;
    for (int c = 0; c < 2000; ++c) {
      const SchedOut out = b.cycle(in);
      ASSERT_TRUE(out.valid);
      if (lastIssue[static_cast<size_t>(out.warp)] >= 0) {
        worstGap = std::max(worstGap, c - lastIssue[static_cast<size_t>(out.warp)]);
      }
      lastIssue[static_cast<size_t>(out.warp)] = c;
    }
    EXPECT_EQ(worstGap, 8) << "policy " << static_cast<int>(p);
    EXPECT_TRUE(b.ok());
  }
}

}  // namespace
}  // namespace simt::tb
