#include "compiler/split_i64.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/DCE.h>
#include <llvm/Transforms/Scalar/InstSimplifyPass.h>

#include "compiler/analysis_managers.h"
#include "compiler/builtins.h"
#include "compiler/compiler.h"
#include "compiler/divergence.h"
#include "compiler/expand_i64.h"

namespace simt::compiler {

using namespace llvm;

namespace {

[[noreturn]] void refuse(const Instruction* at, const std::string& what) {
  throw CompileError(sourcePos(at) + ": error: " + what + " on 64-bit integers (long, ulong) is not supported");
}

bool isI64(const Type* t) { return t->isIntegerTy(64); }

// Whether an instruction computes or reads an i64 value. A constant i64 operand of a call,
// a getelementptr or a vector element access (lifetime sizes, libclc's element indices) is no
// 64-bit arithmetic.
bool touchesI64(const Instruction& I) {
  if (isI64(I.getType())) return true;
  const bool constantsFine = isa<CallInst>(I) || isa<GetElementPtrInst>(I) || isa<ExtractElementInst>(I) ||
                             isa<InsertElementInst>(I);
  for (const Use& u : I.operands()) {
    if (isI64(u->getType()) && !(constantsFine && isa<ConstantInt>(u.get()))) return true;
  }
  return false;
}

// The LLVM intrinsic of an OpenCL integer built-in on long or ulong (Clang declares them as
// mangled library functions: _Z8popcountm), or not_intrinsic.
Intrinsic::ID integerBuiltin(const Function& f) {
  const BuiltinName b = demangle(f.getName().str());
  if (!b.mangled || b.params.empty() || !isI64(f.getReturnType())) return Intrinsic::not_intrinsic;
  for (const std::string& p : b.params) {
    if (p != b.params[0] || (p != "l" && p != "m")) return Intrinsic::not_intrinsic;
  }
  const bool sgn = b.params[0] == "l";
  const size_t n = b.params.size();
  if (n == 1 && b.name == "popcount") return Intrinsic::ctpop;
  if (n == 1 && b.name == "clz") return Intrinsic::ctlz;
  if (n == 1 && b.name == "abs") return sgn ? Intrinsic::abs : Intrinsic::not_intrinsic;
  if (n == 2 && b.name == "min") return sgn ? Intrinsic::smin : Intrinsic::umin;
  if (n == 2 && b.name == "max") return sgn ? Intrinsic::smax : Intrinsic::umax;
  return Intrinsic::not_intrinsic;
}

struct Halves {
  Value* lo = nullptr;
  Value* hi = nullptr;
};

class Splitter {
 public:
  explicit Splitter(Function& f) : f_(f), ctx_(f.getContext()), i32_(Type::getInt32Ty(ctx_)) {}
  bool run();

 private:
  Function& f_;
  LLVMContext& ctx_;
  Type* i32_;
  std::map<const Value*, Halves> halves_;
  std::vector<std::pair<PHINode*, Halves>> phis_;
  std::vector<Instruction*> dead_;
  std::set<const Instruction*> made_;

