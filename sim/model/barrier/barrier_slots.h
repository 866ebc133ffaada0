// Cycle model of simt_barrier_slots: the ready FIFO of dynamic barriers, the execution slots
// (lowest free first, exclusive barriers alone) and the priority arbiter with round robin
// among equals that hands a barrier to the thread select.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/common/fifo.h"
#include "model/common/rr_arbiter.h"

namespace simt::model {

class BarrierSlots {
 public:
  struct Config {
    int numSlots = 16;
    int fifoDepth = 8;
  };
  struct Ready {
    uint32_t bar = 0;
    bool excl = false;
    uint32_t prio = 0;
  };
  struct In {
    bool readyValid = false;
    Ready ready;
    bool releaseValid = false;
    int releaseSlot = 0;
    bool selReady = false;
  };
  struct Out {
    bool readyReady = false;
    bool grantValid = false;
    int grantSlot = 0;
    uint32_t grantBar = 0;
    uint64_t occupied = 0;
    int fifoCount = 0;
    bool exclRunning = false;
    bool headTake = false;  // the FIFO head enters a slot this cycle
  };

  explicit BarrierSlots(const Config& cfg);
  // Outputs of this cycle (the grant does not look at this cycle's release).
  Out out() const;
  // Clock edge. A grant is not taken in a cycle that releases a slot (std::logic_error):
  // the release frees the slot from the next cycle, and the grant may name it until then.
  void commit(const In& in);
  // Whether the FIFO head is held back only by the exclusive rule (for coverage).
  bool headBlockedByExclusive() const;

 private:
  struct Slot {
    bool occupied = false, active = false, excl = false;
    uint32_t bar = 0, prio = 0;
  };
  std::optional<int> freeSlot() const;
  bool exclOccupied() const;
  bool headTake() const;
  uint64_t topRequests() const;

  Config cfg_;
  Fifo<Ready> fifo_;
  std::vector<Slot> slots_;
  RrArbiter arb_;
};

}  // namespace simt::model
