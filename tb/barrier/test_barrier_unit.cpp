// Directed tests of the barrier unit model (sim/model/barrier): one per behaviour of seed 000
// that the ISA model relies on. The RTL block and its lockstep tests come with the barrier
// unit issue and reuse these transactions.
#include <gtest/gtest.h>

#include "model/barrier/barrier_unit.h"

namespace simt::model {
namespace {

std::vector<int> range(int lo, int hi) {  // [lo, hi)
  std::vector<int> v;
  for (int i = lo; i < hi; ++i) v.push_back(i);
  return v;
}

BarrierArrival arrival(int id, uint32_t tag, BarrierKind kind, std::vector<int> threads,
                       uint32_t count = 0) {
  BarrierArrival a;
  a.cta = 0;
  a.id = id;
  a.tag = tag;
  a.kind = kind;
  a.count = count;
  a.threads = std::move(threads);
  return a;
}

class BarrierUnitTest : public ::testing::Test {
 protected:
  void SetUp() override { bu.addCta(0, 64); }
  BarrierUnit::Arrive arrive(const BarrierArrival& a, uint64_t cycle = 0) {
    passNow.clear();
    const auto r = bu.arrive(a, cycle, passNow);
    bu.evaluate(cycle);
    return r;
  }
  std::vector<BarrierWake> wakes() { return bu.takeWakes(); }
  BarrierUnit bu;
  std::vector<int> passNow;
};

TEST_F(BarrierUnitTest, SyncWakesAllParticipantsOnLastArrival) {
  arrive(arrival(0, 10, BarrierKind::Sync, range(0, 32)));
  EXPECT_TRUE(wakes().empty()) << "32 of 64 arrived";
  EXPECT_TRUE(bu.anyAsleep(0));
  arrive(arrival(0, 10, BarrierKind::Sync, range(32, 64)));
  const auto w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, range(0, 64));
  EXPECT_EQ(w[0].resume, 11u) << "participants continue after the barrier instruction";
  EXPECT_FALSE(bu.busyWithOtherTag(0, 0, 99)) << "instance done: the id is idle";
}

TEST_F(BarrierUnitTest, ExitsShrinkTheDefaultCount) {
  arrive(arrival(1, 10, BarrierKind::Sync, range(0, 40)));
  EXPECT_TRUE(wakes().empty());
  bu.exited(0, 24);  // the other 24 threads left the CTA
  bu.evaluate(1);
  const auto w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads.size(), 40u);
}

TEST_F(BarrierUnitTest, ParticipatingCountCompletesWithoutTheRest) {
  arrive(arrival(2, 10, BarrierKind::Sync, range(0, 7), 8));
  EXPECT_TRUE(wakes().empty());
  arrive(arrival(2, 10, BarrierKind::Sync, {20}, 8));
  EXPECT_EQ(wakes().at(0).threads.size(), 8u);
}

TEST_F(BarrierUnitTest, TagsRefuseAnotherPlaceWhileBusy) {
  arrive(arrival(3, 10, BarrierKind::Sync, range(0, 32)));
  EXPECT_TRUE(bu.busyWithOtherTag(0, 3, 20));
  EXPECT_FALSE(bu.busyWithOtherTag(0, 3, 10));
  EXPECT_EQ(arrive(arrival(3, 20, BarrierKind::Sync, range(32, 64))), BarrierUnit::Arrive::Refused);
  EXPECT_EQ(bu.stats["barrier_refused"], 1u);
}

TEST_F(BarrierUnitTest, OrderedSectionServesOneThreadAtATimeInLogicalOrder) {
  arrive(arrival(4, 10, BarrierKind::Ordered, {5, 1, 9}, 3));
  std::vector<int> order;
  for (int step = 0; step < 3; ++step) {
    const auto w = wakes();
    ASSERT_EQ(w.size(), 1u) << "exactly one thread is awake in the section";
    ASSERT_EQ(w[0].threads.size(), 1u);
    EXPECT_EQ(w[0].resume, 11u);
    order.push_back(w[0].threads[0]);
    std::vector<int> sleepNow;
    bu.bottom(0, 4, 30, false, {w[0].threads[0]}, sleepNow);
    EXPECT_EQ(sleepNow, std::vector<int>{w[0].threads[0]}) << "blocking bottom";
  }
  EXPECT_EQ(order, (std::vector<int>{1, 5, 9}));
  // The last bottom released the whole portion after bar.bot.
  bu.evaluate(0);
}

