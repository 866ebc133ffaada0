// simt_barrier_table (2 CTAs x 8 warps) against the barrier unit's golden model
// (model::BarrierUnit, the model the ISA model runs) transaction by transaction: every
// launch, exit, arrival and reset goes to both; the arrival's answer (refused, pass) must
// agree at once, and every thread the model wakes must be woken by the RTL with the same
// resume address within a bounded number of cycles, never earlier than the model and never
// a thread the model did not wake. Random traffic uses few ids and two tags per id so tags
// clash, impatient MIN/TIMEOUT, .pass, explicit and default COUNTs, exits and resets.
#include <map>
#include <set>

#include "Vbarrier_table.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "model/barrier/barrier_unit.h"

namespace simt::tb {
namespace {

using model::BarrierUnit;

constexpr int kCtas = 2;
constexpr int kWarps = 8;
constexpr int kLatency = 80;  // cycles the RTL may take to match a model wake

enum Op : uint8_t { kLaunch = 0, kExit = 1, kArrive = 2, kReset = 3 };

struct ThreadKey {
  int cta, tid;
  bool operator<(const ThreadKey& o) const { return cta != o.cta ? cta < o.cta : tid < o.tid; }
};

class TableBench {
 public:
  explicit TableBench(uint64_t seed) : sim_("simt_barrier_table", seed) {
    auto s = [](const char* n, int w) { return waveSignal("simt_barrier_table", n, w); };
    sim_.setWaveGroups({
        {"request", {s("req_valid_i", 1), s("req_ready_o", 1), s("req_op_i", 2),
                     s("req_cta_i", 1), s("req_id_i", 4), s("req_warp_i", 3), s("req_mask_i", 32),
                     s("resp_refused_o", 1), s("resp_pass_o", 1)}},
        {"fsm", {s("st_q", 2), s("ent_q", 5), s("w_q", 3), s("tptr_q", 5), s("now_q", 16)}},
        {"wake", {s("wake_valid_o", 1), s("wake_ready_i", 1), s("wake_cta_o", 1),
                  s("wake_warp_o", 3), s("wake_mask_o", 32), s("wake_resume_o", 22)}},
    });
    sim_.reset();
  }

  // One cycle. With a request, holds it until accepted; returns the arrival's answer.
  struct Answer {
    bool refused = false, pass = false;
  };
  Answer request(uint8_t op, int cta, int id, int warp, uint32_t mask, uint32_t tag,
                 uint32_t count, bool imp, uint32_t min, uint32_t timeout, bool pass) {
    auto& d = sim_.dut();
    d.req_valid_i = 1;
    d.req_op_i = op;
    d.req_cta_i = static_cast<uint8_t>(cta);
    d.req_id_i = static_cast<uint8_t>(id);
    d.req_warp_i = static_cast<uint8_t>(warp);
    d.req_mask_i = mask;
    d.req_tag_i = tag;
    d.req_count_i = static_cast<uint16_t>(count);
    d.req_imp_i = imp;
    d.req_min_i = static_cast<uint16_t>(min);
    d.req_timeout_i = static_cast<uint16_t>(timeout);
    d.req_pass_i = pass;
    Answer a;
    for (int guard = 0; guard < 1000 && sim_.ok(); ++guard) {
      sim_.eval();
      const bool taken = d.req_ready_o;
      if (taken) {
        a.refused = d.resp_refused_o;
        a.pass = d.resp_pass_o;
        acceptCycle_ = cycle_;
      }
      step();
      if (taken) break;
      if (guard == 999) ADD_FAILURE() << "request never accepted";
    }
    d.req_valid_i = 0;
    return a;
  }
  // A cycle without a request.
  void idle() {
    sim_.dut().req_valid_i = 0;
    sim_.eval();
    step();
  }
  uint64_t acceptCycle() const { return acceptCycle_; }
  uint64_t cycle() const { return cycle_; }
  bool ok() const { return sim_.ok(); }
  void setWakeReadyPercent(int p) { wakeReadyPct_ = p; }
  Rng* rng = nullptr;

