// simt_barrier_slots (16 slots, 4-entry ready FIFO) against model::BarrierSlots every cycle,
// plus directed tests of seed 000's slot rules: the FIFO holds barriers while every slot is
// busy, an exclusive barrier runs alone, the highest-priority waiting slot is granted with
// round robin among equals.
#include <set>

#include "Vbarrier_slots.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "model/barrier/barrier_slots.h"

namespace simt::tb {
namespace {

constexpr int kSlots = 16;
constexpr int kFifo = 4;

class SlotsBench {
 public:
  explicit SlotsBench(uint64_t seed)
      : sim_("simt_barrier_slots", seed), model_(model::BarrierSlots::Config{kSlots, kFifo}) {
    auto s = [](const char* n, int w) { return waveSignal("simt_barrier_slots", n, w); };
    sim_.setWaveGroups({
        {"ready fifo", {s("ready_valid_i", 1), s("ready_ready_o", 1), s("ready_bar_i", 6),
                        s("ready_excl_i", 1), s("fifo_count_o", 3)}},
        {"slots", {s("occ_q", kSlots), s("act_q", kSlots), s("excl_q", kSlots),
                   s("release_valid_i", 1), s("release_slot_i", 4)}},
        {"grant", {s("sel_ready_i", 1), s("grant_valid_o", 1), s("grant_slot_o", 4),
                   s("grant_bar_o", 6)}},
    });
    sim_.reset();
  }
  model::BarrierSlots::Out cycle(const model::BarrierSlots::In& in) {
    auto& d = sim_.dut();
    d.ready_valid_i = in.readyValid;
    d.ready_bar_i = static_cast<uint8_t>(in.ready.bar);
    d.ready_excl_i = in.ready.excl;
    d.ready_prio_i = static_cast<uint8_t>(in.ready.prio);
    d.release_valid_i = in.releaseValid;
    d.release_slot_i = static_cast<uint8_t>(in.releaseSlot);
    d.sel_ready_i = in.selReady;
    sim_.eval();
    const auto o = model_.out();
    sb_.check("cycle " + std::to_string(sim_.cycle()),
              {{"ready_ready", o.readyReady}, {"grant_valid", o.grantValid},
               {"grant_slot", o.grantValid ? static_cast<uint64_t>(o.grantSlot) : 0},
               {"grant_bar", o.grantValid ? o.grantBar : 0}, {"occupied", o.occupied},
               {"fifo_count", static_cast<uint64_t>(o.fifoCount)}, {"excl_running", o.exclRunning},
               {"head_take", o.headTake}},
              {{"ready_ready", d.ready_ready_o}, {"grant_valid", d.grant_valid_o},
               {"grant_slot", o.grantValid ? d.grant_slot_o : 0u},
               {"grant_bar", o.grantValid ? d.grant_bar_o : 0u}, {"occupied", d.occupied_o},
               {"fifo_count", d.fifo_count_o}, {"excl_running", d.excl_running_o},
               {"head_take", d.head_take_o}});
    model_.commit(in);
    sim_.tick();
    return o;
  }
  const model::BarrierSlots& model() const { return model_; }
  bool ok() const { return sim_.ok() && sb_.clean(); }

