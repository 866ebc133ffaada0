// Register allocation: liveness over the machine CFG (per work-item paths: registers are
// per thread, so divergence needs no special case), one live interval per virtual register
// (the hull of its live points), linear scan over r0..r30 (r31 is the link register), and
// spilling of whole intervals to the work-item's private frame in global memory.
#pragma once

#include <cstdint>

#include "compiler/mir.h"

namespace simt::compiler {

struct AllocationResult {
  int spilled = 0;         // virtual registers living in the frame
  int spillLoads = 0, spillStores = 0;
  uint32_t frameBytes = 0; // the frame after allocation (private arrays + spill slots)
  bool usesFrame = false;  // r30 is the frame pointer (prologue emitted)
};

// Rewrites mf to physical registers. frameBytes/usesFrame: the lowering's private arrays.
// privateBaseParamByte: ld.param offset of the frame area's base address.
// maxRegs (tests): restrict the allocatable registers to force spilling.
AllocationResult allocateRegisters(MFunction& mf, uint32_t frameBytes, bool usesFrame, int privateBaseParamByte,
                                   int maxRegs = 31);

// A subroutine keeps its caller's registers: every register it writes (and r31 when it calls
// others) is stored at its entry into save slots at the end of its frame and loaded back
// before each `ret`. Returns the frame size with the save area.
uint32_t insertCalleeSaves(MFunction& mf, uint32_t frameBytes, bool saveLink);

}  // namespace simt::compiler