  Halves get(Value* v, const Instruction* at);
  Value* c32(uint32_t v) { return ConstantInt::get(i32_, v); }
  Value* mulHigh(IRBuilder<>& b, Value* x, Value* y);
  // The carry out of the low words is an unsigned compare: lo = x + y wraps iff lo < x.
  Halves add(IRBuilder<>& b, Halves x, Halves y) {
    Value* lo = b.CreateAdd(x.lo, y.lo);
    Value* carry = b.CreateZExt(b.CreateICmpULT(lo, x.lo), i32_);
    return {lo, b.CreateAdd(b.CreateAdd(x.hi, y.hi), carry)};
  }
  Halves sub(IRBuilder<>& b, Halves x, Halves y) {
    Value* borrow = b.CreateZExt(b.CreateICmpULT(x.lo, y.lo), i32_);
    return {b.CreateSub(x.lo, y.lo), b.CreateSub(b.CreateSub(x.hi, y.hi), borrow)};
  }
  Halves shift(IRBuilder<>& b, Instruction::BinaryOps op, Halves a, Value* amount);
  Value* compare(IRBuilder<>& b, CmpInst::Predicate p, Halves a, Halves c);
  void split(Instruction& I);
};

Halves Splitter::get(Value* v, const Instruction* at) {
  if (const auto it = halves_.find(v); it != halves_.end()) return it->second;
  if (auto* ci = dyn_cast<ConstantInt>(v)) {
    const uint64_t x = ci->getZExtValue();
    return {c32(static_cast<uint32_t>(x)), c32(static_cast<uint32_t>(x >> 32))};
  }
  if (isa<PoisonValue>(v)) return {PoisonValue::get(i32_), PoisonValue::get(i32_)};
  if (isa<UndefValue>(v)) return {UndefValue::get(i32_), UndefValue::get(i32_)};
  if (auto* ce = dyn_cast<ConstantExpr>(v); ce && ce->getOpcode() == Instruction::PtrToInt) {
    return {ConstantExpr::getPtrToInt(ce->getOperand(0), i32_), c32(0)};
  }
  refuse(at, "this constant or value");
}

// The high word of the unsigned 32x32 product: OpenCL's mul_hi(uint, uint), which the
// lowering turns into its 16-bit-halves sequence (docs/compiler.md, "Instruction selection").
Value* Splitter::mulHigh(IRBuilder<>& b, Value* x, Value* y) {
  if (auto* cx = dyn_cast<ConstantInt>(x); cx && cx->isZero()) return c32(0);
  if (auto* cy = dyn_cast<ConstantInt>(y); cy && cy->isZero()) return c32(0);
  Module& m = *f_.getParent();
  FunctionCallee fn = m.getOrInsertFunction("_Z6mul_hijj", FunctionType::get(i32_, {i32_, i32_}, false));
  auto* callee = cast<Function>(fn.getCallee());
  callee->setCallingConv(CallingConv::SPIR_FUNC);
  callee->setDoesNotAccessMemory();
  callee->setDoesNotThrow();
  callee->setWillReturn();
  CallInst* c = b.CreateCall(fn, {x, y});
  c->setCallingConv(CallingConv::SPIR_FUNC);
  c->setDoesNotAccessMemory();
  return c;
}

// a << n, a >> n (logical, arithmetic): by a constant, the words move and the bits crossing
// between them are one shift and an or; by a variable k = n mod 64, both cases (k < 32, k >= 32)
// are computed with shift amounts 0..31 and selected (a shift by 64 or more is poison).
Halves Splitter::shift(IRBuilder<>& b, Instruction::BinaryOps op, Halves a, Value* amount) {
  const bool left = op == Instruction::Shl;
  const bool arith = op == Instruction::AShr;
  auto hiFill = [&]() -> Value* { return arith ? b.CreateAShr(a.hi, c32(31)) : c32(0); };
  auto shr = [&](Value* x, Value* k) { return arith ? b.CreateAShr(x, k) : b.CreateLShr(x, k); };
  if (auto* c = dyn_cast<ConstantInt>(amount)) {
    const unsigned k = static_cast<unsigned>(c->getZExtValue() & 63);
    if (k == 0) return a;
    if (left) {
      if (k >= 32) return {c32(0), b.CreateShl(a.lo, c32(k - 32))};
      return {b.CreateShl(a.lo, c32(k)), b.CreateOr(b.CreateShl(a.hi, c32(k)), b.CreateLShr(a.lo, c32(32 - k)))};
    }
    if (k >= 32) return {shr(a.hi, c32(k - 32)), hiFill()};
    return {b.CreateOr(b.CreateLShr(a.lo, c32(k)), b.CreateShl(a.hi, c32(32 - k))), shr(a.hi, c32(k))};
  }
  Value* k = b.CreateAnd(amount, c32(31));
  Value* big = b.CreateICmpNE(b.CreateAnd(amount, c32(32)), c32(0));
  Value* back = b.CreateSub(c32(31), k);  // the crossing bits: (x >> 1) >> (31 - k), no shift by 32
  if (left) {
    Value* lo = b.CreateShl(a.lo, k);
    Value* hi = b.CreateOr(b.CreateShl(a.hi, k), b.CreateLShr(b.CreateLShr(a.lo, c32(1)), back));
    return {b.CreateSelect(big, c32(0), lo), b.CreateSelect(big, lo, hi)};
  }
  Value* hi = shr(a.hi, k);
  Value* lo = b.CreateOr(b.CreateLShr(a.lo, k), b.CreateShl(b.CreateShl(a.hi, c32(1)), back));
  return {b.CreateSelect(big, hi, lo), b.CreateSelect(big, hiFill(), hi)};
}

// Equality from both words; an order from the high words (signed or not, as asked) unless
// they are equal, then from the low words, unsigned.
Value* Splitter::compare(IRBuilder<>& b, CmpInst::Predicate p, Halves a, Halves c) {
  if (p == CmpInst::ICMP_EQ) return b.CreateAnd(b.CreateICmpEQ(a.lo, c.lo), b.CreateICmpEQ(a.hi, c.hi));
  if (p == CmpInst::ICMP_NE) return b.CreateOr(b.CreateICmpNE(a.lo, c.lo), b.CreateICmpNE(a.hi, c.hi));
  Value* high = b.CreateICmp(p, a.hi, c.hi);
  Value* low = b.CreateICmp(ICmpInst::getUnsignedPredicate(p), a.lo, c.lo);
  return b.CreateSelect(b.CreateICmpEQ(a.hi, c.hi), low, high);
}

void Splitter::split(Instruction& I) {
  IRBuilder<> b(&I);
  auto done = [&](Halves h) {
    halves_[&I] = h;
    dead_.push_back(&I);
  };
  auto replace = [&](Value* v) {
    I.replaceAllUsesWith(v);
    dead_.push_back(&I);
  };
  auto arg = [&](unsigned i) { return get(I.getOperand(i), &I); };
  if (auto* bo = dyn_cast<BinaryOperator>(&I)) {
    const Halves x = arg(0);
    switch (bo->getOpcode()) {
      case Instruction::And: return done({b.CreateAnd(x.lo, arg(1).lo), b.CreateAnd(x.hi, arg(1).hi)});
      case Instruction::Or: return done({b.CreateOr(x.lo, arg(1).lo), b.CreateOr(x.hi, arg(1).hi)});
      case Instruction::Xor: return done({b.CreateXor(x.lo, arg(1).lo), b.CreateXor(x.hi, arg(1).hi)});
      case Instruction::Add: return done(add(b, x, arg(1)));
      case Instruction::Sub: return done(sub(b, x, arg(1)));
      case Instruction::Mul: {
        // (xh 2^32 + xl)(yh 2^32 + yl) mod 2^64: xl yl, plus (xl yh + xh yl) in the high word.
        const Halves y = arg(1);
        Value* hi = mulHigh(b, x.lo, y.lo);
        hi = b.CreateAdd(hi, b.CreateMul(x.lo, y.hi));
        hi = b.CreateAdd(hi, b.CreateMul(x.hi, y.lo));
        return done({b.CreateMul(x.lo, y.lo), hi});
      }
      case Instruction::Shl:
      case Instruction::LShr:
      case Instruction::AShr: return done(shift(b, bo->getOpcode(), x, arg(1).lo));
      case Instruction::UDiv:
      case Instruction::URem:
      case Instruction::SDiv:
      case Instruction::SRem: {
        // By a power of two (what LLVM leaves of x / 8 on long): a shift, a mask; signed with
        // the rounding bias 2^k - 1 for a negative x. expandI64 rewrote the other divisors.
        if (!dividesByShift(*bo)) refuse(&I, "division");
        const auto* c = cast<ConstantInt>(I.getOperand(1));
        const unsigned k = c->getValue().logBase2();
        const Halves mask{c32(static_cast<uint32_t>(c->getZExtValue() - 1)), c32(static_cast<uint32_t>((c->getZExtValue() - 1) >> 32))};
        if (bo->getOpcode() == Instruction::UDiv) return done(shift(b, Instruction::LShr, x, c32(k)));
        if (bo->getOpcode() == Instruction::URem) return done({b.CreateAnd(x.lo, mask.lo), b.CreateAnd(x.hi, mask.hi)});
        Value* sign = b.CreateAShr(x.hi, c32(31));
        const Halves biased = k == 0 ? x : add(b, x, shift(b, Instruction::LShr, {sign, sign}, c32(64 - k)));
        if (bo->getOpcode() == Instruction::SDiv) return done(shift(b, Instruction::AShr, biased, c32(k)));
        return done(sub(b, x, {b.CreateAnd(biased.lo, b.CreateNot(mask.lo)), b.CreateAnd(biased.hi, b.CreateNot(mask.hi))}));
      }
      default: refuse(&I, std::string("the operation '") + I.getOpcodeName() + "'");
    }
  }
  if (auto* c = dyn_cast<ICmpInst>(&I)) return replace(compare(b, c->getPredicate(), arg(0), arg(1)));
  if (auto* s = dyn_cast<SelectInst>(&I)) {
    const Halves t = arg(1), e = arg(2);
    return done({b.CreateSelect(s->getCondition(), t.lo, e.lo), b.CreateSelect(s->getCondition(), t.hi, e.hi)});
  }
  if (isa<FreezeInst>(I)) {
    const Halves x = arg(0);
    return done({b.CreateFreeze(x.lo), b.CreateFreeze(x.hi)});
  }
  if (auto* c = dyn_cast<CastInst>(&I)) {
    Value* src = c->getOperand(0);
    switch (c->getOpcode()) {
      case Instruction::ZExt:
        if (isI64(src->getType())) break;
        return done({b.CreateZExt(src, i32_), c32(0)});
      case Instruction::SExt: {
        if (isI64(src->getType())) break;
        Value* lo = b.CreateSExt(src, i32_);
        return done({lo, b.CreateAShr(lo, c32(31))});
      }
      case Instruction::Trunc:
        if (!isI64(src->getType())) break;
        return replace(b.CreateTrunc(arg(0).lo, I.getType()));
      case Instruction::PtrToInt: return done({b.CreatePtrToInt(src, i32_), c32(0)});
      case Instruction::IntToPtr: return replace(b.CreateIntToPtr(arg(0).lo, I.getType()));
      default: break;
    }
    refuse(&I, std::string("the conversion '") + I.getOpcodeName() + "'");
  }
  if (auto* l = dyn_cast<LoadInst>(&I)) {
    if (l->isAtomic()) refuse(&I, "an atomic load");
    Value* p = l->getPointerOperand();
    Value* p4 = b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), p, 4);
    const Align a = l->getAlign();
    LoadInst* lo = b.CreateAlignedLoad(i32_, p, a, l->isVolatile());
    LoadInst* hi = b.CreateAlignedLoad(i32_, p4, commonAlignment(a, 4), l->isVolatile());
    lo->copyMetadata(*l);
    hi->copyMetadata(*l);
    return done({lo, hi});
  }
  if (auto* s = dyn_cast<StoreInst>(&I); s && isI64(s->getValueOperand()->getType())) {
    if (s->isAtomic()) refuse(&I, "an atomic store");
    const Halves x = arg(0);
    Value* p = s->getPointerOperand();
    const Align a = s->getAlign();
    StoreInst* lo = b.CreateAlignedStore(x.lo, p, a, s->isVolatile());
    StoreInst* hi = b.CreateAlignedStore(x.hi, b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), p, 4), commonAlignment(a, 4),
                                         s->isVolatile());
    lo->copyMetadata(*s);
    hi->copyMetadata(*s);
    dead_.push_back(&I);
    return;
  }
  if (auto* g = dyn_cast<GetElementPtrInst>(&I)) {
    // Pointers have 32 bits: an index counts modulo 2^32, its low word.
    for (Use& u : g->indices()) {
      if (isI64(u->getType()) && !isa<ConstantInt>(u.get())) u.set(get(u.get(), &I).lo);
    }
    return;
  }
  if (auto* ii = dyn_cast<IntrinsicInst>(&I)) {
    const Intrinsic::ID id = ii->getIntrinsicID();
    if (id == Intrinsic::smin || id == Intrinsic::smax || id == Intrinsic::umin || id == Intrinsic::umax) {
      const Halves x = arg(0), y = arg(1);
      Value* first = compare(b, MinMaxIntrinsic::getPredicate(id), x, y);  // smax: x > y
      return done({b.CreateSelect(first, x.lo, y.lo), b.CreateSelect(first, x.hi, y.hi)});
    }
    if (id == Intrinsic::abs) {
      const Halves x = arg(0);
      Value* neg = b.CreateICmpSLT(x.hi, c32(0));
      Value* borrow = b.CreateZExt(b.CreateICmpNE(x.lo, c32(0)), i32_);
      Value* nlo = b.CreateSub(c32(0), x.lo);
      Value* nhi = b.CreateSub(b.CreateSub(c32(0), x.hi), borrow);
      return done({b.CreateSelect(neg, nlo, x.lo), b.CreateSelect(neg, nhi, x.hi)});
    }
    if (id == Intrinsic::ctpop) {
      const Halves x = arg(0);
      Function* pop = Intrinsic::getDeclaration(f_.getParent(), Intrinsic::ctpop, {i32_});
      return done({b.CreateAdd(b.CreateCall(pop, {x.lo}), b.CreateCall(pop, {x.hi})), c32(0)});
    }
    if (id == Intrinsic::ctlz || id == Intrinsic::cttz) {
      // ctlz: the high word's count, or 32 plus the low word's when the high word is 0
      // (cttz the other way round); the i32 intrinsic with "zero is poison" false gives 32 for 0.
      const Halves x = arg(0);
      const bool lead = id == Intrinsic::ctlz;
      Value* first = lead ? x.hi : x.lo;
      Value* second = lead ? x.lo : x.hi;
      Function* cnt = Intrinsic::getDeclaration(f_.getParent(), id, {i32_});
      Value* c1 = b.CreateCall(cnt, {first, b.getFalse()});
      Value* c2 = b.CreateAdd(b.CreateCall(cnt, {second, b.getFalse()}), c32(32));
      return done({b.CreateSelect(b.CreateICmpEQ(first, c32(0)), c2, c1), c32(0)});
    }
    if (isa<DbgInfoIntrinsic>(ii)) {
      dead_.push_back(&I);
      return;
    }
  }
  if (auto* call = dyn_cast<CallInst>(&I)) {
    const Function* callee = call->getCalledFunction();
    if (Intrinsic::ID id = callee ? integerBuiltin(*callee) : Intrinsic::not_intrinsic) {
      // OpenCL's popcount, clz, abs, min, max on long/ulong: the LLVM intrinsic, split as above.
      std::vector<Value*> args(call->arg_begin(), call->arg_end());
      if (id == Intrinsic::ctlz || id == Intrinsic::abs) args.push_back(b.getFalse());
      CallInst* ni = b.CreateCall(Intrinsic::getDeclaration(f_.getParent(), id, {I.getType()}), args);
      I.replaceAllUsesWith(ni);
      dead_.push_back(&I);
      return split(*ni);
    }
    refuse(&I, "the call" + (callee ? " to '" + callee->getName().str() + "'" : std::string()) +
                   " (an argument or result of 64 bits)");
  }
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) refuse(&I, "an atomic operation");
  if (isa<ReturnInst>(I)) refuse(&I, "returning a value");
  refuse(&I, std::string("the LLVM instruction '") + I.getOpcodeName() + "'");
}

