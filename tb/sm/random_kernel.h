// Structured random kernels for the co-simulation (issue: integrated core): straight-line
// ALU and predicate code, if/else with ssy/sync, counted loops with pbrk/brk, calls, guarded
// instructions, global loads/stores to each thread's own slots, atomics on shared counters,
// shared memory, yields, CTA barriers and ordered critical sections at the top level. Every
// program is well formed (it terminates and never faults); what it computes may depend on the
// order warps run in (atomics), which the co-simulation takes from the RTL.
#pragma once

#include <string>

#include "common/harness.h"

namespace simt::tb {

std::string randomKernel(Rng& rng);
// The same programs with runs of FP32 instructions (fadd .. fsqrt, fsetp) after some ALU
// instructions, drawn from fp (the other choices from rng as above).
std::string randomKernel(Rng& rng, Rng& fp);

}  // namespace simt::tb
