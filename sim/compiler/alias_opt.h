// Seed 004's recompilation (step 206; docs/compiler.md, "Alias metadata"): the kernel is
// compiled again for the facts the runtime found at launch. Disjoint arguments become
// `noalias`, the alignment the launch gives is stated, loops over buffers are unrolled by
// four, loads are grouped ahead of the stores they do not conflict with (GroupLoadsPass, which
// also reads the known distance of partly overlapping arguments), and LLVM's
// LoadStoreVectorizer joins adjacent aligned accesses into vector ones (ld/st.global.v4).
#pragma once

#include <llvm/IR/PassManager.h>

#include "compiler/compiler.h"

namespace simt::compiler {

struct AliasOptStats {
  int unrollRequests = 0;   // loops given an unroll-by-4 request
  int movedLoads = 0;       // loads scheduled ahead of an instruction that preceded them
  int vectorAccesses = 0;   // vector loads and stores after vectorisation
};

// A list scheduler per block: instructions by latency height (global loads first), memory
// order kept only between accesses that may touch the same bytes: LLVM's alias analysis, or
// for two arguments with a known distance (facts.distances) the exact byte ranges.
class GroupLoadsPass : public llvm::PassInfoMixin<GroupLoadsPass> {
 public:
  GroupLoadsPass(const AliasFacts& facts, AliasOptStats& stats) : facts_(facts), stats_(stats) {}
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager& fam);

 private:
  const AliasFacts& facts_;
  AliasOptStats& stats_;
};

// Applies the facts to the kernel and runs the recompilation passes (the LoadStoreVectorizer
// last: the backend lowers aligned <4 x i32>/<4 x float> global accesses to ld/st.global.v4).
AliasOptStats optimiseForAliasFacts(llvm::Function& kernel, const AliasFacts& facts);

}  // namespace simt::compiler
