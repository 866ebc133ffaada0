// Division and remainder of an induction variable by a constant, as induction variables of
// their own (docs/compiler.md, "Division of an induction variable"): an IR pass with one job.
//
// The core has neither a divide nor a high multiply, so `i % 3` costs a magic-number
// multiplication built from 16-bit halves (about 20 instructions) where a loop could keep the
// remainder beside i: r starts at start % d in the preheader and steps by step % d each
// iteration, less d when it reaches d (add, compare, guarded subtract); the quotient steps by
// step / d, plus one when r wrapped. The rewrite needs i to be an affine recurrence of a loop
// containing the division ({start,+,step}, step a positive constant) that never wraps:
// no unsigned wrap for udiv/urem; for sdiv/srem (divisor > 1) no signed wrap and a start known
// non-negative, so every value is non-negative and the signed results are the unsigned ones.
// Divisors that are powers of two stay (a shift or an and). The loop must have a preheader and
// one latch (LoopSimplify's form).
#pragma once

#include <llvm/IR/PassManager.h>

namespace simt::compiler {

struct DivRemOfInductionVariablePass : llvm::PassInfoMixin<DivRemOfInductionVariablePass> {
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager& fam);
};

}  // namespace simt::compiler