bool Splitter::run() {
  bool any = false;
  for (BasicBlock& bb : f_) {
    for (Instruction& I : bb) any |= touchesI64(I);
  }
  if (!any) return false;
  // i64 arguments: a kernel's are two param words, read by the lowering as these two values.
  BasicBlock& entry = f_.getEntryBlock();
  for (Argument& a : f_.args()) {
    if (!isI64(a.getType()) || a.use_empty()) continue;
    if (f_.getCallingConv() != CallingConv::SPIR_KERNEL) {
      refuse(entry.getFirstNonPHIOrDbg(), "argument " + std::to_string(a.getArgNo() + 1) + " of the subroutine '" +
                                              f_.getName().str() + "': an argument");
    }
    IRBuilder<> b(&*entry.getFirstInsertionPt());
    auto* shifted = cast<Instruction>(b.CreateLShr(&a, 32));
    auto* lo = cast<Instruction>(b.CreateTrunc(&a, i32_, a.getName() + ".lo"));
    auto* hi = cast<Instruction>(b.CreateTrunc(shifted, i32_, a.getName() + ".hi"));
    made_.insert({shifted, lo, hi});
    halves_[&a] = {lo, hi};
  }
  // Definitions before uses: reverse post-order, phis first without their incoming values.
  ReversePostOrderTraversal<Function*> rpo(&f_);
  for (BasicBlock* bb : rpo) {
    for (Instruction& I : make_early_inc_range(*bb)) {
      if (!touchesI64(I)) continue;
      if (halves_.count(&I)) continue;
      if (made_.count(&I)) continue;  // the argument words made above
      if (auto* phi = dyn_cast<PHINode>(&I)) {
        IRBuilder<> b(phi);
        Halves h{b.CreatePHI(i32_, phi->getNumIncomingValues(), phi->getName() + ".lo"),
                 b.CreatePHI(i32_, phi->getNumIncomingValues(), phi->getName() + ".hi")};
        halves_[phi] = h;
        phis_.push_back({phi, h});
        dead_.push_back(phi);
        continue;
      }
      split(I);
    }
  }
  for (auto& [phi, h] : phis_) {
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
      const Halves in = get(phi->getIncomingValue(i), phi);
      cast<PHINode>(h.lo)->addIncoming(in.lo, phi->getIncomingBlock(i));
      cast<PHINode>(h.hi)->addIncoming(in.hi, phi->getIncomingBlock(i));
    }
  }
  for (Instruction* I : dead_) I->replaceAllUsesWith(PoisonValue::get(I->getType()));
  for (Instruction* I : dead_) I->eraseFromParent();
  return true;
}

}  // namespace