TEST_F(BarrierUnitTest, BlockingBottomReleasesThePortionTogether) {
  arrive(arrival(4, 10, BarrierKind::Ordered, {0, 1}, 2));
  std::vector<int> sleepNow;
  auto w = wakes();
  bu.bottom(0, 4, 30, false, {0}, sleepNow);
  w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, std::vector<int>{1});
  bu.bottom(0, 4, 30, false, {1}, sleepNow);
  w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, (std::vector<int>{0, 1}));
  EXPECT_EQ(w[0].resume, 31u);
  EXPECT_FALSE(bu.anyAsleep(0));
}

TEST_F(BarrierUnitTest, NonBlockingBottomLetsTheThreadGoOn) {
  arrive(arrival(5, 10, BarrierKind::Ordered, {0, 1}, 2));
  wakes();
  std::vector<int> sleepNow;
  bu.bottom(0, 5, 30, true, {0}, sleepNow);
  EXPECT_TRUE(sleepNow.empty());
  EXPECT_EQ(wakes().at(0).threads, std::vector<int>{1}) << "next thread enters at once";
}

TEST_F(BarrierUnitTest, BottomOfAThreadOutsideTheSectionIsANoOp) {
  arrive(arrival(5, 10, BarrierKind::Ordered, {0, 1}, 2));
  wakes();
  std::vector<int> sleepNow;
  bu.bottom(0, 5, 30, false, {1}, sleepNow);  // thread 1 is queued, not inside
  EXPECT_TRUE(sleepNow.empty());
  EXPECT_TRUE(wakes().empty());
}

// "Any order" (ISA.md): the same thread select serves unordered sections, so they follow the
// ordered rule (ascending logical id), not the arrival order.
TEST_F(BarrierUnitTest, UnorderedSectionUsesTheThreadSelectOrder) {
  arrive(arrival(6, 10, BarrierKind::Unordered, {7}, 3));
  arrive(arrival(6, 10, BarrierKind::Unordered, {2, 3}, 3));
  std::vector<int> order, sleepNow;
  for (int i = 0; i < 3; ++i) {
    const int t = wakes().at(0).threads.at(0);
    order.push_back(t);
    bu.bottom(0, 6, 30, true, {t}, sleepNow);
  }
  EXPECT_EQ(order, (std::vector<int>{2, 3, 7}));
}

TEST_F(BarrierUnitTest, ImpatientMinimumStartsAPortionThenTheRest) {
  auto a = arrival(7, 10, BarrierKind::Sync, range(0, 16), 64);
  a.impatient = true;
  a.min = 16;
  arrive(a);
  auto w = wakes();
  ASSERT_EQ(w.size(), 1u) << "MIN arrivals start a portion";
  EXPECT_EQ(w[0].threads.size(), 16u);
  EXPECT_TRUE(bu.busyWithOtherTag(0, 7, 99)) << "instance not done: 16 of 64";
  a.threads = range(16, 24);
  arrive(a);
  EXPECT_TRUE(wakes().empty()) << "8 < MIN";
  a.threads = range(24, 64);
  arrive(a);
  w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads.size(), 48u);
  EXPECT_FALSE(bu.busyWithOtherTag(0, 7, 99));
}

TEST_F(BarrierUnitTest, ImpatientTimeoutCountsFromTheFirstArrival) {
  auto a = arrival(8, 10, BarrierKind::Sync, range(0, 4), 64);
  a.impatient = true;
  a.timeout = 50;
  arrive(a, 100);
  arrive(a = [&] { auto b = a; b.threads = {4}; return b; }(), 120);
  ASSERT_TRUE(bu.nextTimeout().has_value());
  EXPECT_EQ(*bu.nextTimeout(), 150u);
  bu.evaluate(149);
  EXPECT_TRUE(wakes().empty());
  bu.evaluate(150);
  const auto w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads.size(), 5u);
  EXPECT_EQ(bu.stats["barrier_timeouts"], 1u);
}

// Seed 000 [0085]: where the TIMEOUT is measured from. Non-participants (guard false) arrive
// at 50 and 170 and participants at 100 and 150; TIMEOUT 100, COUNT 64 never reached.
uint64_t timeoutFiresAt(TimeoutOrigin origin) {
  BarrierUnit bu;
  bu.addCta(0, 64);
  bu.setTimeoutOrigin(origin);
  auto a = arrival(8, 10, BarrierKind::Sync, {}, 64);
  a.impatient = true;
  a.timeout = 100;
  std::vector<int> passNow;
  uint64_t fired = 0;
  auto evaluate = [&](uint64_t cycle) {
    bu.evaluate(cycle);
    const auto w = bu.takeWakes();
    if (!w.empty() && fired == 0) {
      fired = cycle;
      EXPECT_EQ(w[0].threads.size(), cycle < 150 ? 4u : 8u);
    }
  };
  // Arrivals at their cycles, the unit evaluated every cycle in between.
  const std::vector<std::pair<uint64_t, std::vector<int>>> arrivals = {
      {50, {}}, {100, range(0, 4)}, {150, range(4, 8)}, {170, {}}};
  size_t next = 0;
  for (uint64_t c = 0; c < 400 && fired == 0; ++c) {
    if (next < arrivals.size() && arrivals[next].first == c) {
      auto b = a;
      b.threads = arrivals[next].second;
      b.nonParticipants = b.threads.empty();
      EXPECT_EQ(bu.arrive(b, c, passNow), BarrierUnit::Arrive::Accepted);
      ++next;
    }
    evaluate(c);
  }
  return fired;
}

