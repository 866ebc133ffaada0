// Lockstep co-simulation (simt run --engine cosim): the verilated SM core runs the kernel and
// the ISA model follows it. The model takes the RTL's choices (which warp issues, when a
// barrier wake reaches the divergence unit, what %clock reads) and checks everything else on
// every retired instruction: PC, active and executing masks, register writes, global memory
// writes, the legality of each wake; at the end, the final memory and the outcome. The first
// difference stops the run with status mismatch (exit 4) and a report naming the cycle, warp,
// PC, disassembly, source line, and expected against actual. Ibex checks its core against
// Spike this way.
#pragma once

#include <string>

#include "asm/assembler.h"
#include "model/sm/sm_model.h"

namespace simt::cosim {

class Cosim {
 public:
  Cosim(const assembler::Kernel& kernel, const model::RunConfig& cfg, std::string wavePath = "");
  // The model checks `expected` while the core runs `actual`: how the tests show that a
  // difference is found and reported (an RTL that executed other code).
  Cosim(const assembler::Kernel& actual, const assembler::Kernel& expected, const model::RunConfig& cfg);
  model::RunResult run();

 private:
  const assembler::Kernel& rtlKernel_;
  const assembler::Kernel& kernel_;  // the model's
  model::RunConfig cfg_;
  std::string wavePath_;
};

}  // namespace simt::cosim
