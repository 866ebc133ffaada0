// Golden model of the barrier unit at instruction level (seed 000 and ISA.md "Barriers"):
// per (CTA, id) barrier state with a tag, conditional membership, impatient portions (MIN /
// TIMEOUT, late arrivals that join or pass), critical sections run one thread at a time
// (served by the thread select: ascending logical id, rescanning for late joiners; unordered
// sections use the same order, which "any order" allows), blocking and non-blocking bottoms,
// exclusive sections, bar.reset.
//
// Transactions: arrive (a warp's participants reach bar.sync / bar.top.*), bottom (bar.bot.*),
// reset, exited (threads left the CTA, which shrinks the default COUNT) and evaluate (a cycle
// passes: start the portions whose condition holds). Wakes come out as {cta, threads,
// resume address} for the divergence unit (ARCHITECTURE.md: sleep and wake go through the
// token queue). Threads are named by their logical id within the CTA. A critical-section
// portion that may start goes, as in simt_barrier_unit, through the ready FIFO into the lowest
// free of 16 execution slots (an exclusive one only into an empty slot set, nothing else while
// it occupies one), and the slot arbiter (priority per id, round robin among equals) grants
// the waiting slots one after another; every granted slot's section is in service, so several
// run at once (a section nested in another too). docs/blocks/barrier_unit.md.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/common/rr_arbiter.h"

namespace simt::model {

enum class BarrierKind : uint8_t { Sync, Ordered, Unordered };

// Where an impatient TIMEOUT is measured from (seed 000 [0085]); the RTL's cfg_tmo_origin_i
// uses the same numbers. FirstParticipant is ISA.md's rule.
enum class TimeoutOrigin : uint8_t { FirstParticipant = 0, FirstArrival = 1, LastParticipant = 2,
                                     LastArrival = 3 };
const char* barrierKindName(BarrierKind k);

struct BarrierArrival {
  int cta = 0;
  int id = 0;
  uint32_t tag = 0;            // the barrier instruction's PC
  BarrierKind kind = BarrierKind::Sync;
  bool exclusive = false;      // .ex
  uint32_t count = 0;          // 0: all non-exited threads of the CTA
  bool impatient = false;
  uint32_t min = 0, timeout = 0;  // .imp MIN, TIMEOUT (0 disables either)
  bool pass = false;           // .pass: late arrivals continue
  std::vector<int> threads;    // participating logical thread ids
  bool nonParticipants = false;  // active threads of the warp whose guard failed arrive too
};

struct BarrierWake {
  int cta = 0;
  std::vector<int> threads;
  uint32_t resume = 0;
};

class BarrierUnit {
 public:
  static constexpr int kIds = 16;
  static constexpr int kSlots = 16;

  BarrierUnit();
  // Priority of an id in the slot arbiter (seed 0108; higher first). Default 0.
  void setPriority(int id, uint32_t prio) { prio_[id] = prio; }

  enum class Arrive { Refused, Accepted };

  void addCta(int cta, int threads);
  void removeCta(int cta);

  // Participants arrive. Refused: the id is busy with another tag (the warp must retry; the
  // scheduler's barrier scoreboard holds it). Threads listed in passNow continue at once
  // (.pass late arrivals); the others sleep until woken.
  Arrive arrive(const BarrierArrival& a, uint64_t cycle, std::vector<int>& passNow);

  // bar.bot.*: threads that are the running critical-section thread of this id finish the
  // section; with a blocking bottom they sleep (sleepNow) until the portion is done, with .nb
  // they continue. Other threads are not in the section and continue.
  void bottom(int cta, int id, uint32_t pc, bool nonBlocking, const std::vector<int>& threads,
              std::vector<int>& sleepNow);

  // bar.reset: every thread asleep at the id continues after its barrier instruction.
  void reset(int cta, int id);

  // Threads of a CTA exited: the default COUNT shrinks, which may complete barriers.
  void exited(int cta, int n);

  // Start every portion whose condition holds at this cycle; wakes collect in wakes().
  void evaluate(uint64_t cycle);
  std::vector<BarrierWake> takeWakes();

