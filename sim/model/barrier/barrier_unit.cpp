#include "model/barrier/barrier_unit.h"

#include <algorithm>
#include <sstream>

namespace simt::model {

const char* barrierKindName(BarrierKind k) {
  switch (k) {
    case BarrierKind::Sync: return "bar.sync";
    case BarrierKind::Ordered: return "ordered critical section";
    case BarrierKind::Unordered: return "unordered critical section";
  }
  return "?";
}

BarrierUnit::BarrierUnit() : slots_(kSlots) {}

void BarrierUnit::addCta(int cta, int threads) {
  Cta c;
  c.threads = threads;
  ctas_[cta] = c;
}

void BarrierUnit::removeCta(int cta) { ctas_.erase(cta); }

uint32_t BarrierUnit::expected(const Cta& c, const Instance& b) const {
  return b.count ? b.count : static_cast<uint32_t>(std::max(0, c.threads - c.exited));
}

BarrierUnit::Arrive BarrierUnit::arrive(const BarrierArrival& a, uint64_t cycle,
                                        std::vector<int>& passNow) {
  cycle_ = cycle;
  Cta& c = ctas_.at(a.cta);
  Instance& b = c.bar[a.id];
  const bool anyArrival = origin_ == TimeoutOrigin::FirstArrival || origin_ == TimeoutOrigin::LastArrival;
  const bool latest = origin_ == TimeoutOrigin::LastParticipant || origin_ == TimeoutOrigin::LastArrival;
  if (a.threads.empty()) {
    // Only non-participants: they never wait and never claim the id; measured from any
    // thread's arrival, a timeout's clock starts (or restarts) here.
    if (!anyArrival || !a.nonParticipants) return Arrive::Accepted;
    if (!b.busy) {
      PreArrival& p = c.pre[a.id];
      if (latest || !p.set || p.tag != a.tag) p.cycle = cycle;
      p.set = true;
      p.tag = a.tag;
    } else if (b.tag == a.tag) {
      if (latest || !b.originSet) b.firstArrival = cycle;
      b.originSet = true;
    }
    return Arrive::Accepted;
  }
  if (b.busy && b.tag != a.tag) {
    ++stats["barrier_refused"];
    return Arrive::Refused;
  }
  if (!b.busy) {
    b = Instance{};
    b.busy = true;
    b.tag = a.tag;
    b.kind = a.kind;
    b.exclusive = a.exclusive;
    b.count = a.count;
    b.impatient = a.impatient;
    b.pass = a.pass;
    b.min = a.min;
    b.timeout = a.timeout;
    PreArrival& p = c.pre[a.id];
    if (anyArrival && p.set && p.tag == a.tag) {
      b.originSet = true;
      b.firstArrival = p.cycle;
    }
    p.set = false;
  }
  const bool late = b.impatient && b.portions > 0;
  if (late && b.kind == BarrierKind::Sync && b.pass) {
    // Invalidation (seed 000): a late arrival at a simple impatient barrier passes.
    passNow = a.threads;
    b.passed += static_cast<uint32_t>(a.threads.size());
    stats["barrier_late_pass"] += a.threads.size();
    finishIfDone(c, b);
    return Arrive::Accepted;
  }
  if (late && b.sectionActive) {
    // Late arrivals join the running portion: the thread select rescans.
    for (int t : a.threads) b.pending.insert(t);
    stats["barrier_late_join"] += a.threads.size();
    return Arrive::Accepted;
  }
  if (latest || !b.originSet) b.firstArrival = cycle;
  b.originSet = true;
  b.waiting.insert(b.waiting.end(), a.threads.begin(), a.threads.end());
  return Arrive::Accepted;
}

bool BarrierUnit::ready(const Cta& c, const Instance& b, uint64_t cycle) const {
  if (!b.busy || b.waiting.empty() || b.sectionActive) return false;
  const uint32_t n = static_cast<uint32_t>(b.waiting.size());
  if (b.passed + n >= expected(c, b)) return true;
  if (!b.impatient) return false;
  if (b.min > 0 && n >= b.min) return true;
  if (externalTimeouts_) return b.timeoutForced;
  return b.timeout > 0 && cycle >= b.firstArrival + b.timeout;
}

std::string BarrierUnit::forceTimeout(int cta, int id, uint64_t cycle) {
  const auto it = ctas_.find(cta);
  if (it == ctas_.end()) return "no resident CTA " + std::to_string(cta);
  Instance& b = it->second.bar[id];
  const std::string at = "barrier " + std::to_string(id) + " of cta " + std::to_string(cta);
  if (!b.busy || b.waiting.empty() || b.sectionActive) return at + " has no waiting arrivals to time out";
  if (!b.impatient || b.timeout == 0) return at + " has no TIMEOUT";
  if (cycle < b.firstArrival + b.timeout) {
    return at + " timed out at cycle " + std::to_string(cycle) + ", before its TIMEOUT " +
           std::to_string(b.timeout) + " from the first arrival (cycle " + std::to_string(b.firstArrival) +
           ") had elapsed";
  }
  b.timeoutForced = true;
  return {};
}

void BarrierUnit::wake(int cta, std::vector<int> threads, uint32_t resume) {
  if (threads.empty()) return;
  std::sort(threads.begin(), threads.end());
  wakes_.push_back(BarrierWake{cta, std::move(threads), resume});
}

void BarrierUnit::startPortion(int cta, Cta& c, int id, Instance& b) {
  const uint32_t n = static_cast<uint32_t>(b.waiting.size());
  if (b.impatient && b.passed + n < expected(c, b)) {
    ++stats["barrier_portions_impatient"];
  }
  b.timeoutForced = false;
  b.originSet = false;  // the origin belongs to the waiting group
  ++b.portions;
  if (b.kind == BarrierKind::Sync) {
    ++stats["barrier_releases"];
    b.passed += n;
    wake(cta, std::move(b.waiting), b.tag + 1);
    b.waiting.clear();
    finishIfDone(c, b);
    return;
  }
  // The portion's members are fixed now; it queues for an execution slot.
  b.sectionActive = true;
  b.pending = std::set<int>(b.waiting.begin(), b.waiting.end());
  b.waiting.clear();
  b.current = -1;
  b.lastServed = -1;
  // One item per entry: one still queued from before a reset serves this portion.
  if (!queued_[cta][id]) {
    queued_[cta][id] = true;
    fifo_.push_back(SlotEntry{cta, id, prio_[id], b.exclusive});
  }
  dispatch();
}

// The ready FIFO's head enters the lowest free slot unless an exclusive section holds one,
// and an exclusive head only enters an empty slot set (seed 0105), as simt_barrier_slots.
bool BarrierUnit::moveFifoHead() {
  if (fifo_.empty()) return false;
  bool any = false, excl = false;
  int freeSlot = -1;
  for (int s = 0; s < kSlots; ++s) {
    const auto& e = slots_[static_cast<size_t>(s)];
    if (e) {
      any = true;
      excl |= e->exclusive;
    } else if (freeSlot < 0) {
      freeSlot = s;
    }
  }
  if (freeSlot < 0 || excl || (fifo_.front().exclusive && any)) return false;
  slots_[static_cast<size_t>(freeSlot)] = fifo_.front();
  fifo_.pop_front();
  ++stats["barrier_slot_entries"];
  return true;
}

// Every FIFO head that may enter a slot does (the RTL's grant waits for that), then the
// arbiter grants a waiting slot (highest priority, round robin among equals), and again
// until no slot waits: each granted section is in service. A slot whose entry has no portion
// waiting (a reset dropped it while it queued) is released unserved. With external grants the
// co-simulation grants through forceGrant.
void BarrierUnit::dispatch() {
  for (;;) {
    while (moveFifoHead()) {
    }
    if (externalGrants_) return;
    uint64_t waiting = 0;
    uint32_t best = 0;
    for (int s = 0; s < kSlots; ++s) {
      const auto& e = slots_[static_cast<size_t>(s)];
      if (!e || e->inService) continue;
      waiting |= 1ull << s;
      best = std::max(best, e->prio);
    }
    uint64_t top = 0;
    for (int s = 0; s < kSlots; ++s) {
      if (((waiting >> s) & 1u) && slots_[static_cast<size_t>(s)]->prio == best) top |= 1ull << s;
    }
    const auto g = arbiter_.grant(top);
    if (!g) return;
    arbiter_.commit(top, true);
    grantSlot(*g);
  }
}

// The granted slot's section goes into service (true), or, stale, the slot is released.
bool BarrierUnit::grantSlot(int slot) {
  const SlotEntry e = *slots_[static_cast<size_t>(slot)];
  Cta& c = ctas_.at(e.cta);
  Instance& b = c.bar[e.id];
  queued_[e.cta][e.id] = false;
  if (!b.busy || !b.sectionActive || b.inService()) {
    slots_[static_cast<size_t>(slot)].reset();  // stale: its barrier was reset meanwhile
    ++stats["barrier_slot_stale"];
    return false;
  }
  slots_[static_cast<size_t>(slot)]->inService = true;
  b.slot = slot;
  if (b.exclusive) ++stats["barrier_exclusive_sections"];
  serveNext(e.cta, b, e.id);
  return true;
}

std::string BarrierUnit::forceGrant(int cta, int id) {
  const std::string at = "section grant of barrier " + std::to_string(id) + " of cta " + std::to_string(cta);
  int slot = -1;
  uint32_t best = 0;
  for (int s = 0; s < kSlots; ++s) {
    const auto& e = slots_[static_cast<size_t>(s)];
    if (!e) continue;
    if (e->cta == cta && e->id == id) slot = s;
    if (!e->inService) best = std::max(best, e->prio);
  }
  if (slot < 0) return at + ", which holds no execution slot";
  if (slots_[static_cast<size_t>(slot)]->inService) return at + ", which is already in service";
  const uint32_t prio = slots_[static_cast<size_t>(slot)]->prio;
  if (prio < best) {
    return at + " at priority " + std::to_string(prio) + " while a slot of priority " + std::to_string(best) +
           " waits";
  }
  if (!grantSlot(slot)) dispatch();  // stale: the freed slot may take a FIFO head
  return {};
}

void BarrierUnit::serveNext(int cta, Instance& b, int id) {
  if (b.pending.empty()) {
    // Portion done: the blocking bottoms continue together.
    b.sectionActive = false;
    releaseSlot(b);
    std::map<uint32_t, std::vector<int>> byResume;
    for (const auto& [t, resume] : b.bottomSleepers) byResume[resume].push_back(t);
    for (auto& [resume, threads] : byResume) wake(cta, std::move(threads), resume);
    b.bottomSleepers.clear();
    Cta& c = ctas_.at(cta);
    finishIfDone(c, b);
    // As the RTL, the entry's next portion (threads that arrived meanwhile) is checked before
    // the slot arbiter grants the next section.
    if (ready(c, b, cycle_)) startPortion(cta, c, id, b);
    dispatch();
    return;
  }
  // Find-next-set from the last served thread, wrapping for late joiners below it.
  auto it = b.pending.upper_bound(b.lastServed);
  if (it == b.pending.end()) {
    it = b.pending.begin();
    if (b.lastServed >= 0) ++stats["barrier_out_of_order"];
  }
  const int next = *it;
  b.pending.erase(next);
  b.current = next;
  b.lastServed = next;
  ++stats["barrier_section_entries"];
  wake(cta, {next}, b.tag + 1);
}

void BarrierUnit::finishIfDone(Cta& c, Instance& b) {
  if (b.busy && !b.sectionActive && b.waiting.empty() && b.passed >= expected(c, b)) {
    ++stats["barrier_instances_done"];
    b = Instance{};
  }
}

void BarrierUnit::bottom(int cta, int id, uint32_t pc, bool nonBlocking,
                         const std::vector<int>& threads, std::vector<int>& sleepNow) {
  Instance& b = ctas_.at(cta).bar[id];
  for (int t : threads) {
    if (!b.busy || !b.inService() || t != b.current) continue;  // not in the section
    ++b.passed;
    b.current = -1;
    if (!nonBlocking) {
      b.bottomSleepers.emplace_back(t, pc + 1);
      sleepNow.push_back(t);
    }
    serveNext(cta, b, id);
  }
}

void BarrierUnit::reset(int cta, int id) {
  Instance& b = ctas_.at(cta).bar[id];
  if (!b.busy) return;
  ++stats["barrier_resets"];
  std::vector<int> top(b.waiting);
  top.insert(top.end(), b.pending.begin(), b.pending.end());
  wake(cta, std::move(top), b.tag + 1);
  for (const auto& [t, resume] : b.bottomSleepers) wake(cta, {t}, resume);
  const bool served = b.inService();
  releaseSlot(b);
  b = Instance{};
  if (served) dispatch();
}

void BarrierUnit::releaseSlot(Instance& b) {
  if (!b.inService()) return;
  slots_[static_cast<size_t>(b.slot)].reset();
  b.slot = -1;
}

void BarrierUnit::exited(int cta, int n) { ctas_.at(cta).exited += n; }

void BarrierUnit::evaluate(uint64_t cycle) {
  cycle_ = cycle;
  bool changed = true;
  while (changed) {  // a finished section may let an exclusive one start, and vice versa
    changed = false;
    for (auto& [id, c] : ctas_) {
      for (int i = 0; i < kIds; ++i) {
        Instance& b = c.bar[i];
        if (!b.busy) continue;
        if (ready(c, b, cycle)) {
          const uint32_t n = static_cast<uint32_t>(b.waiting.size());
          const bool byTimeout = b.impatient && b.passed + n < expected(c, b) &&
                                 !(b.min > 0 && n >= b.min);
          if (byTimeout) ++stats["barrier_timeouts"];
          startPortion(id, c, i, b);
          changed = true;
        } else {
          finishIfDone(c, b);
        }
      }
    }
  }
}

std::vector<BarrierWake> BarrierUnit::takeWakes() {
  std::vector<BarrierWake> out;
  out.swap(wakes_);
  return out;
}

bool BarrierUnit::busyWithOtherTag(int cta, int id, uint32_t tag) const {
  const Instance& b = ctas_.at(cta).bar[id];
  return b.busy && b.tag != tag;
}

std::optional<uint64_t> BarrierUnit::nextTimeout() const {
  std::optional<uint64_t> t;
  for (const auto& [id, c] : ctas_) {
    for (const Instance& b : c.bar) {
      if (b.busy && b.impatient && b.timeout > 0 && !b.waiting.empty() && !b.sectionActive) {
        const uint64_t at = b.firstArrival + b.timeout;
        if (!t || at < *t) t = at;
      }
    }
  }
  return t;
}

bool BarrierUnit::anyAsleep(int cta) const {
  for (const Instance& b : ctas_.at(cta).bar) {
    if (b.busy && (!b.waiting.empty() || !b.pending.empty() || !b.bottomSleepers.empty())) {
      return true;
    }
  }
  return false;
}

namespace {
std::string listThreads(const std::vector<int>& v) {
  std::ostringstream os;
  for (size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
  return os.str();
}
}  // namespace

// Where a section that is not in service waits: in a slot for a grant, or in the ready FIFO
// (behind an exclusive head that waits for every slot to be free, seed 0105).
std::string BarrierUnit::whereQueued(int cta, int id) const {
  std::ostringstream os;
  for (int s = 0; s < kSlots; ++s) {
    const auto& e = slots_[static_cast<size_t>(s)];
    if (e && e->cta == cta && e->id == id) {
      os << "holds slot " << s << ", waiting for a grant";
      return os.str();
    }
  }
  for (size_t p = 0; p < fifo_.size(); ++p) {
    if (fifo_[p].cta != cta || fifo_[p].id != id) continue;
    os << "waiting in the ready FIFO at position " << p;
    const SlotEntry& head = fifo_.front();
    int occupied = 0;
    for (const auto& e : slots_) occupied += e ? 1 : 0;
    if (head.exclusive && occupied > 0) {
      if (p > 0) os << " behind exclusive barrier " << head.id << " of cta " << head.cta << ",";
      else os << ", exclusive:";
      os << " waiting for all " << occupied << " occupied slots to be free";
    }
    return os.str();
  }
  return "not queued for a slot";
}

std::string BarrierUnit::describe(int cta) const {
  std::ostringstream os;
  const Cta& c = ctas_.at(cta);
  for (int i = 0; i < kIds; ++i) {
    const Instance& b = c.bar[i];
    if (!b.busy) continue;
    os << "\n    barrier " << i << " (" << barrierKindName(b.kind) << ", pc " << b.tag
       << "): " << b.passed << " of " << expected(c, b) << " passed";
    if (!b.waiting.empty()) os << ", threads asleep waiting: " << listThreads(b.waiting);
    if (b.sectionActive) {
      if (b.inService()) {
        os << ", in service (slot " << b.slot << "): ";
        if (b.current >= 0) os << "thread " << b.current << " inside";
        else os << "no thread inside";
      } else {
        os << ", " << whereQueued(cta, i);
      }
      os << ", queued: " << listThreads(std::vector<int>(b.pending.begin(), b.pending.end()));
    }
    if (!b.bottomSleepers.empty()) {
      std::vector<int> v;
      for (const auto& p : b.bottomSleepers) v.push_back(p.first);
      os << ", asleep at bottom: " << listThreads(v);
    }
  }
  return os.str();
}

}  // namespace simt::model
