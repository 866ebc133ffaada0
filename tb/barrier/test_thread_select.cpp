// simt_thread_select (64 logical threads = 4 groups of 16) against model::ThreadSelect every
// cycle, plus a model-independent check that each portion serves every participant and late
// joiner exactly once, in ascending logical order within a pass. Directed tests name the
// seed 000 behaviours: logical order, one group at a time, rescan for late arrivals, the
// per-group logical-to-physical map.
#include <functional>
#include <set>

#include "Vthread_select.h"
#include "common/harness.h"
#include "common/port_bits.h"
#include "common/sim_context.h"
#include "model/barrier/thread_select.h"

namespace simt::tb {
namespace {

constexpr int kThreads = 64;
constexpr int kPhysW = 8;

class SelectBench {
 public:
  explicit SelectBench(uint64_t seed) : sim_("simt_thread_select", seed), model_(kThreads, kPhysW) {
    auto s = [](const char* n, int w) { return waveSignal("simt_thread_select", n, w); };
    sim_.setWaveGroups({
        {"control", {s("start_i", 1), s("join_i", 1), s("join_tid_i", 6), s("next_i", 1),
                     s("abort_i", 1)}},
        {"search", {s("busy_q", 1), s("grp_q", 2), s("after_q", 5), s("rescan_q", 1),
                    s("pend_q", kThreads)}},
        {"selected", {s("sel_valid_o", 1), s("sel_tid_o", 6), s("sel_phys_o", kPhysW),
                      s("done_o", 1)}},
    });
    sim_.reset();
  }
  // One cycle: drive, compare the registered outputs, clock both.
  model::ThreadSelect::Out cycle(const model::ThreadSelect::In& in) {
    auto& d = sim_.dut();
    d.map_we_i = in.mapWe;
    d.map_group_i = static_cast<uint8_t>(in.mapGroup);
    d.map_base_i = static_cast<uint8_t>(in.mapBase);
    d.start_i = in.start;
    uint64_t part = 0;
    for (int t = 0; t < kThreads && in.start; ++t) part |= static_cast<uint64_t>(in.startPart[static_cast<size_t>(t)]) << t;
    d.start_part_i = part;
    d.join_i = in.join;
    d.join_tid_i = static_cast<uint8_t>(in.joinTid);
    d.next_i = in.next;
    d.abort_i = in.abort;
    sim_.eval();
    const auto o = model_.out();
    const bool physKnown = o.selValid && model_.mapKnown(o.selTid / 16);
    sb_.check("cycle " + std::to_string(sim_.cycle()),
              {{"busy", o.busy}, {"sel_valid", o.selValid},
               {"sel_tid", o.selValid ? static_cast<uint64_t>(o.selTid) : 0},
               {"sel_phys", physKnown ? o.selPhys : 0}, {"done", o.done}},
              {{"busy", d.busy_o}, {"sel_valid", d.sel_valid_o},
               {"sel_tid", o.selValid ? d.sel_tid_o : 0u},
               {"sel_phys", physKnown ? d.sel_phys_o : 0u}, {"done", d.done_o}});
    model_.commit(in);
    sim_.tick();
    return o;
  }
  model::ThreadSelect::Out out() const { return model_.out(); }
  bool ok() const { return sim_.ok() && sb_.clean(); }
  const Scoreboard& scoreboard() const { return sb_; }