TEST(BarrierUnitTimeoutOrigin, FromTheFirstParticipatingArrival) {
  EXPECT_EQ(timeoutFiresAt(TimeoutOrigin::FirstParticipant), 200u);
}
TEST(BarrierUnitTimeoutOrigin, FromTheFirstArrivalOfAnyThread) {
  // The non-participants at 50 start the clock: it elapses at 150, with the second
  // participating warp's arrival (8 threads in the portion).
  EXPECT_EQ(timeoutFiresAt(TimeoutOrigin::FirstArrival), 150u);
}
TEST(BarrierUnitTimeoutOrigin, FromTheLatestParticipatingArrival) {
  EXPECT_EQ(timeoutFiresAt(TimeoutOrigin::LastParticipant), 250u);
}
TEST(BarrierUnitTimeoutOrigin, FromTheLatestArrivalOfAnyThread) {
  EXPECT_EQ(timeoutFiresAt(TimeoutOrigin::LastArrival), 270u);
}
TEST(BarrierUnitTimeoutOrigin, NonParticipantsAtAnotherTagDoNotStartTheClock) {
  BarrierUnit bu;
  bu.addCta(0, 64);
  bu.setTimeoutOrigin(TimeoutOrigin::FirstArrival);
  std::vector<int> passNow;
  auto other = arrival(8, 99, BarrierKind::Sync, {}, 64);
  other.nonParticipants = true;
  bu.arrive(other, 10, passNow);
  auto a = arrival(8, 10, BarrierKind::Sync, range(0, 4), 64);
  a.impatient = true;
  a.timeout = 100;
  bu.arrive(a, 60, passNow);
  bu.evaluate(159);
  EXPECT_TRUE(bu.takeWakes().empty());
  bu.evaluate(160);
  EXPECT_EQ(bu.takeWakes().size(), 1u);
  EXPECT_FALSE(bu.busyWithOtherTag(0, 8, 10)) << "non-participants never claim the id";
}

TEST_F(BarrierUnitTest, ExternalTimeoutsFireOnlyWhenForcedAndElapsed) {
  // Co-simulation: the RTL picks the cycle; the model checks the TIMEOUT had elapsed.
  bu.setExternalTimeouts(true);
  auto a = arrival(8, 10, BarrierKind::Sync, range(0, 4), 64);
  a.impatient = true;
  a.timeout = 50;
  arrive(a, 100);
  bu.evaluate(400);
  EXPECT_TRUE(wakes().empty()) << "no timeout of its own";
  const std::string early = bu.forceTimeout(0, 8, 149);
  EXPECT_NE(early.find("before its TIMEOUT 50 from the first arrival (cycle 100)"), std::string::npos)
      << early;
  EXPECT_NE(bu.forceTimeout(0, 9, 400).find("no waiting arrivals"), std::string::npos);
  EXPECT_EQ(bu.forceTimeout(0, 8, 163), "");
  bu.evaluate(163);
  const auto w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads.size(), 4u);
  EXPECT_EQ(bu.stats["barrier_timeouts"], 1u);
  // The next waiting group is not started by the old force.
  arrive(a, 170);
  bu.evaluate(400);
  EXPECT_TRUE(wakes().empty());
}

TEST_F(BarrierUnitTest, LatePassContinuesAtOnce) {
  auto a = arrival(9, 10, BarrierKind::Sync, range(0, 32), 64);
  a.impatient = true;
  a.min = 32;
  a.pass = true;
  arrive(a);
  wakes();
  a.threads = range(32, 40);
  arrive(a);
  EXPECT_EQ(passNow, range(32, 40)) << "invalidation: late arrivals do not wait";
  EXPECT_TRUE(wakes().empty());
}

