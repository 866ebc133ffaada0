#include "compiler/divergence.h"

#include <algorithm>
#include <deque>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include "compiler/builtins.h"
#include "compiler/compiler.h"

namespace simt::compiler {

using namespace llvm;

std::string sourcePos(const Instruction* inst) {
  if (inst) {
    if (const DILocation* loc = inst->getDebugLoc().get()) {
      return loc->getFilename().str() + ":" + std::to_string(loc->getLine()) + ":" + std::to_string(loc->getColumn());
    }
    if (const Function* f = inst->getFunction()) {
      if (const DISubprogram* sp = f->getSubprogram()) {
        return sp->getFilename().str() + ":" + std::to_string(sp->getLine()) + ":1";
      }
    }
  }
  return "<unknown>:0:0";
}

int sourceLine(const Instruction* inst) {
  if (inst) {
    if (const DILocation* loc = inst->getDebugLoc().get()) return static_cast<int>(loc->getLine());
  }
  return 0;
}

bool isVaryingBuiltin(const std::string& n) {
  return n == "get_local_id" || n == "get_global_id" || n.rfind("atomic_", 0) == 0 ||
         n.rfind("atom_", 0) == 0;
}

namespace {

// Blocks reachable from `from` without entering `stop` (stop itself is reported if reached).
std::set<const BasicBlock*> reachWithout(const BasicBlock* from, const BasicBlock* stop, bool& reachedStop) {
  std::set<const BasicBlock*> seen;
  std::vector<const BasicBlock*> work;
  reachedStop = false;
  if (from == stop) {
    reachedStop = true;
    return seen;
  }
  work.push_back(from);
  seen.insert(from);
  while (!work.empty()) {
    const BasicBlock* b = work.back();
    work.pop_back();
    for (const BasicBlock* s : successors(b)) {
      if (s == stop) {
        reachedStop = true;
        continue;
      }
      if (seen.insert(s).second) work.push_back(s);
    }
  }
  return seen;
}

}  // namespace

UniformityInfo::UniformityInfo(Function& f, const PostDominatorTree& pdt, const LoopInfo& li, bool argumentsVary) {
  if (argumentsVary) {
    for (const Argument& a : f.args()) divergent_.insert(&a);
  }
  // Seeds and data dependence, then joins and loop exits, to a fixed point.
  auto isSeed = [](const Instruction& I) {
    if (const auto* ld = dyn_cast<LoadInst>(&I)) return ld->getPointerAddressSpace() != 2;
    if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) || isa<AllocaInst>(I)) return true;
    if (const auto* call = dyn_cast<CallInst>(&I)) {
      const Function* callee = call->getCalledFunction();
      if (!callee) return true;
      if (callee->isIntrinsic()) return false;
      const std::string n = demangle(callee->getName().str()).name;
      if (isVaryingBuiltin(n)) return true;
      if (!callee->isDeclaration()) return true;  // a call not inlined: its result is unknown
      return false;
    }
    return false;
  };
  bool changed = true;
  std::set<const BasicBlock*> doneBranches;
  while (changed) {
    changed = false;
    for (BasicBlock& bb : f) {
      for (Instruction& I : bb) {
        if (divergent_.count(&I)) continue;
        bool div = isSeed(I);
        for (const Use& u : I.operands()) {
          if (div) break;
          if (divergent_.count(u.get())) div = true;
          // Temporal divergence: a value from inside a loop with a divergent exit.
          if (const auto* def = dyn_cast<Instruction>(u.get())) {
            const Loop* l = li.getLoopFor(def->getParent());
            while (l && !div && !l->contains(I.getParent())) {
              SmallVector<BasicBlock*, 4> exiting;
              l->getExitingBlocks(exiting);
              for (BasicBlock* e : exiting) {
                if (isDivergentBranch(e)) div = true;
              }
              l = l->getParentLoop();
            }
          }
        }
        if (div) {
          divergent_.insert(&I);
          changed = true;
        }
      }
    }
    // Joins of divergent branches: phis in blocks reachable from both sides before the
    // immediate post-dominator (the post-dominator included).
    for (BasicBlock& bb : f) {
      if (doneBranches.count(&bb) || !isDivergentBranch(&bb)) continue;
      doneBranches.insert(&bb);
      const BasicBlock* post = nullptr;
      if (const auto* node = pdt.getNode(&bb)) {
        if (node->getIDom()) post = node->getIDom()->getBlock();
      }
      std::vector<std::set<const BasicBlock*>> sides;
      for (const BasicBlock* s : successors(&bb)) {
        bool reached = false;
        auto r = reachWithout(s, post, reached);
        if (reached && post) r.insert(post);
        sides.push_back(std::move(r));
      }
      for (size_t a = 0; a < sides.size(); ++a) {
        for (size_t b = a + 1; b < sides.size(); ++b) {
          for (const BasicBlock* j : sides[a]) {
            if (!sides[b].count(j)) continue;
            for (const PHINode& phi : j->phis()) {
              if (divergent_.insert(&phi).second) changed = true;
            }
          }
        }
      }
    }
  }
}

bool UniformityInfo::isDivergentBranch(const BasicBlock* bb) const {
  const auto* br = dyn_cast<BranchInst>(bb->getTerminator());
  if (br && br->isConditional()) return divergent_.count(br->getCondition()) != 0;
  if (const auto* sw = dyn_cast<SwitchInst>(bb->getTerminator())) return divergent_.count(sw->getCondition()) != 0;
  return false;
}

