#include "compiler/alias_opt.h"

#include "compiler/analysis_managers.h"

#include <algorithm>
#include <map>
#include <set>

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LowerSwitch.h>
#include <llvm/Transforms/Vectorize/LoadStoreVectorizer.h>

namespace simt::compiler {

using namespace llvm;

namespace {

constexpr unsigned kUnroll = 4;

const Argument* bufferArgument(const Value* ptr) {
  const auto* a = dyn_cast<Argument>(getUnderlyingObject(ptr));
  return a && a->getType()->isPointerTy() ? a : nullptr;
}

bool touchesBuffer(const Loop& l) {
  for (const BasicBlock* bb : l.blocks()) {
    for (const Instruction& I : *bb) {
      const Value* p = getLoadStorePointerOperand(&I);
      if (p && p->getType()->getPointerAddressSpace() == 1 && bufferArgument(p)) return true;
    }
  }
  return false;
}

// llvm.loop.unroll.count 4 on the loop (its other loop metadata kept).
void requestUnroll(Loop& l) {
  LLVMContext& ctx = l.getHeader()->getContext();
  SmallVector<Metadata*, 4> ops{nullptr};
  if (MDNode* id = l.getLoopID()) {
    for (unsigned i = 1; i < id->getNumOperands(); ++i) {
      const auto* n = dyn_cast<MDNode>(id->getOperand(i));
      const auto* s = n && n->getNumOperands() ? dyn_cast<MDString>(n->getOperand(0)) : nullptr;
      if (s && s->getString().startswith("llvm.loop.unroll")) continue;
      ops.push_back(id->getOperand(i));
    }
  }
  ops.push_back(MDNode::get(ctx, {MDString::get(ctx, "llvm.loop.unroll.count"),
                                  ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(ctx), kUnroll))}));
  MDNode* id = MDNode::getDistinct(ctx, ops);
  id->replaceOperandWith(0, id);
  l.setLoopID(id);
}

// What the launch said, as IR the optimiser reads: noalias and alignment on the pointer
// arguments, llvm.assume of the scalar arguments' low zero bits.
void stateFacts(Function& f, const AliasFacts& facts) {
  for (int a : facts.noalias) f.addParamAttr(static_cast<unsigned>(a), Attribute::NoAlias);
  for (const auto& [a, bytes] : facts.alignment) {
    f.removeParamAttr(static_cast<unsigned>(a), Attribute::Alignment);
    const Align align(static_cast<uint64_t>(bytes));
    f.addParamAttr(static_cast<unsigned>(a), Attribute::getWithAlignment(f.getContext(), align));
  }
  IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
  for (const auto& [a, bits] : facts.lowZeroBits) {
    Argument* arg = f.getArg(static_cast<unsigned>(a));
    if (!arg->getType()->isIntegerTy(32)) continue;
    Value* low = b.CreateAnd(arg, b.getInt32((1u << bits) - 1));
    b.CreateAssumption(b.CreateICmpEQ(low, b.getInt32(0)));
  }
}

bool isSchedulingBarrier(const Instruction& I) {
  if (I.isTerminator() || isa<PHINode>(I) || isa<FenceInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
    return true;
  }
  if (const auto* ld = dyn_cast<LoadInst>(&I)) return !ld->isSimple();
  if (const auto* st = dyn_cast<StoreInst>(&I)) return !st->isSimple();
  if (const auto* call = dyn_cast<CallBase>(&I)) {
    if (const auto* ii = dyn_cast<IntrinsicInst>(call)) {
      switch (ii->getIntrinsicID()) {
        case Intrinsic::assume:
        case Intrinsic::lifetime_start:
        case Intrinsic::lifetime_end:
        case Intrinsic::experimental_noalias_scope_decl:
          return false;
        default: break;
      }
    }
    return !call->doesNotAccessMemory() || call->isConvergent() || call->mayHaveSideEffects();
  }
  return I.mayHaveSideEffects();
}

class BlockScheduler {
 public:
  BlockScheduler(AAResults& aa, ScalarEvolution& se, const AliasFacts& facts) : aa_(aa), se_(se), facts_(facts) {}

