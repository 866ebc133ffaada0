#include "compiler/expand_i64.h"

#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace simt::compiler {

using namespace llvm;

namespace {

bool isI64(const Type* t) { return t->isIntegerTy(64); }

struct QuotRem {
  Value* q;
  Value* r;
};

// n / d and n % d, unsigned, for the i64 values n and d, before `at`, whose block is split
// there: `at` begins the join block, where the results are. Both operands below 2^32: the
// 32-bit division (the lowering's loop). Else restoring division over the quotient's bits
// only: d is shifted up to n's leading bit (s = clz(d) - clz(n) places) and the loop runs
// s + 1 times, each a 64-bit compare, a conditional subtract and a shift; the trip count
// differs between work-items, a divergent loop like any other (docs/compiler.md,
// "Reconvergence"). The loop is in LoopSimplify form (preheader, dedicated exit) as the
// reconvergence plan needs.
QuotRem unsignedDivRem(Instruction* at, Value* n, Value* d) {
  Function& f = *at->getFunction();
  LLVMContext& ctx = f.getContext();
  Type* i32 = Type::getInt32Ty(ctx);
  Type* i64 = Type::getInt64Ty(ctx);
  BasicBlock* head = at->getParent();
  BasicBlock* join = head->splitBasicBlock(at, "div64.join");
  BasicBlock* small = BasicBlock::Create(ctx, "div64.small", &f, join);
  BasicBlock* big = BasicBlock::Create(ctx, "div64.big", &f, join);
  BasicBlock* loop = BasicBlock::Create(ctx, "div64.loop", &f, join);
  BasicBlock* exit = BasicBlock::Create(ctx, "div64.exit", &f, join);
  head->getTerminator()->eraseFromParent();

  IRBuilder<> b(head);
  b.SetCurrentDebugLocation(at->getDebugLoc());
  auto c32 = [&](uint64_t v) { return ConstantInt::get(i32, v); };
  auto c64 = [&](uint64_t v) { return ConstantInt::get(i64, v); };
  Value* highWords = b.CreateTrunc(b.CreateLShr(b.CreateOr(n, d), 32), i32);
  b.CreateCondBr(b.CreateICmpNE(highWords, c32(0)), big, small);

  b.SetInsertPoint(small);
  Value* n32 = b.CreateTrunc(n, i32);
  Value* d32 = b.CreateTrunc(d, i32);
  Value* q32 = b.CreateUDiv(n32, d32);
  Value* qSmall = b.CreateZExt(q32, i64);
  Value* rSmall = b.CreateZExt(b.CreateSub(n32, b.CreateMul(q32, d32)), i64);  // one loop, not two
  b.CreateBr(join);

  b.SetInsertPoint(big);
  auto clz = [&](Value* v) { return b.CreateTrunc(b.CreateBinaryIntrinsic(Intrinsic::ctlz, v, b.getFalse()), i32); };
  Value* s = b.CreateSub(clz(d), clz(n));
  s = b.CreateSelect(b.CreateICmpSLT(s, c32(0)), c32(0), s);  // d > n: one step gives q = 0
  // s is 64 only for d = 0 (undefined; masked so that the shift is not poison).
  Value* dShifted = b.CreateShl(d, b.CreateZExt(b.CreateAnd(s, c32(63)), i64));
  b.CreateBr(loop);

  b.SetInsertPoint(loop);
  PHINode* i = b.CreatePHI(i32, 2, "div64.i");
  PHINode* q = b.CreatePHI(i64, 2, "div64.q");
  PHINode* r = b.CreatePHI(i64, 2, "div64.r");
  PHINode* dd = b.CreatePHI(i64, 2, "div64.d");
  Value* fits = b.CreateICmpUGE(r, dd);
  Value* r1 = b.CreateSelect(fits, b.CreateSub(r, dd), r);
  Value* q1 = b.CreateOr(b.CreateShl(q, 1), b.CreateZExt(fits, i64));
  Value* dd1 = b.CreateLShr(dd, 1);
  Value* i1 = b.CreateSub(i, c32(1));
  b.CreateCondBr(b.CreateICmpSGE(i1, c32(0)), loop, exit);
  i->addIncoming(s, big);
  i->addIncoming(i1, loop);
  q->addIncoming(c64(0), big);
  q->addIncoming(q1, loop);
  r->addIncoming(n, big);
  r->addIncoming(r1, loop);
  dd->addIncoming(dShifted, big);
  dd->addIncoming(dd1, loop);

  b.SetInsertPoint(exit);
  b.CreateBr(join);

  b.SetInsertPoint(at);
  PHINode* qj = b.CreatePHI(i64, 2, "div64.quot");
  PHINode* rj = b.CreatePHI(i64, 2, "div64.rem");
  qj->addIncoming(qSmall, small);
  qj->addIncoming(q1, exit);
  rj->addIncoming(rSmall, small);
  rj->addIncoming(r1, exit);
  // x / 0: all ones, what the 32-bit sequence gives (both paths give x % 0 = x already).
  Value* quot = b.CreateSelect(b.CreateICmpEQ(d, c64(0)), c64(~uint64_t{0}), qj);
  return {quot, rj};
}

// The signed forms from the magnitudes (INT64_MIN's is 2^63, unsigned): the quotient
// negative when the signs differ, the remainder with the dividend's sign.
Value* divide(BinaryOperator& I) {
  Value* x = I.getOperand(0);
  Value* y = I.getOperand(1);
  const Instruction::BinaryOps op = I.getOpcode();
  if (op == Instruction::UDiv || op == Instruction::URem) {
    const QuotRem qr = unsignedDivRem(&I, x, y);
    return op == Instruction::UDiv ? qr.q : qr.r;
  }
  IRBuilder<> b(&I);
  Value* sx = b.CreateAShr(x, 63);
  Value* sy = b.CreateAShr(y, 63);
  Value* ax = b.CreateSub(b.CreateXor(x, sx), sx);
  Value* ay = b.CreateSub(b.CreateXor(y, sy), sy);
  const QuotRem qr = unsignedDivRem(&I, ax, ay);
  b.SetInsertPoint(&I);
  Value* sign = op == Instruction::SDiv ? b.CreateXor(sx, sy) : sx;
  return b.CreateSub(b.CreateXor(op == Instruction::SDiv ? qr.q : qr.r, sign), sign);
}

// The bits of uitofp(x) for an i64 x. x << clz(high word) has its leading one in the high
// word (or is the low word when the high word is 0); with the shifted-out low word or'd into
// bit 0 as a sticky bit, the 32-bit conversion rounds to nearest even exactly as the whole
// value would round (the rounding looks at 8 or more bits below 24, and bit 0 stands for
// all below it); adding 32 - clz to the exponent field scales back (exact, no overflow:
// the result is below 2^64; 0 stays 0).
Value* unsignedToFloatBits(IRBuilder<>& b, Value* x) {
  Type* i32 = b.getInt32Ty();
  Value* hi = b.CreateTrunc(b.CreateLShr(x, 32), i32);
  Value* lz = b.CreateBinaryIntrinsic(Intrinsic::ctlz, hi, b.getFalse());  // 32 for 0
  Value* norm = b.CreateShl(x, b.CreateZExt(lz, b.getInt64Ty()));
  Value* sticky = b.CreateZExt(b.CreateICmpNE(b.CreateTrunc(norm, i32), b.getInt32(0)), i32);
  Value* top = b.CreateOr(b.CreateTrunc(b.CreateLShr(norm, 32), i32), sticky);
  Value* f = b.CreateBitCast(b.CreateUIToFP(top, b.getFloatTy()), i32);
  return b.CreateAdd(f, b.CreateShl(b.CreateSub(b.getInt32(32), lz), 23));
}

Value* intToFloat(CastInst& I) {
  IRBuilder<> b(&I);
  Value* x = I.getOperand(0);
  if (I.getOpcode() == Instruction::UIToFP) return b.CreateBitCast(unsignedToFloatBits(b, x), I.getType());
  // The magnitude's conversion with the sign bit (INT64_MIN's magnitude 2^63 converts exactly).
  Value* s = b.CreateAShr(x, 63);
  Value* bits = unsignedToFloatBits(b, b.CreateSub(b.CreateXor(x, s), s));
  bits = b.CreateOr(bits, b.CreateAnd(b.CreateTrunc(s, b.getInt32Ty()), b.getInt32(0x80000000u)));
  return b.CreateBitCast(bits, I.getType());
}

// float -> i64, truncating toward zero and saturating like the 32-bit fcvt (NaN gives 0):
// |f| = m 2^(e - 150) with the 24-bit mantissa m; for 1 <= |f| < 2^64 (127 <= e <= 190)
// that is (m << 40) >> (190 - e).
Value* floatToInt(IRBuilder<>& b, Value* f, bool isSigned) {
  Type* i32 = b.getInt32Ty();
  Type* i64 = b.getInt64Ty();
  Value* bits = b.CreateBitCast(f, i32);
  Value* e = b.CreateAnd(b.CreateLShr(bits, 23), 0xff);
  Value* m = b.CreateOr(b.CreateAnd(bits, 0x7fffff), 0x800000);
  Value* shift = b.CreateZExt(b.CreateAnd(b.CreateSub(b.getInt32(190), e), 63), i64);  // masked: no poison
  Value* v = b.CreateLShr(b.CreateShl(b.CreateZExt(m, i64), 40), shift);
  Value* neg = b.CreateICmpSLT(bits, b.getInt32(0));
  Value* nan = b.CreateFCmpUNO(f, f);
  Value* tiny = b.CreateICmpULT(e, b.getInt32(127));  // |f| < 1, zeros and (flushed) subnormals
  Value* zero = ConstantInt::get(i64, 0);
  if (!isSigned) {
    Value* r = b.CreateSelect(b.CreateICmpUGT(e, b.getInt32(190)), ConstantInt::get(i64, ~uint64_t{0}), v);
    return b.CreateSelect(b.CreateOr(b.CreateOr(tiny, neg), nan), zero, r);
  }
  Value* mag = b.CreateSelect(tiny, zero, v);
  Value* r = b.CreateSelect(neg, b.CreateNeg(mag), mag);
  Value* limit = b.CreateSelect(neg, ConstantInt::get(i64, uint64_t{1} << 63), ConstantInt::get(i64, ~(uint64_t{1} << 63)));
  r = b.CreateSelect(b.CreateICmpUGE(e, b.getInt32(190)), limit, r);  // |f| >= 2^63
  return b.CreateSelect(nan, zero, r);
}

// What expandI64 rewrites: the value replacing I, or nullptr.
Value* expand(Instruction& I) {
  if (auto* bo = dyn_cast<BinaryOperator>(&I)) {
    const Instruction::BinaryOps op = bo->getOpcode();
    const bool isDiv = op == Instruction::UDiv || op == Instruction::URem || op == Instruction::SDiv ||
                       op == Instruction::SRem;
    if (isDiv && isI64(I.getType()) && !dividesByShift(*bo)) return divide(*bo);
    return nullptr;
  }
  if (auto* c = dyn_cast<CastInst>(&I)) {
    const Type* src = c->getSrcTy();
    const Type* dst = c->getDestTy();
    if ((isa<SIToFPInst>(c) || isa<UIToFPInst>(c)) && isI64(src) && dst->isFloatTy()) return intToFloat(*c);
    if ((isa<FPToSIInst>(c) || isa<FPToUIInst>(c)) && src->isFloatTy() && isI64(dst)) {
      IRBuilder<> b(&I);
      return floatToInt(b, c->getOperand(0), isa<FPToSIInst>(c));
    }
    return nullptr;
  }
  if (auto* ii = dyn_cast<IntrinsicInst>(&I)) {
    const Intrinsic::ID id = ii->getIntrinsicID();
    if ((id == Intrinsic::fptosi_sat || id == Intrinsic::fptoui_sat) && isI64(I.getType()) &&
        ii->getArgOperand(0)->getType()->isFloatTy()) {
      IRBuilder<> b(&I);
      return floatToInt(b, ii->getArgOperand(0), id == Intrinsic::fptosi_sat);
    }
  }
  return nullptr;
}

}  // namespace

bool dividesByShift(const BinaryOperator& div) {
  const auto* c = dyn_cast<ConstantInt>(div.getOperand(1));
  return c && c->getValue().isPowerOf2() && !c->getValue().isSignMask();
}

bool expandI64(Function& f) {
  std::vector<Instruction*> work;
  for (Instruction& I : instructions(f)) {
    if (isI64(I.getType()) || (I.getNumOperands() > 0 && isI64(I.getOperand(0)->getType()))) work.push_back(&I);
  }
  bool changed = false;
  for (Instruction* I : work) {
    if (Value* v = expand(*I)) {
      v->takeName(I);
      I->replaceAllUsesWith(v);
      I->eraseFromParent();
      changed = true;
    }
  }
  return changed;
}

}  // namespace simt::compiler
