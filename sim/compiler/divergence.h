// Two analyses over one kernel's LLVM IR, each with one job:
//  - UniformityInfo: which values and branches may differ between the active work-items
//    of a warp (seeded by work-item ids, loads and atomics; data dependence, joins of
//    divergent branches, values leaving loops with divergent exits). Conservative: a value
//    it calls uniform is uniform. LLVM 16's own UniformityAnalysis needs a target that
//    reports branch divergence, which SPIR lacks, hence this one.
//  - ReconvergencePlan: where the ssy/sync tokens go so that every divergent branch
//    reconverges at its immediate post-dominator, loops with divergent exits reconverge
//    after the loop, and loops that may spin on memory yield on their back edges.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class Value;
class DominatorTree;
class PostDominatorTree;
class LoopInfo;
}  // namespace llvm

namespace simt::compiler {

class UniformityInfo {
 public:
  // argumentsVary: a function called from divergent code (its arguments may differ); a
  // kernel's arguments are the same for every work-item.
  UniformityInfo(llvm::Function& f, const llvm::PostDominatorTree& pdt, const llvm::LoopInfo& li,
                 bool argumentsVary = false);
  bool isDivergent(const llvm::Value* v) const { return divergent_.count(v) != 0; }
  bool isDivergentBranch(const llvm::BasicBlock* bb) const;

 private:
  std::set<const llvm::Value*> divergent_;
};

// Whether a call is to a built-in whose result differs per work-item.
bool isVaryingBuiltin(const std::string& demangledName);

struct ReconvergenceToken {
  llvm::BasicBlock* at = nullptr;      // `ssy P` goes before this block's terminator
  llvm::BasicBlock* post = nullptr;    // P: the reconvergence point
  std::set<llvm::BasicBlock*> region;  // blocks whose edges into P carry `sync P`
};

struct ReconvergencePlan {
  std::vector<ReconvergenceToken> tokens;                     // outer before inner per block
  std::set<std::pair<const llvm::BasicBlock*, const llvm::BasicBlock*>> syncEdges;
  std::set<std::pair<const llvm::BasicBlock*, const llvm::BasicBlock*>> yieldEdges;
  std::map<const llvm::BasicBlock*, std::vector<const llvm::BasicBlock*>> ssyAt;  // block -> P list
  int droppedTokens = 0;  // divergent branches left to an enclosing token (regions not nesting)
};

ReconvergencePlan planReconvergence(llvm::Function& f, const UniformityInfo& ui,
                                    const llvm::PostDominatorTree& pdt, const llvm::LoopInfo& li);

// The source position of an instruction as "FILE:LINE:COL" (or the function's name).
std::string sourcePos(const llvm::Instruction* inst);
int sourceLine(const llvm::Instruction* inst);

}  // namespace simt::compiler