 private:
  SimContext<Vbarrier_slots> sim_;
  model::BarrierSlots model_;
  Scoreboard sb_{"barrier_slots"};
};

model::BarrierSlots::In ready(uint32_t bar, bool excl = false, uint32_t prio = 0) {
  model::BarrierSlots::In in;
  in.readyValid = true;
  in.ready = {bar, excl, prio};
  return in;
}

TEST(BarrierSlots, FifoHoldsBarriersWhileEverySlotIsBusy) {
  SlotsBench b(1);
  int accepted = 0;
  for (int i = 0; i < kSlots + kFifo + 3; ++i) {
    if (b.cycle(ready(static_cast<uint32_t>(i))).readyReady) ++accepted;
  }
  for (int i = 0; i < 3; ++i) b.cycle({});
  const auto o = b.model().out();
  EXPECT_EQ(o.occupied, 0xFFFFull) << "all 16 slots busy";
  EXPECT_EQ(o.fifoCount, kFifo) << "the FIFO holds the rest";
  EXPECT_FALSE(o.readyReady) << "the producer is held, nothing dropped";
  EXPECT_EQ(accepted, kSlots + kFifo);
  model::BarrierSlots::In rel;
  rel.releaseValid = true;
  rel.releaseSlot = 5;
  b.cycle(rel);
  b.cycle({});
  EXPECT_EQ(b.model().out().fifoCount, kFifo - 1) << "a freed slot takes the FIFO head";
  EXPECT_TRUE(b.ok());
}

TEST(BarrierSlots, ExclusiveBarrierWaitsForEmptySlotsAndRunsAlone) {
  SlotsBench b(2);
  b.cycle(ready(1));
  b.cycle(ready(2, /*excl=*/true));
  b.cycle(ready(3));
  for (int i = 0; i < 3; ++i) b.cycle({});
  auto o = b.model().out();
  EXPECT_EQ(o.occupied, 0x1ull) << "the exclusive head waits for slot 0 to free";
  EXPECT_TRUE(b.model().headBlockedByExclusive());
  model::BarrierSlots::In rel;
  rel.releaseValid = true;
  rel.releaseSlot = 0;
  b.cycle(rel);
  for (int i = 0; i < 3; ++i) b.cycle({});
  o = b.model().out();
  EXPECT_TRUE(o.exclRunning);
  EXPECT_EQ(o.occupied, 0x1ull) << "barrier 3 waits behind the running exclusive one";
  EXPECT_EQ(o.fifoCount, 1);
  b.cycle(rel);
  for (int i = 0; i < 3; ++i) b.cycle({});
  EXPECT_FALSE(b.model().out().exclRunning);
  EXPECT_EQ(b.model().out().fifoCount, 0);
  EXPECT_TRUE(b.ok());
}

TEST(BarrierSlots, HighestPriorityIsGrantedThenRoundRobinAmongEquals) {
  SlotsBench b(3);
  b.cycle(ready(10, false, 1));
  b.cycle(ready(11, false, 3));
  b.cycle(ready(12, false, 1));
  b.cycle(ready(13, false, 3));
  b.cycle({});
  std::vector<uint32_t> order;
  for (int i = 0; i < 6; ++i) {
    model::BarrierSlots::In in;
    in.selReady = true;
    const auto o = b.cycle(in);
    if (o.grantValid) order.push_back(o.grantBar);
  }
  EXPECT_EQ(order, (std::vector<uint32_t>{11, 13, 10, 12}));
  EXPECT_TRUE(b.ok());
}

TEST(BarrierSlots, RandomTrafficMatchesModel) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    SlotsBench b(seed);
    Coverage cov("barrier_slots");
    cov.define({"fifo_full", "all_slots_busy", "producer_held", "exclusive_head_blocked",
                "exclusive_running", "grant", "priority_over_other", "release_waiting_slot",
                "release_while_a_grant_is_offered"});
    int readyPct = 50, releasePct = 20;
    const int cycles = 40000 * lengthScale();
    for (int c = 0; c < cycles && b.ok(); ++c) {
      if (c % 1000 == 0) {
        readyPct = rng.range(5, 90);
        releasePct = rng.range(5, 60);
      }
      const auto before = b.model().out();
      model::BarrierSlots::In in;
      in.readyValid = rng.chance(readyPct);
      in.ready = {static_cast<uint32_t>(rng.bits(6)), rng.chance(10), static_cast<uint32_t>(rng.bits(2))};
      in.selReady = rng.chance(60);
      if (before.occupied && rng.chance(releasePct)) {
        in.selReady = false;  // no grant is taken in a release's cycle (the barrier table's rule)
        int s;
        do {
          s = rng.below(kSlots);
        } while (!((before.occupied >> s) & 1u));
        in.releaseValid = true;
        in.releaseSlot = s;
      }
      cov.sample("fifo_full", before.fifoCount == kFifo);
      cov.sample("all_slots_busy", before.occupied == 0xFFFF);
      cov.sample("producer_held", in.readyValid && !before.readyReady);
      cov.sample("exclusive_head_blocked", b.model().headBlockedByExclusive());
      cov.sample("exclusive_running", before.exclRunning);
      const auto o = b.cycle(in);
      cov.sample("grant", o.grantValid && in.selReady);
      cov.sample("release_while_a_grant_is_offered", o.grantValid && in.releaseValid);
      cov.sample("priority_over_other", o.grantValid && __builtin_popcountll(o.occupied) > 1);
      cov.sample("release_waiting_slot", in.releaseValid && !(o.grantValid && o.grantSlot == in.releaseSlot));
    }
    EXPECT_TRUE(b.ok());
    cov.requireAllHit();
  }
}

}  // namespace
}  // namespace simt::tb
