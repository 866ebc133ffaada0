#include "compiler/access_metadata.h"

#include <optional>

#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include "compiler/builtins.h"
#include "compiler/range_expr.h"

namespace simt::compiler {

using namespace llvm;

namespace {

using Op = RangeExpr::Op;

// The work-item functions as expression leaves.
std::optional<Op> workItemLeaf(const std::string& name) {
  if (name == "get_global_id") return Op::GlobalId;
  if (name == "get_local_id") return Op::LocalId;
  if (name == "get_group_id") return Op::GroupId;
  if (name == "get_global_size") return Op::GlobalSize;
  if (name == "get_local_size") return Op::LocalSize;
  if (name == "get_num_groups") return Op::NumGroups;
  if (name == "get_global_offset") return Op::GlobalOffset;
  if (name == "get_work_dim") return Op::WorkDim;
  return std::nullopt;
}

// SCEV -> RangeExpr, for the references of one instruction (loops that contain it run their
// iterations 0..BTC; a recurrence of a loop it follows may also have taken the exit value).
class Translator {
 public:
  Translator(ScalarEvolution& se, const Instruction& at) : se_(se), at_(at) {}

  std::optional<RangeExpr> run(const SCEV* s) {
    if (++nodes_ > 400) return std::nullopt;  // pathological expressions: unknown
    const int w = static_cast<int>(se_.getTypeSizeInBits(s->getType()));
    if (w > 64) return std::nullopt;
    if (const auto* c = dyn_cast<SCEVConstant>(s)) return RangeExpr::constant(c->getAPInt().getSExtValue(), w);
    if (const auto* u = dyn_cast<SCEVUnknown>(s)) return leaf(u->getValue(), w);
    if (const auto* c = dyn_cast<SCEVCastExpr>(s)) {
      const Op op = isa<SCEVZeroExtendExpr>(c) ? Op::ZExt : isa<SCEVSignExtendExpr>(c) ? Op::SExt
                    : isa<SCEVTruncateExpr>(c) ? Op::Trunc : Op::Const;
      if (op == Op::Const) return std::nullopt;  // ptrtoint
      auto o = run(c->getOperand());
      if (!o) return std::nullopt;
      return RangeExpr::node(op, {*o}, w);
    }
    if (const auto* d = dyn_cast<SCEVUDivExpr>(s)) return nary(Op::UDiv, {d->getLHS(), d->getRHS()}, w);
    if (const auto* r = dyn_cast<SCEVAddRecExpr>(s)) return rec(r, w);
    if (const auto* n = dyn_cast<SCEVNAryExpr>(s)) {
      Op op;
      switch (n->getSCEVType()) {
        case scAddExpr: op = Op::Add; break;
        case scMulExpr: op = Op::Mul; break;
        case scSMaxExpr: op = Op::SMax; break;
        case scSMinExpr: op = Op::SMin; break;
        case scUMaxExpr: op = Op::UMax; break;
        case scUMinExpr:
        case scSequentialUMinExpr: op = Op::UMin; break;  // the same values where defined
        default: return std::nullopt;
      }
      return nary(op, std::vector<const SCEV*>(n->operands().begin(), n->operands().end()), w);
    }
    return std::nullopt;
  }

 private:
  std::optional<RangeExpr> leaf(Value* v, int w) {
    if (auto* a = dyn_cast<Argument>(v); a && a->getType()->isIntegerTy()) {
      return RangeExpr::leaf(Op::Arg, a->getArgNo(), w);
    }
    auto* call = dyn_cast<CallInst>(v);
    if (!call || !call->getCalledFunction()) return std::nullopt;
    const auto op = workItemLeaf(demangle(call->getCalledFunction()->getName().str()).name);
    if (!op) return std::nullopt;
    if (*op == Op::WorkDim) return RangeExpr::leaf(*op, 0, w);
    const auto* dim = call->arg_size() == 1 ? dyn_cast<ConstantInt>(call->getArgOperand(0)) : nullptr;
    if (!dim || dim->getZExtValue() > 2) return std::nullopt;  // dim 3+: constants the lowering picks
    return RangeExpr::leaf(*op, static_cast<int64_t>(dim->getZExtValue()), w);
  }

  std::optional<RangeExpr> nary(Op op, std::vector<const SCEV*> ops, int w) {
    std::vector<RangeExpr> out;
    for (const SCEV* o : ops) {
      auto e = run(o);
      if (!e) return std::nullopt;
      out.push_back(std::move(*e));
    }
    return RangeExpr::node(op, std::move(out), w);
  }

  std::optional<RangeExpr> rec(const SCEVAddRecExpr* r, int w) {
    if (!r->isAffine()) return std::nullopt;
    const Loop* loop = r->getLoop();
    const SCEV* btc = se_.getBackedgeTakenCount(loop);
    if (isa<SCEVCouldNotCompute>(btc)) btc = se_.getSymbolicMaxBackedgeTakenCount(loop);
    if (isa<SCEVCouldNotCompute>(btc)) return std::nullopt;
    // Outside the loop the recurrence may hold its exit value, one step further.
    if (!loop->contains(at_.getParent())) btc = se_.getAddExpr(btc, se_.getOne(btc->getType()));
    auto start = run(r->getStart());
    auto step = run(r->getStepRecurrence(se_));
    auto count = run(btc);
    if (!start || !step || !count) return std::nullopt;
    return RangeExpr::node(Op::Rec, {*start, *step, *count}, w);
  }

