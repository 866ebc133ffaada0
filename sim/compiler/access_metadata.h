// Seed 004's access metadata at compile time (docs/compiler.md, "Alias metadata"): for every
// memory reference through a __global or __constant pointer argument, whether it reads or
// writes and the byte offsets it can touch, as an expression of the launch (scalar
// arguments, work-item ids and sizes, loop trip counts) that LLVM's scalar evolution gives;
// "unknown" where it cannot (a data-dependent index: the runtime then counts the buffer's
// whole extent).
#pragma once

#include <vector>

#include "compiler/compiler.h"

namespace llvm {
class Function;
}  // namespace llvm

namespace simt::compiler {

struct ReferenceAnalysis {
  std::vector<MemoryReference> references;
  bool complete = true;  // every reference traced to a pointer argument
};

// Analyses the (prepared: inlined, optimised) kernel function.
ReferenceAnalysis analyseReferences(llvm::Function& kernel);

}  // namespace simt::compiler