TEST_F(BarrierUnitTest, LateJoinIsRescannedOutOfLogicalOrder) {
  auto a = arrival(10, 10, BarrierKind::Ordered, {40, 41}, 4);
  a.impatient = true;
  a.min = 2;
  arrive(a);
  EXPECT_EQ(wakes().at(0).threads, std::vector<int>{40});
  a.threads = {3, 50};
  arrive(a);  // joins the running portion
  std::vector<int> order{40}, sleepNow;
  for (int i = 0; i < 3; ++i) {
    bu.bottom(0, 10, 30, true, {order.back()}, sleepNow);
    order.push_back(wakes().at(0).threads.at(0));
  }
  EXPECT_EQ(order, (std::vector<int>{40, 41, 50, 3}));
  EXPECT_EQ(bu.stats["barrier_late_join"], 2u);
  EXPECT_EQ(bu.stats["barrier_out_of_order"], 1u);
}

TEST_F(BarrierUnitTest, ExclusiveSectionRunsAlone) {
  bu.addCta(1, 32);
  auto a = arrival(11, 10, BarrierKind::Ordered, {0}, 1);
  a.exclusive = true;
  arrive(a);
  EXPECT_EQ(wakes().size(), 1u);
  auto b = arrival(12, 20, BarrierKind::Ordered, {0}, 1);
  b.cta = 1;
  arrive(b);
  EXPECT_TRUE(wakes().empty()) << "another CTA's section waits for the exclusive one";
  std::vector<int> sleepNow;
  bu.bottom(0, 11, 30, false, {0}, sleepNow);
  bu.evaluate(1);
  const auto w = wakes();
  ASSERT_EQ(w.size(), 2u) << "portion of CTA 0 released, CTA 1's section starts";
  EXPECT_EQ(w[1].cta, 1);
}

// Seed 0101-0102, 0108: every section that holds a slot is in service; sections of different
// ids run at once, each one thread at a time.
TEST_F(BarrierUnitTest, SectionsOfDifferentIdsAreInServiceAtOnce) {
  arrive(arrival(1, 10, BarrierKind::Ordered, {4, 6}, 2));
  arrive(arrival(2, 20, BarrierKind::Ordered, {5}, 1));
  auto w = wakes();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].threads, std::vector<int>{4});
  EXPECT_EQ(w[1].threads, std::vector<int>{5});
  EXPECT_EQ(w[1].resume, 21u);
  EXPECT_EQ(bu.stats["barrier_slot_entries"], 2u) << "both sections hold a slot";
  std::vector<int> sleepNow;
  bu.bottom(0, 1, 30, true, {4}, sleepNow);
  w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, std::vector<int>{6}) << "section 1's next thread; 5 is still inside 2";
}

// A thread inside section 1 reaches the top of section 2: the inner section is served at once
// (the outer one keeps its slot), and the outer one goes on after the inner one ends.
TEST_F(BarrierUnitTest, ANestedSectionIsServedInsideTheOuterOne) {
  arrive(arrival(1, 10, BarrierKind::Ordered, {0, 1}, 2));
  ASSERT_EQ(wakes().size(), 1u);
  arrive(arrival(2, 12, BarrierKind::Ordered, {0}, 1));
  auto w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, std::vector<int>{0});
  EXPECT_EQ(w[0].resume, 13u) << "inside section 2";
  std::vector<int> sleepNow;
  bu.bottom(0, 2, 14, false, {0}, sleepNow);
  EXPECT_EQ(sleepNow, std::vector<int>{0});
  w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].resume, 15u) << "section 2 done: thread 0 continues inside section 1";
  sleepNow.clear();
  bu.bottom(0, 1, 16, false, {0}, sleepNow);
  w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, std::vector<int>{1}) << "section 1's next thread";
}

// Seed 0108: a priority per barrier id; of the slots waiting at once, the highest is granted
// first. Two sections wait in the FIFO behind an exclusive one and enter slots together.
TEST_F(BarrierUnitTest, HigherPriorityIdIsServedFirst) {
  bu.setPriority(3, 2);
  auto ex = arrival(1, 10, BarrierKind::Ordered, {0}, 1);
  ex.exclusive = true;
  arrive(ex);
  arrive(arrival(2, 20, BarrierKind::Ordered, {1}, 1));  // priority 0, waits
  arrive(arrival(3, 30, BarrierKind::Ordered, {2}, 1));  // priority 2, waits
  EXPECT_EQ(wakes().size(), 1u);
  std::vector<int> sleepNow;
  bu.bottom(0, 1, 40, true, {0}, sleepNow);
  const auto w = wakes();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].threads, std::vector<int>{2}) << "id 3 overtakes id 2";
  EXPECT_EQ(w[1].threads, std::vector<int>{1});
}