  // Whether the id is busy with a tag other than this one (the warp cannot arrive).
  bool busyWithOtherTag(int cta, int id, uint32_t tag) const;
  uint32_t tagOf(int cta, int id) const { return ctas_.at(cta).bar[id].tag; }
  // The table entry the scheduler's barrier scoreboard reads.
  struct Entry {
    bool busy = false;
    uint32_t tag = 0;
    bool portionStarted = false;
  };
  Entry entry(int cta, int id) const {
    const Instance& b = ctas_.at(cta).bar[id];
    return Entry{b.busy, b.tag, b.portions > 0 || b.sectionActive};
  }
  // Timeouts chosen outside (co-simulation): evaluate no longer starts a portion because its
  // TIMEOUT elapsed; forceTimeout does, at a cycle the caller chose, after checking that the
  // barrier is waiting on an elapsed TIMEOUT (empty answer) or saying why not.
  void setExternalTimeouts(bool on) { externalTimeouts_ = on; }
  void setTimeoutOrigin(TimeoutOrigin o) { origin_ = o; }
  std::string forceTimeout(int cta, int id, uint64_t cycle);
  // Section grants chosen outside (co-simulation): the unit still moves FIFO heads into free
  // slots but grants none itself; forceGrant grants the slot holding (cta, id) after checking
  // that the choice is legal now (empty answer: the barrier holds a slot not yet in service,
  // no other waiting slot has a higher priority) or saying why not.
  void setExternalGrants(bool on) { externalGrants_ = on; }
  std::string forceGrant(int cta, int id);
  // The earliest cycle at which an impatient barrier's timeout fires, if any is pending.
  std::optional<uint64_t> nextTimeout() const;
  // Threads asleep in the unit (for deadlock reports), per CTA: text naming barriers.
  std::string describe(int cta) const;
  bool anyAsleep(int cta) const;

  std::map<std::string, uint64_t> stats;

 private:
  struct Instance {
    bool busy = false;
    uint32_t tag = 0;
    BarrierKind kind = BarrierKind::Sync;
    bool exclusive = false;
    uint32_t count = 0;
    bool impatient = false, pass = false;
    uint32_t min = 0, timeout = 0;
    uint64_t firstArrival = 0;       // of the current waiting group (timeout origin)
    bool timeoutForced = false;      // forceTimeout: start the waiting group now
    bool originSet = false;          // firstArrival holds the waiting group's origin
    uint32_t passed = 0;             // participants that have passed, over all portions
    uint32_t portions = 0;           // portions started
    std::vector<int> waiting;        // arrived, not in a portion (arrival order)
    // Critical section of the running portion.
    bool sectionActive = false;
    std::set<int> pending;           // members not yet served
    int slot = -1;                   // the granted slot holding it (-1: queued or none)
    bool inService() const { return slot >= 0; }
    int current = -1;                // thread inside the section (-1: none)
    int lastServed = -1;
    std::vector<std::pair<int, uint32_t>> bottomSleepers;  // thread, resume
  };
  // A timeout origin set by non-participants at an idle id, kept for that tag's first
  // participant (origins measured from any thread's arrival).
  struct PreArrival {
    bool set = false;
    uint32_t tag = 0;
    uint64_t cycle = 0;
  };
  struct Cta {
    int threads = 0;
    int exited = 0;
    Instance bar[kIds];
    PreArrival pre[kIds];
  };
  // A section waiting for or holding an execution slot.
  struct SlotEntry {
    int cta = 0, id = 0;
    uint32_t prio = 0;
    bool exclusive = false;
    bool inService = false;  // granted
  };

  uint32_t expected(const Cta& c, const Instance& b) const;
  bool ready(const Cta& c, const Instance& b, uint64_t cycle) const;
  void startPortion(int cta, Cta& c, int id, Instance& b);
  void serveNext(int cta, Instance& b, int id);
  void finishIfDone(Cta& c, Instance& b);
  void releaseSlot(Instance& b);
  std::string whereQueued(int cta, int id) const;
  void dispatch();
  bool grantSlot(int slot);
  bool moveFifoHead();
  void wake(int cta, std::vector<int> threads, uint32_t resume);

  std::map<int, Cta> ctas_;
  // Per resident CTA slot and id: an item of it is in the FIFO or a slot (at most one). Kept
  // across CTA launches, as the RTL keeps it per table entry.
  std::map<int, std::array<bool, kIds>> queued_;
  std::vector<BarrierWake> wakes_;
  std::deque<SlotEntry> fifo_;
  std::vector<std::optional<SlotEntry>> slots_;
  RrArbiter arbiter_{kSlots};
  uint64_t cycle_ = 0;    // of the latest arrival or evaluation
  uint32_t prio_[kIds] = {};
  bool externalTimeouts_ = false;
  bool externalGrants_ = false;
  TimeoutOrigin origin_ = TimeoutOrigin::FirstParticipant;
};

}  // namespace simt::model
