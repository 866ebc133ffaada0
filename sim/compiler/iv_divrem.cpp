#include "compiler/iv_divrem.h"

#include <map>
#include <utility>
#include <vector>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

namespace simt::compiler {

using namespace llvm;

namespace {

// A division or remainder the pass rewrites, found before anything changes.
struct Candidate {
  BinaryOperator* op;
  const SCEVAddRecExpr* rec;  // its dividend
  uint32_t divisor;
  // A division's remainder as Clang's DivRemPairs leaves it beside the division,
  // dividend - quotient * divisor; nullptr if there is none.
  Instruction* remainder = nullptr;
};

// The remainder and quotient recurrences of one (dividend, divisor) pair.
struct Recurrences {
  PHINode* rem = nullptr;
  PHINode* quot = nullptr;
  Value* quotStart = nullptr;  // in the preheader: start / divisor
  Value* wrapped = nullptr;  // in the latch: the remainder reached the divisor this step
};

bool isDivision(unsigned opcode) { return opcode == Instruction::UDiv || opcode == Instruction::SDiv; }

// The pass applies to op when its dividend is a non-wrapping affine recurrence of a loop
// that contains it and its divisor a constant > 1 that is not a power of two.
bool qualifies(BinaryOperator& op, ScalarEvolution& se, Candidate* c) {
  const unsigned opcode = op.getOpcode();
  const bool isSigned = opcode == Instruction::SDiv || opcode == Instruction::SRem;
  if (!isSigned && opcode != Instruction::UDiv && opcode != Instruction::URem) return false;
  if (!op.getType()->isIntegerTy(32)) return false;
  const auto* d = dyn_cast<ConstantInt>(op.getOperand(1));
  if (!d) return false;
  const int64_t dv = isSigned ? d->getSExtValue() : static_cast<int64_t>(d->getZExtValue());
  // The remainder's step (r + step % d) must stay below 2^32: d < 2^31.
  if (dv <= 1 || dv >= (int64_t{1} << 31) || (dv & (dv - 1)) == 0) return false;
  // Clang's DivRemPairs freezes a dividend it shares between a division and its remainder; a
  // dividend that never wraps is never poison, so the frozen value is the recurrence's.
  Value* dividend = op.getOperand(0);
  if (auto* fr = dyn_cast<FreezeInst>(dividend)) dividend = fr->getOperand(0);
  const auto* rec = dyn_cast<SCEVAddRecExpr>(se.getSCEV(dividend));
  if (!rec || !rec->isAffine() || !rec->getLoop()->contains(op.getParent())) return false;
  const Loop* loop = rec->getLoop();
  if (!loop->getLoopPreheader() || !loop->getLoopLatch()) return false;
  const auto* step = dyn_cast<SCEVConstant>(rec->getStepRecurrence(se));
  if (!step || step->getAPInt().isNegative() || step->getAPInt().isZero()) return false;
  if (isSigned) {
    if (!rec->hasNoSignedWrap() || !se.isKnownNonNegative(rec->getStart())) return false;
  } else if (!rec->hasNoUnsignedWrap()) {
    return false;
  }
  *c = {&op, rec, static_cast<uint32_t>(dv)};
  if (isDivision(opcode)) {
    using namespace PatternMatch;
    for (User* u : op.users()) {
      for (User* uu : u->users()) {
        if (match(uu, m_Sub(m_Specific(op.getOperand(0)), m_c_Mul(m_Specific(&op), m_Specific(d))))) {
          c->remainder = cast<Instruction>(uu);
        }
      }
    }
  }
  return true;
}

// The remainder recurrence (and the quotient's when asked) of c's pair, made once per pair.
Recurrences& recurrencesFor(const Candidate& c, bool needQuotient, ScalarEvolution& se, SCEVExpander& expander,
                            std::map<std::pair<const SCEV*, uint32_t>, Recurrences>& made) {
  Recurrences& r = made[{c.rec, c.divisor}];
  const Loop* loop = c.rec->getLoop();
  BasicBlock* pre = loop->getLoopPreheader();
  BasicBlock* latch = loop->getLoopLatch();
  BasicBlock* header = loop->getHeader();
  IntegerType* i32 = Type::getInt32Ty(header->getContext());
  const uint32_t step = static_cast<uint32_t>(cast<SCEVConstant>(c.rec->getStepRecurrence(se))->getValue()->getZExtValue());
  if (!r.rem) {
    // The starting values: one division in the preheader, the remainder from its quotient.
    Value* start = expander.expandCodeFor(c.rec->getStart(), i32, pre->getTerminator());
    IRBuilder<> pb(pre->getTerminator());
    r.quotStart = pb.CreateUDiv(start, ConstantInt::get(i32, c.divisor), "iv.quot.start");
    Value* r0 = pb.CreateSub(start, pb.CreateMul(r.quotStart, ConstantInt::get(i32, c.divisor)), "iv.rem.start");
    IRBuilder<> hb(&header->front());
    r.rem = hb.CreatePHI(i32, 2, "iv.rem");
    IRBuilder<> lb(latch->getTerminator());
    Value* sum = lb.CreateAdd(r.rem, ConstantInt::get(i32, step % c.divisor), "iv.rem.sum");
    r.wrapped = lb.CreateICmpUGE(sum, ConstantInt::get(i32, c.divisor), "iv.rem.wrap");
    Value* next = lb.CreateSelect(r.wrapped, lb.CreateSub(sum, ConstantInt::get(i32, c.divisor)), sum, "iv.rem.next");
    r.rem->addIncoming(r0, pre);
    r.rem->addIncoming(next, latch);
  }
  if (needQuotient && !r.quot) {
    IRBuilder<> hb(&header->front());
    r.quot = hb.CreatePHI(i32, 2, "iv.quot");
    IRBuilder<> lb(latch->getTerminator());
    Value* next = lb.CreateAdd(r.quot, ConstantInt::get(i32, step / c.divisor));
    next = lb.CreateAdd(next, lb.CreateZExt(r.wrapped, i32), "iv.quot.next");
    r.quot->addIncoming(r.quotStart, pre);
    r.quot->addIncoming(next, latch);
  }
  return r;
}

}  // namespace

PreservedAnalyses DivRemOfInductionVariablePass::run(Function& f, FunctionAnalysisManager& fam) {
  auto& se = fam.getResult<ScalarEvolutionAnalysis>(f);
  std::vector<Candidate> found;
  for (BasicBlock& bb : f) {
    for (Instruction& I : bb) {
      Candidate c;
      if (auto* op = dyn_cast<BinaryOperator>(&I); op && qualifies(*op, se, &c)) found.push_back(c);
    }
  }
  // Every candidate is found before the IR changes; the expander's code goes into the
  // preheaders, which dominate the loops' recurrences.
  SCEVExpander expander(se, f.getParent()->getDataLayout(), "iv.divrem");
  std::map<std::pair<const SCEV*, uint32_t>, Recurrences> made;
  for (const Candidate& c : found) {
    if (!expander.isSafeToExpandAt(c.rec->getStart(), c.rec->getLoop()->getLoopPreheader()->getTerminator())) continue;
    const bool div = isDivision(c.op->getOpcode());
    Recurrences& r = recurrencesFor(c, div, se, expander, made);
    if (c.remainder) c.remainder->replaceAllUsesWith(r.rem);
    c.op->replaceAllUsesWith(div ? r.quot : r.rem);
  }
  if (made.empty()) return PreservedAnalyses::all();
  // What the recurrences replaced, with the multiplication of a DivRemPairs remainder.
  for (const Candidate& c : found) {
    if (c.remainder && c.remainder->use_empty()) {
      auto* mul = dyn_cast<Instruction>(c.remainder->getOperand(1));
      c.remainder->eraseFromParent();
      if (mul && mul->use_empty()) mul->eraseFromParent();
    }
  }
  for (const Candidate& c : found) {
    if (c.op->use_empty()) c.op->eraseFromParent();
  }
  PreservedAnalyses pa;
  pa.preserveSet<CFGAnalyses>();
  return pa;
}

}  // namespace simt::compiler