TEST_F(BarrierUnitTest, ExternalGrantsAreCheckedAndFollowed) {
  // Co-simulation: the RTL's slot arbiter picks the section; the model checks the choice.
  bu.setExternalGrants(true);
  bu.setPriority(3, 2);
  arrive(arrival(1, 10, BarrierKind::Ordered, {0}, 1));
  arrive(arrival(2, 20, BarrierKind::Ordered, {1}, 1));
  EXPECT_TRUE(wakes().empty()) << "no grant of its own";
  EXPECT_NE(bu.forceGrant(0, 5).find("holds no execution slot"), std::string::npos);
  // Ids 1 and 2 have equal priority: either is legal (the round robin is the RTL's).
  EXPECT_EQ(bu.forceGrant(0, 2), "");
  auto w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, std::vector<int>{1});
  const std::string again = bu.forceGrant(0, 2);
  EXPECT_NE(again.find("already in service"), std::string::npos) << again;
  arrive(arrival(3, 30, BarrierKind::Ordered, {2}, 1));  // priority 2
  const std::string low = bu.forceGrant(0, 1);
  EXPECT_NE(low.find("at priority 0 while a slot of priority 2 waits"), std::string::npos) << low;
  EXPECT_EQ(bu.forceGrant(0, 3), "");
  w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, std::vector<int>{2});
  EXPECT_EQ(bu.forceGrant(0, 1), "") << "sections 2 and 3 in service: 1 may start too";
  w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, std::vector<int>{0});
}

// A section reset while it waits for a slot (behind an exclusive one) leaves a stale FIFO
// entry that is released unserved once it gets a slot; the id can be used again meanwhile.
TEST_F(BarrierUnitTest, ResetOfAQueuedSectionIsNeverServed) {
  auto ex = arrival(1, 10, BarrierKind::Ordered, {0}, 1);
  ex.exclusive = true;
  arrive(ex);
  arrive(arrival(2, 20, BarrierKind::Ordered, {1, 2}, 2));
  ASSERT_EQ(wakes().size(), 1u);
  bu.reset(0, 2);
  auto w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, (std::vector<int>{1, 2}));
  std::vector<int> sleepNow;
  bu.bottom(0, 1, 40, false, {0}, sleepNow);
  w = wakes();
  ASSERT_EQ(w.size(), 1u) << "only CTA 0 id 1's bottom sleeper wakes";
  EXPECT_EQ(w[0].threads, std::vector<int>{0});
  EXPECT_EQ(bu.stats["barrier_slot_stale"], 1u);
}

TEST_F(BarrierUnitTest, ResetReleasesSleepersAfterTheirInstruction) {
  arrive(arrival(13, 10, BarrierKind::Sync, range(0, 8), 64));
  bu.reset(0, 13);
  const auto w = wakes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].threads, range(0, 8));
  EXPECT_EQ(w[0].resume, 11u);
  EXPECT_FALSE(bu.busyWithOtherTag(0, 13, 99)) << "the id returns to idle";
}

// A deadlock report says where a section waits: an exclusive FIFO head waits for the slots
// to empty, the sections behind it wait for it (a section nested in an outer one, queued
// behind an exclusive one, can never start: a program deadlock).
TEST_F(BarrierUnitTest, DescribeSaysWhereASectionWaits) {
  arrive(arrival(1, 10, BarrierKind::Ordered, {0, 1}, 2));
  auto ex = arrival(2, 20, BarrierKind::Ordered, {2}, 1);
  ex.exclusive = true;
  arrive(ex);
  arrive(arrival(3, 30, BarrierKind::Ordered, {0}, 1));  // thread 0, inside section 1
  const std::string d = bu.describe(0);
  EXPECT_NE(d.find("barrier 1 (ordered critical section, pc 10): 0 of 2 passed, in service (slot 0)"),
            std::string::npos) << d;
  EXPECT_NE(d.find("at position 0, exclusive: waiting for all 1 occupied slots to be free"), std::string::npos) << d;
  EXPECT_NE(d.find("at position 1 behind exclusive barrier 2 of cta 0, waiting for all 1 occupied slots"),
            std::string::npos) << d;
}

TEST_F(BarrierUnitTest, DescribeNamesTheSleepers) {
  arrive(arrival(14, 10, BarrierKind::Sync, {3, 4}, 64));
  const std::string d = bu.describe(0);
  EXPECT_NE(d.find("barrier 14"), std::string::npos) << d;
  EXPECT_NE(d.find("threads asleep waiting: 3,4"), std::string::npos) << d;
}

}  // namespace
}  // namespace simt::model