  ScalarEvolution& se_;
  const Instruction& at_;
  int nodes_ = 0;
};

int lineOf(const Instruction& I) {
  const DebugLoc& dl = I.getDebugLoc();
  return dl ? static_cast<int>(dl.getLine()) : 0;
}

bool isBufferArgument(const Value* v) {
  const auto* a = dyn_cast<Argument>(v);
  if (!a || !a->getType()->isPointerTy()) return false;
  const unsigned as = a->getType()->getPointerAddressSpace();
  return as == 1 || as == 2;
}

class Analyser {
 public:
  explicit Analyser(Function& f)
      : tlii_(Triple(f.getParent()->getTargetTriple())), tli_(tlii_), ac_(f), dt_(f), li_(dt_),
        se_(f, tli_, ac_, dt_, li_), dl_(f.getParent()->getDataLayout()) {}

  ReferenceAnalysis run(Function& f) {
    for (BasicBlock& bb : f) {
      for (Instruction& I : bb) visit(I);
    }
    return std::move(out_);
  }

 private:
  void visit(Instruction& I) {
    if (auto* ld = dyn_cast<LoadInst>(&I)) return add(I, ld->getPointerOperand(), true, false, size(ld->getType()));
    if (auto* st = dyn_cast<StoreInst>(&I)) {
      return add(I, st->getPointerOperand(), false, true, size(st->getValueOperand()->getType()));
    }
    if (auto* rmw = dyn_cast<AtomicRMWInst>(&I)) {
      return add(I, rmw->getPointerOperand(), true, true, size(rmw->getType()));
    }
    if (auto* cx = dyn_cast<AtomicCmpXchgInst>(&I)) {
      return add(I, cx->getPointerOperand(), true, true, size(cx->getNewValOperand()->getType()));
    }
    auto* call = dyn_cast<CallBase>(&I);
    if (!call) return;
    if (auto* mi = dyn_cast<MemIntrinsic>(call)) {
      const auto* len = dyn_cast<ConstantInt>(mi->getLength());
      const uint32_t bytes = len ? static_cast<uint32_t>(len->getZExtValue()) : 0;
      add(I, mi->getRawDest(), false, true, bytes);
      if (auto* mt = dyn_cast<MemTransferInst>(mi)) add(I, mt->getRawSource(), true, false, bytes);
      return;
    }
    if (isa<IntrinsicInst>(call) || call->doesNotAccessMemory()) return;
    // OpenCL atomics are built-in calls on their pointer; anything else (vload/vstore
    // built-ins, subroutines) may touch its pointers anywhere.
    const Function* callee = call->getCalledFunction();
    const bool atomic =
        callee && callee->isDeclaration() && demangle(callee->getName().str()).name.rfind("atom", 0) == 0;
    for (Value* op : call->args()) {
      if (!op->getType()->isPointerTy()) continue;
      add(I, op, true, true, 4, !atomic);
    }
  }

  uint32_t size(Type* t) const { return static_cast<uint32_t>(dl_.getTypeStoreSize(t).getFixedValue()); }

  void add(Instruction& I, Value* ptr, bool reads, bool writes, uint32_t bytes, bool forceUnknown = false) {
    if (ptr->getType()->getPointerAddressSpace() == 3) return;  // local memory: not a buffer
    SmallVector<const Value*, 4> objects;
    getUnderlyingObjects(ptr, objects, &li_);
    std::vector<const Argument*> args;
    for (const Value* o : objects) {
      if (isBufferArgument(o)) {
        args.push_back(cast<Argument>(o));
      } else if (!isa<AllocaInst>(o) && !isa<GlobalVariable>(o) &&
                 !(isa<Argument>(o) && o->getType()->getPointerAddressSpace() == 3)) {
        out_.complete = false;  // a pointer from memory or an integer: cannot tell which buffer
      }
    }
    for (const Argument* a : args) {
      MemoryReference r;
      r.arg = static_cast<int>(a->getArgNo());
      r.reads = reads;
      r.writes = writes;
      r.bytes = bytes;
      r.line = lineOf(I);
      if (!forceUnknown && bytes > 0 && args.size() == 1) r.offset = offsetOf(I, ptr, a);
      out_.references.push_back(r);
    }
  }

  std::string offsetOf(Instruction& I, Value* ptr, const Argument* a) {
    const SCEV* p = se_.getSCEVAtScope(se_.getSCEV(ptr), li_.getLoopFor(I.getParent()));
    const SCEV* off = se_.getMinusSCEV(p, se_.getSCEV(const_cast<Argument*>(a)));
    if (isa<SCEVCouldNotCompute>(off)) return "";
    const auto e = Translator(se_, I).run(off);
    return e ? e->print() : "";
  }

  TargetLibraryInfoImpl tlii_;
  TargetLibraryInfo tli_;
  AssumptionCache ac_;
  DominatorTree dt_;
  LoopInfo li_;
  ScalarEvolution se_;
  const DataLayout& dl_;
  ReferenceAnalysis out_;
};

}  // namespace

ReferenceAnalysis analyseReferences(Function& kernel) { return Analyser(kernel).run(kernel); }

}  // namespace simt::compiler