  // Wakes the RTL produced: thread -> (resume, cycle).
  std::vector<std::tuple<ThreadKey, uint32_t, uint64_t>> takeWakes() {
    auto w = std::move(wakes_);
    wakes_.clear();
    return w;
  }
  bool sawBackpressure = false;

 private:
  void step() {
    auto& d = sim_.dut();
    d.wake_ready_i = rng ? rng->chance(wakeReadyPct_) : 1;
    sim_.eval();
    if (d.wake_valid_o && !d.wake_ready_i) sawBackpressure = true;
    if (d.wake_valid_o && d.wake_ready_i) {
      for (int t = 0; t < 32; ++t) {
        if ((d.wake_mask_o >> t) & 1u) {
          wakes_.emplace_back(ThreadKey{d.wake_cta_o, d.wake_warp_o * 32 + t}, d.wake_resume_o, cycle_);
        }
      }
    }
    sim_.tick();
    ++cycle_;
  }
  SimContext<Vbarrier_table> sim_;
  uint64_t cycle_ = 0, acceptCycle_ = 0;
  int wakeReadyPct_ = 100;
  std::vector<std::tuple<ThreadKey, uint32_t, uint64_t>> wakes_;
};

// The test-side view of every thread, and the model that must agree with the RTL.
class TableLockstep {
 public:
  TableLockstep(uint64_t seed, Rng& rng) : bench_(seed), rng_(rng) { bench_.rng = &rng; }

  void launch(int cta, int threads) {
    settle();
    bench_.request(kLaunch, cta, 0, 0, 0, 0, static_cast<uint32_t>(threads), false, 0, 0, false);
    model_.removeCta(cta);
    model_.addCta(cta, threads);
    threads_[cta] = threads;
    for (int t = 0; t < kWarps * 32; ++t) state_[{cta, t}] = t < threads ? kAwake : kGone;
    settle();
  }
  void exitThreads(int cta, const std::vector<int>& tids) {
    settle();
    for (int t : tids) state_[{cta, t}] = kGone;
    bench_.request(kExit, cta, 0, 0, 0, 0, static_cast<uint32_t>(tids.size()), false, 0, 0, false);
    model_.exited(cta, static_cast<int>(tids.size()));
    model_.evaluate(bench_.acceptCycle());
    collectModel();
    settle();
  }
  // Returns the answer for coverage.
  BarrierUnit::Arrive arrive(const model::BarrierArrival& a, int warp, uint32_t mask, bool& passed) {
    settle();  // no request while a model wake is still unmatched (the RTL may lag a timeout)
    const auto ans = bench_.request(kArrive, a.cta, a.id, warp, mask, a.tag, a.count, a.impatient,
                                    a.min, a.timeout, a.pass);
    std::vector<int> passNow;
    const auto r = model_.arrive(a, bench_.acceptCycle(), passNow);
    EXPECT_EQ(ans.refused, r == BarrierUnit::Arrive::Refused) << "refusal differs at cycle " << bench_.acceptCycle();
    EXPECT_EQ(ans.pass, !passNow.empty()) << "late pass differs at cycle " << bench_.acceptCycle();
    passed = !passNow.empty();
    if (r == BarrierUnit::Arrive::Accepted && passNow.empty()) {
      for (int t : a.threads) state_[{a.cta, t}] = kAsleep;
    }
    model_.evaluate(bench_.acceptCycle());
    collectModel();
    settle();
    return r;
  }
  void reset(int cta, int id) {
    settle();
    bench_.request(kReset, cta, id, 0, 0, 0, 0, false, 0, 0, false);
    model_.reset(cta, id);
    model_.evaluate(bench_.acceptCycle());
    collectModel();
    settle();
  }
  // Idle cycles: the model evaluates every cycle (timeouts), the RTL scans.
  void idle(int cycles) {
    for (int i = 0; i < cycles && ok(); ++i) {
      model_.evaluate(bench_.cycle());
      collectModel();
      bench_.idle();
      matchRtl();
    }
  }
  bool awake(int cta, int tid) const { return state_.at({cta, tid}) == kAwake; }
  int threads(int cta) const { return threads_[cta]; }
  bool ok() const { return bench_.ok() && !::testing::Test::HasFailure(); }
  TableBench& bench() { return bench_; }
  model::BarrierUnit& model() { return model_; }
  uint64_t wokenTotal = 0;