 private:
  SimContext<Vthread_select> sim_;
  model::ThreadSelect model_;
  Scoreboard sb_{"thread_select"};
};

model::ThreadSelect::In idle() {
  model::ThreadSelect::In in;
  in.startPart.assign(kThreads, false);
  return in;
}

model::ThreadSelect::In startWith(const std::set<int>& part) {
  auto in = idle();
  in.start = true;
  for (int t : part) in.startPart[static_cast<size_t>(t)] = true;
  return in;
}

// Runs a portion to completion, retiring each awake thread after holdCycles; returns the
// served order and the cycles between each retire and the next thread waking.
struct Served {
  std::vector<int> order;
  std::vector<int> handoff;
};
Served serveAll(SelectBench& b, int holdCycles, const std::function<void(int, model::ThreadSelect::In&)>& extra = {}) {
  Served s;
  int sinceRetire = -1, held = 0;
  for (int c = 0; c < 2000; ++c) {
    auto in = idle();
    const auto o = b.out();
    if (o.done) break;
    if (o.selValid) {
      if (held == 0) {
        s.order.push_back(o.selTid);
        if (sinceRetire >= 0) s.handoff.push_back(sinceRetire);
      }
      if (++held > holdCycles) {
        in.next = true;
        held = 0;
        sinceRetire = 0;
      }
    } else if (sinceRetire >= 0) {
      ++sinceRetire;
    }
    if (extra) extra(c, in);
    b.cycle(in);
    if (in.next) sinceRetire = 1;
  }
  return s;
}

TEST(ThreadSelect, ServesParticipantsInAscendingLogicalOrder) {
  SelectBench b(1);
  b.cycle(startWith({40, 3, 18, 17, 63}));
  const Served s = serveAll(b, 2);
  EXPECT_EQ(s.order, (std::vector<int>{3, 17, 18, 40, 63}));
  EXPECT_TRUE(b.ok());
}

TEST(ThreadSelect, HandOffIsOneCycleWithinAGroupAndOneMorePerEmptyGroup) {
  SelectBench b(2);
  b.cycle(startWith({16, 17, 50}));
  const Served s = serveAll(b, 0);
  ASSERT_EQ(s.order, (std::vector<int>{16, 17, 50}));
  ASSERT_EQ(s.handoff.size(), 2u);
  EXPECT_EQ(s.handoff[0], 1) << "same group: the successor is awake the next cycle";
  EXPECT_EQ(s.handoff[1], 3) << "group 1 exhausted (1), group 2 empty (1), found in group 3 (1)";
  EXPECT_TRUE(b.ok());
}

TEST(ThreadSelect, LateJoinerBelowTheSearchIsRescannedOutOfOrder) {
  SelectBench b(3);
  b.cycle(startWith({20, 30}));
  bool joined = false;
  const Served s = serveAll(b, 3, [&](int, model::ThreadSelect::In& in) {
    if (!joined && b.out().selValid && b.out().selTid == 20) {
      in.join = true;
      in.joinTid = 5;   // below the position being searched: needs the rescan
      joined = true;
    }
  });
  EXPECT_EQ(s.order, (std::vector<int>{20, 30, 5}));
  EXPECT_TRUE(b.ok());
}

TEST(ThreadSelect, LateJoinerAheadIsServedInOrder) {
  SelectBench b(4);
  b.cycle(startWith({2, 60}));
  bool joined = false;
  const Served s = serveAll(b, 3, [&](int, model::ThreadSelect::In& in) {
    if (!joined && b.out().selValid && b.out().selTid == 2) {
      in.join = true;
      in.joinTid = 33;
      joined = true;
    }
  });
  EXPECT_EQ(s.order, (std::vector<int>{2, 33, 60}));
  EXPECT_TRUE(b.ok());
}

TEST(ThreadSelect, PhysicalIdComesFromThePerGroupMap) {
  SelectBench b(5);
  const uint32_t bases[4] = {64, 0, 160, 96};  // groups placed anywhere in the SM
  for (int g = 0; g < 4; ++g) {
    auto in = idle();
    in.mapWe = true;
    in.mapGroup = g;
    in.mapBase = bases[g];
    b.cycle(in);
  }
  b.cycle(startWith({1, 35}));
  std::vector<uint32_t> phys;
  for (int c = 0; c < 20 && !b.out().done; ++c) {
    auto in = idle();
    if (b.out().selValid) {
      phys.push_back(b.out().selPhys);
      in.next = true;
    }
    b.cycle(in);
  }
  EXPECT_EQ(phys, (std::vector<uint32_t>{65, 163}));
  EXPECT_TRUE(b.ok());
}

TEST(ThreadSelect, AbortDropsThePortion) {
  SelectBench b(6);
  b.cycle(startWith({1, 2, 3}));
  b.cycle(idle());
  ASSERT_TRUE(b.out().selValid);
  auto in = idle();
  in.abort = true;
  b.cycle(in);
  EXPECT_FALSE(b.out().busy);
  EXPECT_FALSE(b.out().selValid);
  EXPECT_TRUE(b.ok());
}

TEST(ThreadSelect, RandomPortionsMatchModel) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SelectBench b(seed);
    Coverage cov("thread_select");
    cov.define({"start_empty", "start_full", "group_skip", "same_group_handoff", "join_ahead",
                "join_behind_rescan", "join_in_final_decision", "abort_while_busy", "done",
                "phys_map"});
    std::set<int> everPending, served;
    int lastServed = -1;
    bool wrapped = false;
    const int cycles = 30000 * lengthScale();
    for (int c = 0; c < cycles && b.ok(); ++c) {
      auto in = idle();
      const auto o = b.out();
      if (rng.chance(3)) {
        in.mapWe = true;
        in.mapGroup = rng.below(kThreads / 16);
        in.mapBase = static_cast<uint32_t>(rng.bits(4)) * 16;
        cov.hit("phys_map");
      }
      if (o.done) {
        // Model-independent: every participant and joiner served exactly once.
        EXPECT_EQ(served, everPending) << "portion ended without serving everyone";
        cov.hit("done");
      }
      if (!o.busy) {
        if (rng.chance(30)) {
          const int density = rng.range(0, 100);
          std::set<int> part;
          for (int t = 0; t < kThreads; ++t) {
            if (rng.chance(density)) part.insert(t);
          }
          cov.sample("start_empty", part.empty());
          cov.sample("start_full", part.size() == kThreads);
          in = startWith(part);
          everPending = part;
          served.clear();
          lastServed = -1;
          wrapped = false;
        }
      } else {
        if (o.selValid && rng.chance(40)) {
          in.next = true;
          if (!served.insert(o.selTid).second) ADD_FAILURE() << "thread " << o.selTid << " served twice";
          if (o.selTid < lastServed) wrapped = true;
          // Ascending order within a pass; only a rescan may go back.
          if (!wrapped) EXPECT_GT(o.selTid, lastServed);
          if (lastServed >= 0 && o.selTid / 16 == lastServed / 16) cov.hit("same_group_handoff");
          if (lastServed >= 0 && o.selTid / 16 > lastServed / 16 + 1) cov.hit("group_skip");
          lastServed = o.selTid;
        }
        if (rng.chance(4) && everPending.size() < kThreads) {
          int t;
          do {
            t = rng.below(kThreads);
          } while (everPending.count(t));
          in.join = true;
          in.joinTid = t;
          everPending.insert(t);
          cov.sample("join_ahead", t > lastServed);
          cov.sample("join_behind_rescan", t < lastServed);
          cov.sample("join_in_final_decision", !o.selValid);
        }
        if (rng.chance(1) && rng.chance(10)) {
          in = idle();
          in.abort = true;
          cov.hit("abort_while_busy");
        }
      }
      b.cycle(in);
    }
    EXPECT_TRUE(b.ok());
    cov.requireAllHit();
  }
}

}  // namespace
}  // namespace simt::tb