ReconvergencePlan planReconvergence(Function& f, const UniformityInfo& ui, const PostDominatorTree& pdt,
                                    const LoopInfo& li) {
  ReconvergencePlan plan;
  // 1. One token per divergent branch: at the branch, or hoisted to the preheader of the
  //    outermost loop it leaves, reconverging at its immediate post-dominator.
  std::map<std::pair<BasicBlock*, BasicBlock*>, ReconvergenceToken> byKey;
  for (BasicBlock& bb : f) {
    if (!ui.isDivergentBranch(&bb)) continue;
    const auto* node = pdt.getNode(&bb);
    BasicBlock* post = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
    if (!post) {  // the paths never meet again: nothing to reconverge
      ++plan.droppedTokens;
      continue;
    }
    if (post->phis().empty() && isa<ReturnInst>(post->getFirstNonPHIOrDbgOrLifetime())) {
      continue;  // they meet only to exit: each path exits on its own
    }
    BasicBlock* at = &bb;
    BasicBlock* start = &bb;
    Loop* hoist = nullptr;
    for (Loop* l = li.getLoopFor(&bb); l; l = l->getParentLoop()) {
      if (!l->contains(post)) hoist = l;
    }
    if (hoist) {
      at = hoist->getLoopPreheader();
      start = hoist->getHeader();
      if (!at) {
        throw CompileError(sourcePos(bb.getTerminator()) + ": error: a loop without a preheader is not supported");
      }
    }
    auto key = std::make_pair(at, post);
    if (byKey.count(key)) continue;
    ReconvergenceToken t;
    t.at = at;
    t.post = post;
    bool reached = false;
    for (const BasicBlock* b : reachWithout(start, post, reached)) t.region.insert(const_cast<BasicBlock*>(b));
    // `sync` acts on any SYNC token that covers a work-item, so every work-item reaching a
    // sync edge of this token must have passed its ssy: the region must be single-entry.
    bool singleEntry = true;
    for (BasicBlock* b : t.region) {
      for (BasicBlock* pred : predecessors(b)) {
        if (!t.region.count(pred) && !(b == start && pred == at) && b != &bb) singleEntry = false;
      }
    }
    if (!singleEntry) {
      ++plan.droppedTokens;
      continue;
    }
    byKey[key] = std::move(t);
  }
  std::vector<ReconvergenceToken> all;
  for (auto& [k, t] : byKey) all.push_back(std::move(t));
  std::stable_sort(all.begin(), all.end(),
                   [](const auto& a, const auto& b) { return a.region.size() > b.region.size(); });
  auto subset = [](const std::set<BasicBlock*>& a, const std::set<BasicBlock*>& b) {
    return std::includes(b.begin(), b.end(), a.begin(), a.end());
  };
  // 2. A token inside another with the same post-dominator is that one's: drop it. The kept
  //    ones nest (disjoint or contained, an inner one reconverging inside the outer region),
  //    so tokens are consumed like a stack: a work-item covered by a token reaches that
  //    token's `sync` before any other token's.
  std::vector<ReconvergenceToken> kept;
  for (auto& cand : all) {
    bool drop = false;
    for (const auto& k : kept) {
      if (k.post == cand.post && subset(cand.region, k.region)) drop = true;
    }
    if (drop) continue;
    for (const auto& k : kept) {
      const auto& outer = k.region;
      const auto& inner = cand.region;
      bool overlap = false;
      for (BasicBlock* b : inner) {
        if (outer.count(b)) overlap = true;
      }
      if (!overlap) continue;
      if (!subset(inner, outer) || !outer.count(cand.post) || k.post == cand.post) drop = true;
    }
    // A region that does not nest in the kept ones gets no token of its own: its paths run
    // apart until an enclosing token reconverges them (correct, less converged).
    if (drop) {
      ++plan.droppedTokens;
      continue;
    }
    kept.push_back(std::move(cand));
  }
  for (auto& t : kept) {
    for (BasicBlock* x : t.region) {
      for (BasicBlock* s : successors(x)) {
        if (s == t.post) plan.syncEdges.insert({x, s});
      }
    }
    plan.ssyAt[t.at].push_back(t.post);  // kept is outer first
    plan.tokens.push_back(std::move(t));
  }
  // 3. Loops that may spin on memory other work-items release yield on their back edges.
  for (Loop* top : li) {
    std::vector<Loop*> work = {top};
    while (!work.empty()) {
      Loop* l = work.back();
      work.pop_back();
      for (Loop* sub : *l) work.push_back(sub);
      bool spins = false;
      for (BasicBlock* b : l->blocks()) {
        for (Instruction& I : *b) {
          if (const auto* ld = dyn_cast<LoadInst>(&I)) spins |= ld->isVolatile();
          if (const auto* st = dyn_cast<StoreInst>(&I)) spins |= st->isVolatile();
          if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) spins = true;
          if (const auto* call = dyn_cast<CallInst>(&I)) {
            if (const Function* callee = call->getCalledFunction()) {
              const std::string n = demangle(callee->getName().str()).name;
              if (n.rfind("atomic_", 0) == 0 || n.rfind("atom_", 0) == 0) spins = true;
            }
          }
        }
      }
      if (!spins) continue;
      SmallVector<BasicBlock*, 4> latches;
      l->getLoopLatches(latches);
      for (BasicBlock* latch : latches) plan.yieldEdges.insert({latch, l->getHeader()});
    }
  }
  return plan;
}

}  // namespace simt::compiler