 private:
  enum State { kAwake, kAsleep, kGone };
  void collectModel() {
    for (const auto& w : model_.takeWakes()) {
      for (int t : w.threads) pending_[{w.cta, t}] = {w.resume, bench_.cycle()};
    }
  }
  void matchRtl() {
    for (const auto& [key, resume, cyc] : bench_.takeWakes()) {
      auto it = pending_.find(key);
      if (it == pending_.end()) {
        ADD_FAILURE() << "RTL woke cta " << key.cta << " thread " << key.tid << " at cycle " << cyc
                      << " but the model did not";
        continue;
      }
      EXPECT_EQ(resume, it->second.first) << "resume address of cta " << key.cta << " thread " << key.tid;
      state_[key] = kAwake;
      pending_.erase(it);
      ++wokenTotal;
    }
    for (const auto& [key, v] : pending_) {
      if (bench_.cycle() > v.second + kLatency) {
        ADD_FAILURE() << "model woke cta " << key.cta << " thread " << key.tid << " at cycle "
                      << v.second << "; the RTL has not by cycle " << bench_.cycle();
        pending_.clear();
        return;
      }
    }
  }
  // Run until the RTL has matched every model wake (no new requests meanwhile).
  void settle() {
    matchRtl();
    for (int i = 0; i < kLatency + 2 && !pending_.empty() && ok(); ++i) {
      model_.evaluate(bench_.cycle());
      collectModel();
      bench_.idle();
      matchRtl();
    }
  }

