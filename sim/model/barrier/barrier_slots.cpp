#include "model/barrier/barrier_slots.h"

#include <stdexcept>

namespace simt::model {

BarrierSlots::BarrierSlots(const Config& cfg)
    : cfg_(cfg), fifo_(static_cast<size_t>(cfg.fifoDepth)),
      slots_(static_cast<size_t>(cfg.numSlots)), arb_(cfg.numSlots) {}

std::optional<int> BarrierSlots::freeSlot() const {
  for (int s = 0; s < cfg_.numSlots; ++s) {
    if (!slots_[static_cast<size_t>(s)].occupied) return s;
  }
  return std::nullopt;
}

bool BarrierSlots::exclOccupied() const {
  for (const Slot& s : slots_) {
    if (s.occupied && s.excl) return true;
  }
  return false;
}

bool BarrierSlots::headTake() const {
  const auto head = fifo_.head();
  if (!head || !freeSlot() || exclOccupied()) return false;
  bool any = false;
  for (const Slot& s : slots_) any |= s.occupied;
  return !(head->excl && any);
}

bool BarrierSlots::headBlockedByExclusive() const {
  const auto head = fifo_.head();
  return head && freeSlot() && !headTake();
}

uint64_t BarrierSlots::topRequests() const {
  uint64_t waiting = 0;
  uint32_t best = 0;
  for (int s = 0; s < cfg_.numSlots; ++s) {
    const Slot& sl = slots_[static_cast<size_t>(s)];
    if (!sl.occupied || sl.active) continue;
    waiting |= 1ull << s;
    if (sl.prio > best) best = sl.prio;
  }
  uint64_t top = 0;
  for (int s = 0; s < cfg_.numSlots; ++s) {
    if (((waiting >> s) & 1u) && slots_[static_cast<size_t>(s)].prio == best) top |= 1ull << s;
  }
  return top;
}

BarrierSlots::Out BarrierSlots::out() const {
  Out o;
  o.readyReady = fifo_.writeReady();
  const auto g = arb_.grant(topRequests());
  o.grantValid = g.has_value();
  o.grantSlot = g.value_or(0);
  o.grantBar = slots_[static_cast<size_t>(o.grantSlot)].bar;
  for (int s = 0; s < cfg_.numSlots; ++s) {
    if (slots_[static_cast<size_t>(s)].occupied) o.occupied |= 1ull << s;
  }
  o.fifoCount = static_cast<int>(fifo_.count());
  o.exclRunning = exclOccupied();
  o.headTake = headTake();
  return o;
}

void BarrierSlots::commit(const In& in) {
  if (in.releaseValid && in.selReady) {
    throw std::logic_error("BarrierSlots: a grant taken in a cycle that releases a slot");
  }
  const uint64_t top = topRequests();
  const auto g = arb_.grant(top);
  const bool take = headTake();
  const auto freeIdx = freeSlot();
  const auto head = fifo_.head();
  if (g && in.selReady) slots_[static_cast<size_t>(*g)].active = true;
  if (in.releaseValid) {
    Slot& s = slots_[static_cast<size_t>(in.releaseSlot)];
    s.occupied = false;
    s.active = false;
  }
  if (take) {
    Slot& s = slots_[static_cast<size_t>(*freeIdx)];
    s.occupied = true;
    s.active = false;
    s.excl = head->excl;
    s.bar = head->bar;
    s.prio = head->prio;
  }
  arb_.commit(top, in.selReady);
  fifo_.commit(false, in.readyValid, in.ready, take);
}

}  // namespace simt::model
