// Golden model of simt_sm_pass, the pass sequencer (docs/blocks/sm.md, "Passes"): a warp's
// 32 threads on `lanes` physical lanes. An instruction that computes on the lanes visits the
// groups of `lanes` threads (group g: threads g*lanes .. g*lanes + lanes-1) that have an
// executing thread, in ascending order, one per cycle (group 0 once when none has); anything
// else spends one cycle. The same transactions as the RTL, cycle by cycle: each EXEC cycle
// gives the group on the lanes, its threads and whether another pass follows.
//
// With `fpLanes` FP lanes (a divisor of `lanes`), an FP instruction visits groups of fpLanes
// threads instead; its pass is still the group of `lanes` the register file reads, and
// fpPass names the group of fpLanes (the FP unit's).
#pragma once

#include <cstdint>

namespace simt::model {

class SmPass {
 public:
  struct Cycle {
    int pass = 0;          // the group on the lanes
    int fpPass = 0;        // an FP instruction's group of fpLanes threads
    uint32_t threads = 0;  // its threads
    bool more = false;     // another pass follows: EXEC stays
  };

  explicit SmPass(int lanes) : SmPass(lanes, lanes) {}
  SmPass(int lanes, int fpLanes);

  int lanes() const { return lanes_; }
  int fpLanes() const { return fpLanes_; }
  int groups() const { return 32 / lanes_; }

  // One cycle with an instruction in EXEC (valid) or none; `multi`: it computes on the lanes;
  // `stop`: it faults in this pass (more still says what would follow; no pass does: the
  // instruction leaves EXEC); `mask`: its executing threads; `fp`: it runs on the FP lanes.
  Cycle step(bool valid, bool multi, bool stop, uint32_t mask, bool fp = false);

  // The passes an instruction with this mask takes (multi): what EXEC costs.
  int passes(uint32_t mask, bool fp = false) const;

 private:
  int size(bool fp) const { return fp ? fpLanes_ : lanes_; }  // threads a group
  uint32_t groupsWithWork(uint32_t mask, int size) const;
  static uint32_t groupThreads(int g, int size);

  int lanes_;
  int fpLanes_;
  int size_ = 0;       // the instruction in EXEC's group size (while busy)
  bool busy_ = false;  // passes of the instruction in EXEC remain
  uint32_t left_ = 0;  // ... these groups
};

}  // namespace simt::model