  TableBench bench_;
  Rng& rng_;
  model::BarrierUnit model_;
  std::map<ThreadKey, State> state_;
  std::map<ThreadKey, std::pair<uint32_t, uint64_t>> pending_;
  int threads_[kCtas] = {0, 0};
};

model::BarrierArrival syncArrival(int cta, int id, uint32_t tag, std::vector<int> threads) {
  model::BarrierArrival a;
  a.cta = cta;
  a.id = id;
  a.tag = tag;
  a.kind = model::BarrierKind::Sync;
  a.threads = std::move(threads);
  return a;
}

uint32_t maskOf(const std::vector<int>& tids, int warp) {
  uint32_t m = 0;
  for (int t : tids) {
    if (t / 32 == warp) m |= 1u << (t % 32);
  }
  return m;
}

std::vector<int> warpThreads(int warp, int from = 0, int to = 32) {
  std::vector<int> v;
  for (int l = from; l < to; ++l) v.push_back(warp * 32 + l);
  return v;
}

TEST(BarrierTable, AllNonExitedThreadsCompleteAConditionalBarrier) {
  Rng rng(1);
  TableLockstep ls(1, rng);
  ls.launch(0, 64);
  bool p = false;
  ls.arrive(syncArrival(0, 3, 100, warpThreads(0)), 0, 0xFFFFFFFFu, p);
  ls.idle(20);
  EXPECT_EQ(ls.wokenTotal, 0u) << "32 of 64 arrived";
  ls.arrive(syncArrival(0, 3, 100, warpThreads(1)), 1, 0xFFFFFFFFu, p);
  ls.idle(20);
  EXPECT_EQ(ls.wokenTotal, 64u);
  EXPECT_TRUE(ls.ok());
}

TEST(BarrierTable, ExitsCompleteABarrierWaitingForThem) {
  Rng rng(2);
  TableLockstep ls(2, rng);
  ls.launch(1, 40);
  bool p = false;
  ls.arrive(syncArrival(1, 0, 7, warpThreads(0)), 0, 0xFFFFFFFFu, p);
  ls.exitThreads(1, warpThreads(1, 0, 8));
  ls.idle(20);
  EXPECT_EQ(ls.wokenTotal, 32u);
  EXPECT_TRUE(ls.ok());
}

TEST(BarrierTable, AnotherTagIsRefusedWhileBusy) {
  Rng rng(3);
  TableLockstep ls(3, rng);
  ls.launch(0, 64);
  bool p = false;
  ls.arrive(syncArrival(0, 5, 10, warpThreads(0)), 0, 0xFFFFFFFFu, p);
  EXPECT_EQ(ls.arrive(syncArrival(0, 5, 20, warpThreads(1)), 1, 0xFFFFFFFFu, p),
            BarrierUnit::Arrive::Refused);
  EXPECT_TRUE(ls.ok());
}

TEST(BarrierTable, ImpatientMinimumAndTimeoutStartPortions) {
  Rng rng(4);
  TableLockstep ls(4, rng);
  ls.launch(0, 128);
  bool p = false;
  auto a = syncArrival(0, 1, 30, warpThreads(0));
  a.count = 128;
  a.impatient = true;
  a.min = 32;
  ls.arrive(a, 0, 0xFFFFFFFFu, p);
  ls.idle(20);
  EXPECT_EQ(ls.wokenTotal, 32u) << "MIN reached";
  auto b = syncArrival(0, 2, 40, warpThreads(1, 0, 4));
  b.count = 128;
  b.impatient = true;
  b.timeout = 50;
  ls.arrive(b, 1, 0xFu, p);
  ls.idle(30);
  EXPECT_EQ(ls.wokenTotal, 32u) << "timeout not elapsed";
  ls.idle(60);
  EXPECT_EQ(ls.wokenTotal, 36u) << "timeout elapsed";
  EXPECT_TRUE(ls.ok());
}

TEST(BarrierTable, LatePassContinuesAtOnce) {
  Rng rng(5);
  TableLockstep ls(5, rng);
  ls.launch(0, 96);
  bool p = false;
  auto a = syncArrival(0, 4, 50, warpThreads(0));
  a.count = 96;
  a.impatient = true;
  a.min = 32;
  a.pass = true;
  ls.arrive(a, 0, 0xFFFFFFFFu, p);
  ls.idle(20);
  a.threads = warpThreads(1);
  ls.arrive(a, 1, 0xFFFFFFFFu, p);
  EXPECT_TRUE(p) << "a late arrival at a .pass barrier passes";
  EXPECT_TRUE(ls.ok());
}

TEST(BarrierTable, ResetWakesTheSleepersAfterTheirBarrier) {
  Rng rng(6);
  TableLockstep ls(6, rng);
  ls.launch(1, 256);
  bool p = false;
  ls.arrive(syncArrival(1, 9, 77, warpThreads(7)), 7, 0xFFFFFFFFu, p);
  ls.reset(1, 9);
  ls.idle(20);
  EXPECT_EQ(ls.wokenTotal, 32u);
  EXPECT_TRUE(ls.ok());
}

TEST(BarrierTable, CompletingArrivalWakesTwoCyclesLaterOneWarpPerCycle) {
  TableBench b(7);
  b.request(kLaunch, 0, 0, 0, 0, 0, 64, false, 0, 0, false);
  b.request(kArrive, 0, 2, 0, 0xFFFFFFFFu, 5, 0, false, 0, 0, false);
  b.request(kArrive, 0, 2, 1, 0xFFFFFFFFu, 5, 0, false, 0, 0, false);
  const uint64_t accepted = b.acceptCycle();
  for (int i = 0; i < 20; ++i) b.idle();
  const auto wakes = b.takeWakes();
  ASSERT_EQ(wakes.size(), 64u);
  EXPECT_EQ(std::get<2>(wakes.front()), accepted + 2) << "accept, check, first token";
  EXPECT_EQ(std::get<2>(wakes.back()), accepted + 3) << "warp 1's token one cycle later";
  EXPECT_EQ(std::get<1>(wakes.front()), 6u) << "resume after the barrier instruction";
  EXPECT_TRUE(b.ok());
}

TEST(BarrierTable, RandomTrafficMatchesModel) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    TableLockstep ls(seed, rng);
    ls.bench().setWakeReadyPercent(70);
    Coverage cov("barrier_table");
    cov.define({"refused", "late_pass", "explicit_count", "default_count", "impatient_min",
                "impatient_timeout", "reset", "exit", "multi_warp_wake", "wake_backpressure",
                "relaunch"});
    const int ops = 3000 * lengthScale();
    for (int c = 0; c < kCtas; ++c) ls.launch(c, rng.range(1, kWarps * 32));
    for (int i = 0; i < ops && ls.ok(); ++i) {
      const int cta = rng.below(kCtas);
      const int n = ls.threads(cta);
      const int kind = rng.below(100);
      if (kind < 70) {
        const int warp = rng.below((n + 31) / 32);
        std::vector<int> tids;
        const int pct = rng.chance(50) ? 100 : rng.range(10, 90);
        for (int l = 0; l < 32; ++l) {
          const int t = warp * 32 + l;
          if (t < n && ls.awake(cta, t) && rng.chance(pct)) tids.push_back(t);
        }
        if (tids.empty()) continue;
        const int id = rng.below(3);
        auto a = syncArrival(cta, id, static_cast<uint32_t>(100 * id + rng.below(2)), tids);
        if (rng.chance(40)) {
          a.count = static_cast<uint32_t>(rng.range(1, n));
          cov.hit("explicit_count");
        } else {
          cov.hit("default_count");
        }
        if (rng.chance(30)) {
          a.impatient = true;
          if (rng.chance(50)) a.min = static_cast<uint32_t>(rng.range(1, 64));
          else a.timeout = static_cast<uint32_t>(rng.range(1, 200));
          a.pass = rng.chance(40);
        }
        bool passed = false;
        const auto r = ls.arrive(a, warp, maskOf(tids, warp), passed);
        cov.sample("refused", r == BarrierUnit::Arrive::Refused);
        cov.sample("late_pass", passed);
      } else if (kind < 78) {
        std::vector<int> tids;
        for (int t = 0; t < n; ++t) {
          if (ls.awake(cta, t) && rng.chance(5)) tids.push_back(t);
        }
        if (!tids.empty()) {
          ls.exitThreads(cta, tids);
          cov.hit("exit");
        }
      } else if (kind < 81) {
        ls.reset(cta, rng.below(3));
        cov.hit("reset");
      } else if (kind < 82) {
        // The CTA ends: its barriers are reset (everyone awake) and a new CTA takes its place.
        for (int id = 0; id < 3; ++id) ls.reset(cta, id);
        if (!ls.model().anyAsleep(cta)) {
          ls.launch(cta, rng.range(1, kWarps * 32));
          cov.hit("relaunch");
        }
      } else {
        ls.idle(rng.range(1, 60));
      }
      const auto& st = ls.model().stats;
      cov.sample("impatient_min", st.count("barrier_portions_impatient") && st.at("barrier_portions_impatient") > 0);
      cov.sample("impatient_timeout", st.count("barrier_timeouts") && st.at("barrier_timeouts") > 0);
      cov.sample("multi_warp_wake", st.count("barrier_releases") && ls.wokenTotal > 64);
      cov.sample("wake_backpressure", ls.bench().sawBackpressure);
    }
    ls.idle(100);
    EXPECT_TRUE(ls.ok());
    EXPECT_GT(ls.wokenTotal, 1000u) << "the random traffic should wake many threads";
    cov.requireAllHit();
  }
}

}  // namespace
}  // namespace simt::tb