  // Reorders [first, last) of one block; returns the loads moved ahead of an earlier
  // instruction.
  int schedule(std::vector<Instruction*> region, Instruction* before) {
    const size_t n = region.size();
    if (n < 2) return 0;
    std::map<const Instruction*, size_t> index;
    for (size_t i = 0; i < n; ++i) index[region[i]] = i;
    std::vector<std::vector<size_t>> succs(n);
    std::vector<int> preds(n, 0);
    auto edge = [&](size_t from, size_t to) {
      succs[from].push_back(to);
      ++preds[to];
    };
    for (size_t j = 0; j < n; ++j) {
      for (const Use& u : region[j]->operands()) {
        if (auto* d = dyn_cast<Instruction>(u.get()); d && index.count(d)) edge(index[d], j);
      }
      if (!region[j]->mayReadOrWriteMemory()) continue;
      for (size_t i = 0; i < j; ++i) {
        if (!region[i]->mayReadOrWriteMemory()) continue;
        if (!region[i]->mayWriteToMemory() && !region[j]->mayWriteToMemory()) continue;
        if (mayConflict(*region[i], *region[j])) edge(i, j);
      }
    }
    // Heights: the longest latency path to the end of the region (a global load counts as
    // the memory latency the scoreboard must hide).
    std::vector<long> height(n, 0);
    for (size_t k = n; k-- > 0;) {
      long h = 0;
      for (size_t s : succs[k]) h = std::max(h, height[s]);
      height[k] = h + latency(*region[k]);
    }
    std::vector<size_t> order;
    std::set<std::pair<long, long>> ready;  // (-height, original index)
    for (size_t i = 0; i < n; ++i) {
      if (preds[i] == 0) ready.insert({-height[i], static_cast<long>(i)});
    }
    while (!ready.empty()) {
      const size_t i = static_cast<size_t>(ready.begin()->second);
      ready.erase(ready.begin());
      order.push_back(i);
      for (size_t s : succs[i]) {
        if (--preds[s] == 0) ready.insert({-height[s], static_cast<long>(s)});
      }
    }
    int moved = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      Instruction* I = region[order[k]];
      if (isa<LoadInst>(I) && order[k] > k) ++moved;
      I->moveBefore(before);
    }
    return moved;
  }

 private:
  static long latency(const Instruction& I) {
    if (const auto* ld = dyn_cast<LoadInst>(&I)) return ld->getPointerAddressSpace() == 3 ? 2 : 100;
    return 1;
  }

  bool mayConflict(Instruction& x, Instruction& y) {
    const auto lx = MemoryLocation::getOrNone(&x), ly = MemoryLocation::getOrNone(&y);
    if (!lx || !ly) return true;
    if (apartByDistance(*lx, *ly)) return false;
    return aa_.alias(*lx, *ly) != AliasResult::NoAlias;
  }

  // Two arguments known to lie `bytes` apart: the accesses' byte ranges from their offsets.
  bool apartByDistance(const MemoryLocation& x, const MemoryLocation& y) {
    const Argument* ax = bufferArgument(x.Ptr);
    const Argument* ay = bufferArgument(y.Ptr);
    if (!ax || !ay || ax == ay || !x.Size.hasValue() || !y.Size.hasValue()) return false;
    const int a = static_cast<int>(ax->getArgNo()), b = static_cast<int>(ay->getArgNo());
    for (const auto& d : facts_.distances) {
      if (std::minmax(a, b) != std::minmax(d.a, d.b)) continue;
      const SCEV* ox = se_.getMinusSCEV(se_.getSCEV(const_cast<Value*>(x.Ptr)), se_.getSCEV(const_cast<Argument*>(ax)));
      const SCEV* oy = se_.getMinusSCEV(se_.getSCEV(const_cast<Value*>(y.Ptr)), se_.getSCEV(const_cast<Argument*>(ay)));
      if (isa<SCEVCouldNotCompute>(ox) || isa<SCEVCouldNotCompute>(oy)) return false;
      const auto* c = dyn_cast<SCEVConstant>(se_.getMinusSCEV(oy, ox));
      if (!c) return false;
      // address(y) - address(x), in the 32-bit address space
      const int64_t pointers = a == d.a ? d.bytes : -d.bytes;
      const auto delta = static_cast<int32_t>(static_cast<uint32_t>(pointers + c->getAPInt().getSExtValue()));
      return delta >= static_cast<int64_t>(x.Size.getValue()) || -delta >= static_cast<int64_t>(y.Size.getValue());
    }
    return false;
  }

  AAResults& aa_;
  ScalarEvolution& se_;
  const AliasFacts& facts_;
};

}  // namespace

PreservedAnalyses GroupLoadsPass::run(Function& f, FunctionAnalysisManager& fam) {
  AAResults& aa = fam.getResult<AAManager>(f);
  ScalarEvolution& se = fam.getResult<ScalarEvolutionAnalysis>(f);
  BlockScheduler sched(aa, se, facts_);
  for (BasicBlock& bb : f) {
    std::vector<Instruction*> region;
    for (Instruction& I : make_early_inc_range(bb)) {
      if (isSchedulingBarrier(I)) {
        stats_.movedLoads += sched.schedule(region, &I);
        region.clear();
      } else {
        region.push_back(&I);
      }
    }
  }
  PreservedAnalyses pa;
  pa.preserveSet<CFGAnalyses>();
  return pa;
}

AliasOptStats optimiseForAliasFacts(Function& f, const AliasFacts& facts) {
  AliasOptStats stats;
  stateFacts(f, facts);
  PassBuilder pb;
  AnalysisManagers am(pb);
  FunctionAnalysisManager& fam = am.fam;
  {
    LoopInfo& li = fam.getResult<LoopAnalysis>(f);
    for (Loop* l : li.getLoopsInPreorder()) {
      if (l->isInnermost() && touchesBuffer(*l)) {
        requestUnroll(*l);
        ++stats.unrollRequests;
      }
    }
  }
  FunctionPassManager fpm;
  fpm.addPass(LoopUnrollPass(LoopUnrollOptions(2, /*OnlyWhenForced=*/true).setRuntime(true)));
  fpm.addPass(InstCombinePass());  // alignment from the stated facts (known bits)
  fpm.addPass(EarlyCSEPass());
  fpm.addPass(SimplifyCFGPass());
  fpm.addPass(GroupLoadsPass(facts, stats));
  fpm.addPass(LoadStoreVectorizerPass());
  fpm.addPass(LowerSwitchPass());
  fpm.addPass(LoopSimplifyPass());
  fpm.run(f, fam);
  for (BasicBlock& bb : f) {
    for (Instruction& I : bb) {
      if ((isa<LoadInst>(I) || isa<StoreInst>(I)) && getLoadStoreType(&I)->isVectorTy()) ++stats.vectorAccesses;
    }
  }
  return stats;
}

}  // namespace simt::compiler