const Argument* i64ArgumentWord(const Instruction& I, bool* high) {
  const Instruction* in = &I;
  if (isa<TruncInst>(in) && in->getType()->isIntegerTy(32)) {
    if (const auto* a = dyn_cast<Argument>(in->getOperand(0)); a && isI64(a->getType())) {
      *high = false;
      return a;
    }
    in = dyn_cast<Instruction>(in->getOperand(0));
    if (!in) return nullptr;
  }
  if (in->getOpcode() != Instruction::LShr) return nullptr;
  const auto* a = dyn_cast<Argument>(in->getOperand(0));
  const auto* c = dyn_cast<ConstantInt>(in->getOperand(1));
  if (!a || !isI64(a->getType()) || !c || c->getZExtValue() != 32) return nullptr;
  *high = true;
  return a;
}

void splitI64(Module& m) {
  bool changed = false;
  for (Function& f : m) {
    if (f.isDeclaration()) continue;
    changed |= expandI64(f);  // division, float conversions: into i64 IR the split covers
    changed |= Splitter(f).run();
  }
  if (!changed) return;
  // The split code's constant words fold (a zero high word's products and carries).
  PassBuilder pb;
  AnalysisManagers am(pb);
  FunctionPassManager fpm;
  fpm.addPass(InstSimplifyPass());
  fpm.addPass(DCEPass());
  ModulePassManager mpm;
  mpm.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm.run(m, am.mam);
}

}  // namespace simt::compiler
