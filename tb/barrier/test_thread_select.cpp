// simt_thread_select (64 logical threads = 4 groups of 16) against model::ThreadSelect every
// cycle, plus a model-independent check of every search: the thread found is the first
// pending one at or above the start position, else (late joiners below it) the first pending
// one from group 0, and a search ends done exactly when nothing is pending. Directed tests
// name the seed 000 behaviours: logical order, one group per cycle, the second pass for late
// arrivals, the per-group logical-to-physical map. The bench plays the barrier table: it
// keeps the portion's pending members, takes each thread found (clear) and starts the next
// search after the position of the thread served last.
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
        {"control", {s("start_i", 1), s("start_from_i", 7), s("clear_i", 1)}},
        {"search", {s("busy_q", 1), s("grp_q", 2), s("after_q", 5), s("wrap_q", 1),
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
    d.start_from_i = static_cast<uint8_t>(in.startFrom);
    d.clear_i = in.clear;
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

model::ThreadSelect::In startWith(const std::set<int>& part, int from = 0) {
  auto in = idle();
  in.start = true;
  in.startFrom = from;
  for (int t : part) in.startPart[static_cast<size_t>(t)] = true;
  return in;
}

// Serves a portion as the barrier table does: each search starts after the thread served
// last; the thread found is taken (clear) and runs holdCycles before its bottom starts the
// next search. beforeStart may add late joiners to the pending set. Returns the served order
// and, per search, the cycles from its start to the thread found (or to done).
struct Served {
  std::vector<int> order;
  std::vector<int> latency;
};
Served serveAll(SelectBench& b, std::set<int> pending, int holdCycles,
                const std::function<void(std::set<int>&)>& beforeStart = {}) {
  Served s;
  int from = 0;
  for (int search = 0; search < 2 * kThreads + 2; ++search) {
    if (beforeStart) beforeStart(pending);
    b.cycle(startWith(pending, from));
    int cycles = 1;
    while (!b.out().selValid && !b.out().done && cycles < 100) {
      b.cycle(idle());
      ++cycles;
    }
    s.latency.push_back(cycles);
    if (b.out().done || !b.out().selValid) break;
    const int t = b.out().selTid;
    s.order.push_back(t);
    pending.erase(t);
    from = t + 1;
    auto take = idle();
    take.clear = true;
    b.cycle(take);
    for (int h = 0; h < holdCycles; ++h) b.cycle(idle());
  }
  return s;
}

TEST(ThreadSelect, ServesParticipantsInAscendingLogicalOrder) {
  SelectBench b(1);
  const Served s = serveAll(b, {40, 3, 18, 17, 63}, 2);
  EXPECT_EQ(s.order, (std::vector<int>{3, 17, 18, 40, 63}));
  EXPECT_TRUE(b.ok());
}

// Seed 0106: the execution mask is generated one thread group at a time, the start's first
// group in the start cycle itself.
TEST(ThreadSelect, SearchLooksAtOneGroupPerCycleTheFirstInTheStartCycle) {
  SelectBench b(2);
  const Served s = serveAll(b, {16, 17, 50}, 0);
  ASSERT_EQ(s.order, (std::vector<int>{16, 17, 50}));
  EXPECT_EQ(s.latency, (std::vector<int>{2, 1, 3, 1}))
      << "16: group 0 empty, found in group 1; 17: same group, found in the start cycle; "
         "50: groups 1 and 2 empty, found in group 3; then nothing pending: done at once";
  EXPECT_TRUE(b.ok());
}

// Claims 16-17: a late joiner below the position is found by the second pass from group 0,
// out of logical order; one ahead of it is found in order.
TEST(ThreadSelect, LateJoinerBelowThePositionIsServedOutOfOrder) {
  SelectBench b(3);
  bool joined = false;
  const Served s = serveAll(b, {20, 30}, 3, [&](std::set<int>& p) {
    if (!joined && !p.count(20)) {
      p.insert(5);
      joined = true;
    }
  });
  EXPECT_EQ(s.order, (std::vector<int>{20, 30, 5}));
  EXPECT_TRUE(b.ok());
}

TEST(ThreadSelect, LateJoinerAheadIsServedInOrder) {
  SelectBench b(4);
  bool joined = false;
  const Served s = serveAll(b, {2, 60}, 3, [&](std::set<int>& p) {
    if (!joined && !p.count(2)) {
      p.insert(33);
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
  std::vector<uint32_t> phys;
  for (int from : {0, 2}) {
    b.cycle(startWith({1, 35}, from));
    for (int c = 0; c < 8 && !b.out().selValid; ++c) b.cycle(idle());
    ASSERT_TRUE(b.out().selValid);
    phys.push_back(b.out().selPhys);
    auto take = idle();
    take.clear = true;
    b.cycle(take);
  }
  EXPECT_EQ(phys, (std::vector<uint32_t>{65, 163}));
  EXPECT_TRUE(b.ok());
}

TEST(ThreadSelect, ClearDropsTheSearch) {
  SelectBench b(6);
  b.cycle(startWith({60}));
  EXPECT_TRUE(b.out().busy);
  EXPECT_FALSE(b.out().selValid);
  auto in = idle();
  in.clear = true;
  b.cycle(in);
  EXPECT_FALSE(b.out().busy);
  for (int c = 0; c < 6; ++c) b.cycle(idle());
  EXPECT_FALSE(b.out().selValid);
  EXPECT_FALSE(b.out().done);
  EXPECT_TRUE(b.ok());
}

TEST(ThreadSelect, RandomSearchesMatchModel) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SelectBench b(seed);
    Coverage cov("thread_select");
    cov.define({"start_empty", "start_full", "group_skip", "found_in_start_cycle",
                "found_below_position", "from_end", "clear_while_searching", "done",
                "phys_map"});
    std::set<int> part;
    int from = 0, started = -1;
    bool searching = false;
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
      if (searching && (o.done || o.selValid)) {
        // Model-independent: the first pending at or above the position, else the first.
        auto it = part.lower_bound(from);
        if (it == part.end()) it = part.begin();
        if (part.empty()) {
          EXPECT_TRUE(o.done) << "nothing pending, yet thread " << o.selTid << " found";
        } else {
          EXPECT_TRUE(o.selValid) << "search done with threads pending";
          EXPECT_EQ(o.selTid, *it) << "search from " << from;
          cov.sample("found_below_position", o.selTid < from);
          cov.sample("found_in_start_cycle", c == started + 1);
          if (o.selTid / 16 > std::min(from, kThreads - 1) / 16 + 1) cov.hit("group_skip");
        }
        if (o.done) cov.hit("done");
        searching = false;
      }
      if (o.selValid && rng.chance(50)) {
        in.clear = true;  // the table takes the thread
      } else if (!o.busy && !o.selValid && rng.chance(30)) {
        const int density = rng.chance(10) ? 0 : rng.range(0, 100);
        part.clear();
        for (int t = 0; t < kThreads; ++t) {
          if (rng.chance(density)) part.insert(t);
        }
        from = rng.chance(10) ? kThreads : rng.range(0, kThreads - 1);
        cov.sample("start_empty", part.empty());
        cov.sample("start_full", part.size() == kThreads);
        cov.sample("from_end", from == kThreads);
        const auto keepMap = in;
        in = startWith(part, from);
        in.mapWe = keepMap.mapWe;
        in.mapGroup = keepMap.mapGroup;
        in.mapBase = keepMap.mapBase;
        searching = true;
        started = c;
      } else if (o.busy && !o.selValid && rng.chance(2)) {
        in.clear = true;  // a reset drops the portion mid-search
        searching = false;
        cov.hit("clear_while_searching");
      }
      b.cycle(in);
    }
    EXPECT_TRUE(b.ok());
    cov.requireAllHit();
  }
}

}  // namespace
}  // namespace simt::tb
