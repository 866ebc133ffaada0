#include "compiler/lower.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <optional>
#include <set>
#include <sstream>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/DivisionByConstantInfo.h>

#include "compiler/builtins.h"
#include "compiler/split_i64.h"

namespace simt::compiler {

using namespace llvm;

namespace {

constexpr int kAsPrivate = 0, kAsGlobal = 1, kAsConstant = 2, kAsLocal = 3;
// libclc's tables (linked from its nvptx bitcode, float_builtins.h) are constants in nvptx's
// address space 4; OpenCL 1.2 kernels have no generic address space, so 4 means them.
constexpr int kAsLibConstant = 4;

[[noreturn]] void refuse(const Instruction* at, const std::string& what) {
  throw CompileError(sourcePos(at) + ": error: " + what);
}

// Flattens a constant initializer to bytes (little endian).
void flatten(const Constant* c, const DataLayout& dl, std::vector<uint8_t>& out, const Instruction* at) {
  Type* t = c->getType();
  const uint64_t size = dl.getTypeAllocSize(t);
  if (isa<ConstantAggregateZero>(c) || isa<UndefValue>(c) || isa<ConstantPointerNull>(c)) {
    out.insert(out.end(), size, 0);
    return;
  }
  if (const auto* cf = dyn_cast<ConstantFP>(c)) {
    const uint64_t v = cf->getValueAPF().bitcastToAPInt().getZExtValue();
    for (uint64_t i = 0; i < size; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return;
  }
  if (const auto* cv = dyn_cast<ConstantVector>(c)) {
    for (const Use& u : cv->operands()) flatten(cast<Constant>(u.get()), dl, out, at);
    return;
  }
  if (const auto* ci = dyn_cast<ConstantInt>(c)) {
    const uint64_t v = ci->getZExtValue();
    for (uint64_t i = 0; i < size; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return;
  }
  if (const auto* cd = dyn_cast<ConstantDataSequential>(c)) {
    for (unsigned i = 0; i < cd->getNumElements(); ++i) flatten(cd->getElementAsConstant(i), dl, out, at);
    return;
  }
  if (const auto* ca = dyn_cast<ConstantArray>(c)) {
    for (const Use& u : ca->operands()) flatten(cast<Constant>(u.get()), dl, out, at);
    return;
  }
  if (const auto* cs = dyn_cast<ConstantStruct>(c)) {
    const StructLayout* sl = dl.getStructLayout(cs->getType());
    const size_t base = out.size();
    for (unsigned i = 0; i < cs->getNumOperands(); ++i) {
      out.resize(base + sl->getElementOffset(i), 0);
      flatten(cs->getOperand(i), dl, out, at);
    }
    out.resize(base + size, 0);
    return;
  }
  refuse(at, "this kind of __constant initializer is not supported");
}

}  // namespace

ModuleLayout layoutGlobals(Function& kernel) {
  ModuleLayout ml;
  Module& m = *kernel.getParent();
  const DataLayout& dl = m.getDataLayout();
  int n = 0;
  for (GlobalVariable& g : m.globals()) {
    const unsigned as = g.getAddressSpace();
    const Instruction* at = nullptr;
    for (const User* u : g.users()) {
      if (const auto* I = dyn_cast<Instruction>(u)) at = I;
    }
    const uint64_t size = dl.getTypeAllocSize(g.getValueType());
    if (as == kAsLocal) {
      ml.localBytes = (ml.localBytes + 3u) & ~3u;
      const uint64_t align = std::max<uint64_t>(4, g.getAlign() ? g.getAlign()->value() : 4);
      ml.localBytes = static_cast<uint32_t>((ml.localBytes + align - 1) / align * align);
      ml.localOffset[&g] = ml.localBytes;
      ml.localBytes += static_cast<uint32_t>((size + 3) & ~uint64_t{3});
    } else if (as == kAsConstant || ((as == kAsPrivate || as == kAsLibConstant) && g.isConstant())) {
      std::vector<uint8_t> bytes;
      if (g.hasInitializer()) flatten(g.getInitializer(), dl, bytes, at);
      bytes.resize((std::max<size_t>(bytes.size(), 4) + 3) & ~size_t{3}, 0);
      const std::string label = "const" + std::to_string(n++);
      ml.constantLabel[&g] = label;
      std::ostringstream os;
      os << label << ":";
      for (size_t i = 0; i < bytes.size(); i += 4) {
        const uint32_t w = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (static_cast<uint32_t>(bytes[i + 3]) << 24);
        os << ((i % 32) == 0 ? (i ? "\n        .word " : " .word ") : ", ") << w;
      }
      os << "   ; " << g.getName().str() << "\n";
      ml.dataSection += os.str();
    } else {
      refuse(at, "program-scope variable '" + g.getName().str() + "' in address space " + std::to_string(as) +
                     " is not supported");
    }
  }
  return ml;
}

namespace {

std::string typeName(const Type* t) {
  std::string s;
  raw_string_ostream os(s);
  t->print(os);
  return os.str();
}

// A value of 32-bit elements: a word, or a vector of words (one word per element).
bool wordElements(Type* t) {
  if (auto* vt = dyn_cast<FixedVectorType>(t)) t = vt->getElementType();
  return t->getPrimitiveSizeInBits() == 32 && !t->isVectorTy();
}

// The 32 bits of an integer or float constant of at most 32 bits.
std::optional<uint32_t> constantBits(const Value* v) {
  if (const auto* ci = dyn_cast<ConstantInt>(v); ci && ci->getBitWidth() <= 32) {
    return static_cast<uint32_t>(ci->getZExtValue() & 0xffffffffu);
  }
  if (const auto* cf = dyn_cast<ConstantFP>(v); cf && cf->getType()->isFloatTy()) {
    return static_cast<uint32_t>(cf->getValueAPF().bitcastToAPInt().getZExtValue());
  }
  return std::nullopt;
}

struct Pred {
  int p = 0;
  bool neg = false;
};

class Lowering {
 public:
  Lowering(Function& f, const UniformityInfo& ui, const ReconvergencePlan& plan, const ModuleLayout& ml, int hiddenBase,
           bool assumeLinear, const LoopInfo& li, const LowerMode& mode)
      : f_(f), dl_(f.getParent()->getDataLayout()), ui_(ui), plan_(plan), ml_(ml), hiddenBase_(hiddenBase),
        assumeLinear_(assumeLinear), li_(li), mode_(mode) {}

  LoweredFunction run();

 private:
  // ---- emission
  MInst& emit(const std::string& op, Opnd dst, std::vector<Opnd> srcs) {
    MInst in;
    in.op = op;
    in.dst = std::move(dst);
    in.srcs = std::move(srcs);
    in.line = sourceLine(cur_);
    block().insts.push_back(std::move(in));
    return block().insts.back();
  }
  MBlock& block() { return out_.mf.blocks[curBlock_]; }
  void startBlock(const std::string& label) {
    loadedTuple_.first = nullptr;
    MBlock b;
    b.label = label;
    out_.mf.blocks.push_back(std::move(b));
    curBlock_ = static_cast<int>(out_.mf.blocks.size()) - 1;
  }
  std::string newLabel() { return mode_.prefix + "I" + std::to_string(labelCounter_++); }
  int vreg() { return out_.mf.newVReg(); }
  Opnd V(int r) { return Opnd::vreg(r); }
  int mov(Opnd src) {
    const int r = vreg();
    emit("mov", V(r), {std::move(src)});
    return r;
  }
  int op3(const std::string& op, int a, Opnd b) {
    const int r = vreg();
    emit(op, V(r), {V(a), std::move(b)});
    return r;
  }
  int paramWord(int word) {
    const int r = vreg();
    emit("ld.param", V(r), {Opnd::mem(-1, false, 4 * word)});
    return r;
  }
  int hiddenWord(int h) { return paramWord(hiddenBase_ + h); }

  // ---- values
  std::string blockLabel(const BasicBlock* bb) const { return labels_.at(bb); }
  int reg(const Value* v);
  Opnd regOrImm(const Value* v) {
    if (const auto* ci = dyn_cast<ConstantInt>(v)) return Opnd::imm32(static_cast<int64_t>(ci->getZExtValue() & 0xffffffffu));
    return V(reg(v));
  }
  int bitsOf(const Type* t) const {
    return t->isPointerTy() || t->isFloatTy() ? 32 : static_cast<int>(t->getIntegerBitWidth());
  }
  int zextTo32(const Value* v) {
    const int bits = bitsOf(v->getType());
    const int r = reg(v);
    if (bits == 32 || bits == 1) return r;
    return op3("and", r, Opnd::imm32((1 << bits) - 1));
  }
  int sextTo32(const Value* v) {
    const int bits = bitsOf(v->getType());
    const int r = reg(v);
    if (bits == 32) return r;
    if (bits == 1) return op3("mul", r, Opnd::imm32(-1));
    return op3("sra", op3("shl", r, Opnd::imm32(32 - bits)), Opnd::imm32(32 - bits));
  }
  Opnd extended(const Value* v, bool sign) {
    if (const auto* ci = dyn_cast<ConstantInt>(v)) {
      return Opnd::imm32(sign ? ci->getSExtValue() : static_cast<int64_t>(ci->getZExtValue()));
    }
    return V(sign ? sextTo32(v) : zextTo32(v));
  }

  // ---- pieces
  void checkTypes(const Instruction& I);
  Pred condition(const Value* cond);
  Pred compare(const ICmpInst* c);
  Pred fcompare(const FCmpInst* c);
  Opnd fregOrImm(const Value* v) {
    if (const auto* cf = dyn_cast<ConstantFP>(v); cf && cf->getType()->isFloatTy()) return Opnd::fimm(*constantBits(cf));
    return V(reg(v));
  }
  void lowerFloatBinary(BinaryOperator& I);
  bool lowerFloatIntrinsic(IntrinsicInst& I);
  int roundToIntegral(int x, const char* mode);
  Opnd address(const Value* ptr, int64_t extra = 0);
  int addressReg(const Value* ptr);
  std::string memSpace(unsigned as, const Instruction& I) const;
  void lowerInst(Instruction& I);
  void lowerBinary(BinaryOperator& I);
  void lowerCast(CastInst& I);
  void lowerLoad(LoadInst& I);
  void lowerStore(StoreInst& I);
  // Vectors (docs/compiler.md, "Vector types and vector memory"): a <N x T> value is N
  // virtual registers; loads and stores of 32-bit elements are ld/st.global.v4 where global
  // and 16-byte aligned, else one access per element; element moves for the rest.
  void lowerVector(Instruction& I);
  // A vector access's element words (base + 4k) and whether it may be ld/st.global.v4.
  struct VectorAccess {
    Opnd base;
    bool v4 = false;
    Opnd word(unsigned k) const {
      Opnd m = base;
      m.imm += 4 * static_cast<int64_t>(k);
      return m;
    }
  };
  VectorAccess vectorAccess(const Value* ptr, Align align);
  void lowerVectorLoad(LoadInst& I);
  void lowerVectorStore(StoreInst& I);
  bool elemUndefined(const Value* v, unsigned k) const;
  int elem(const Value* v, unsigned k);
  std::array<int, 4> tupleRegs() { return {vreg(), vreg(), vreg(), vreg()}; }
  void lowerGep(GetElementPtrInst& I);
  void lowerCall(CallInst& I);
  void lowerIntrinsic(IntrinsicInst& I);
  void lowerAtomic(CallInst& I, const std::string& name, const BuiltinName& b);
  void lowerSimtBarrier(CallInst& I, const std::string& name);
  void lowerTerminator(BasicBlock& bb);
  void emitEdge(const BasicBlock* from, const BasicBlock* to, int guard = -1, bool neg = false);
  void udivrem(int n, int d, int* q, int* r);
  // A loop storing `words` words at dst: `value`, or (src >= 0) the words loaded from src.
  void wordLoop(const std::string& dstSpace, int dst, const std::string& srcSpace, int src,
                int value, int words);
  void sdivrem(const Value* a, const Value* b, int* q, int* r);
  int mulhu(int a, Opnd b);
  int mulhs(int a, Opnd b);
  int udivConst(int n, uint32_t d);
  int sdivConst(int n, int32_t d);
  void prologue();
  int workItem(const std::string& name, unsigned dim, const Instruction& I);
  bool fusable(const Instruction& I) const;
  bool foldable(const GetElementPtrInst& g) const;
  int satAdd(int a, int b, bool sub, bool isSigned);
  int popcount(int x);

  Function& f_;
  const DataLayout& dl_;
  const UniformityInfo& ui_;
  const ReconvergencePlan& plan_;
  const ModuleLayout& ml_;
  int hiddenBase_;
  bool assumeLinear_;
  LoweredFunction out_;
  int curBlock_ = 0;
  int labelCounter_ = 0;
  const Instruction* cur_ = nullptr;
  std::map<const Value*, int> vregs_;
  std::map<const Value*, std::vector<int>> vecRegs_;  // a vector value's element registers
  // The tuple of the last ld.global.v4 of this block, while no other v4 instruction followed:
  // a store of that vector reuses the tuple (no copies, and tuples still never overlap).
  std::pair<const Value*, std::array<int, 4>> loadedTuple_{nullptr, {}};
  std::map<const BasicBlock*, std::string> labels_;
  std::map<const AllocaInst*, uint32_t> allocaOffset_;
  std::map<std::pair<std::string, unsigned>, int> workItems_;
  std::map<std::pair<const Value*, int64_t>, int> scaledIndex_;  // 1 + vreg, this block only
  const LoopInfo& li_;
  LowerMode mode_;
  std::map<std::pair<const Loop*, uint32_t>, int> loopConst_;  // constants hoisted to preheaders
  void hoistLoopConstants(const BasicBlock& preheader);
};

int Lowering::reg(const Value* v) {
  if (const auto it = vregs_.find(v); it != vregs_.end()) return it->second;
  if (const auto* ci = dyn_cast<ConstantInt>(v); ci && ci->getBitWidth() > 32) {
    refuse(cur_, "a 64-bit constant is not supported");
  }
  if (const auto bits = constantBits(v)) {
    const uint32_t value = *bits;
    // Inside a loop: the register its preheader filled once (outermost loop first).
    std::vector<const Loop*> nest;
    for (const Loop* l = cur_ ? li_.getLoopFor(cur_->getParent()) : nullptr; l; l = l->getParentLoop()) nest.push_back(l);
    for (auto it = nest.rbegin(); it != nest.rend(); ++it) {
      if (const auto c = loopConst_.find({*it, value}); c != loopConst_.end()) return c->second;
    }
    return mov(Opnd::imm32(value));
  }
  if (isa<UndefValue>(v) || isa<ConstantPointerNull>(v)) return mov(Opnd::imm32(0));
  if (const auto* g = dyn_cast<GlobalVariable>(v)) {
    if (const auto it = ml_.localOffset.find(g); it != ml_.localOffset.end()) return mov(Opnd::imm32(it->second));
    if (const auto it = ml_.constantLabel.find(g); it != ml_.constantLabel.end()) return mov(Opnd::label(it->second));
  }
  if (const auto* ce = dyn_cast<ConstantExpr>(v)) {
    APInt off(32, 0);
    const Value* base = v->stripAndAccumulateConstantOffsets(dl_, off, true);
    if (base != v) {
      const int b = reg(base);
      return off.isZero() ? b : op3("add", b, Opnd::imm32(off.getSExtValue()));
    }
    if (ce->isCast()) return reg(ce->getOperand(0));
  }
  std::string s;
  raw_string_ostream os(s);
  v->printAsOperand(os, false);
  if (v->getType()->isVectorTy())
    refuse(cur_, "the vector value " + os.str() + " is not supported here");
  refuse(cur_, "value " + os.str() + " is not supported by the simt lowering");
}

void Lowering::checkTypes(const Instruction& I) {
  if (bool high; i64ArgumentWord(I, &high)) return;  // a word of a long argument (split_i64.h)
  std::function<void(Type*)> check = [&](Type* t) {
    if (t->isVoidTy() || t->isLabelTy() || t->isPointerTy() || t->isMetadataTy()) {
      if (t->isPointerTy()) {
        const unsigned as = t->getPointerAddressSpace();
        if (as > kAsLibConstant) refuse(&I, "the generic address space is not supported");
      }
      return;
    }
    if (t->isIntegerTy()) {
      const unsigned w = t->getIntegerBitWidth();
      if (w == 64) refuse(&I, "64-bit integers (long, ulong) are not supported");
      if (w != 1 && w != 8 && w != 16 && w != 32)
        refuse(&I, "a " + std::to_string(w) + "-bit integer is not supported");
      return;
    }
    if (t->isFloatTy()) return;
    if (t->isDoubleTy()) refuse(&I, "double is not supported (the core has FP32 only)");
    if (t->isHalfTy()) refuse(&I, "half is not supported");
    if (const auto* vt = dyn_cast<FixedVectorType>(t)) {
      check(vt->getElementType());
      if (vt->getElementType()->isPointerTy() || vt->getNumElements() > 16) {
        refuse(&I, "the vector type " + typeName(t) + " is not supported");
      }
      return;
    }
    if (t->isVectorTy()) refuse(&I, "scalable vector types are not supported");
    if (t->isStructTy() || t->isArrayTy()) {
      if (isa<AllocaInst>(I) || isa<GetElementPtrInst>(I)) return;
      refuse(&I, "aggregate (struct or array) values in registers are not supported");
    }
    refuse(&I, "this type is not supported");
  };
  if (isa<GetElementPtrInst>(I) || isa<AllocaInst>(I)) {
    check(I.getType());
    return;
  }
  if (const auto* call = dyn_cast<CallInst>(&I)) {
    if (isa<DbgInfoIntrinsic>(call)) return;
    if (const auto* ii = dyn_cast<IntrinsicInst>(call)) {
      switch (ii->getIntrinsicID()) {
        case Intrinsic::lifetime_start:
        case Intrinsic::lifetime_end:
        case Intrinsic::assume:
        case Intrinsic::experimental_noalias_scope_decl:
          return;
        default: break;
      }
    }
  }
  check(I.getType());
  for (const Use& u : I.operands()) {
    if (isa<BasicBlock>(u.get()) || isa<Function>(u.get()) || isa<MetadataAsValue>(u.get())) continue;
    // A constant element index may be i64 (IRBuilder's, libclc's): it is only a number here.
    if ((isa<ExtractElementInst>(I) || isa<InsertElementInst>(I)) && isa<ConstantInt>(u.get()) &&
        u.getOperandNo() + 1 == I.getNumOperands()) {
      continue;
    }
    check(u->getType());
  }
}

bool Lowering::fusable(const Instruction& I) const {
  const auto* c = dyn_cast<CmpInst>(&I);
  if (!c || !c->hasOneUse()) return false;
  const auto* user = dyn_cast<Instruction>(*c->user_begin());
  if (!user || user->getParent() != c->getParent()) return false;
  if (const auto* br = dyn_cast<BranchInst>(user)) return br->isConditional();
  if (const auto* sel = dyn_cast<SelectInst>(user)) return sel->getCondition() == c;
  return false;
}

Pred Lowering::compare(const ICmpInst* c) {
  CmpInst::Predicate pr = c->getPredicate();
  const Value* a = c->getOperand(0);
  const Value* b = c->getOperand(1);
  if (isa<ConstantInt>(a) && !isa<ConstantInt>(b)) {
    std::swap(a, b);
    pr = CmpInst::getSwappedPredicate(pr);
  }
  const bool sign = CmpInst::isSigned(pr);
  static const std::map<CmpInst::Predicate, const char*> names = {
      {CmpInst::ICMP_EQ, "eq"},   {CmpInst::ICMP_NE, "ne"},   {CmpInst::ICMP_SLT, "lt"},
      {CmpInst::ICMP_SLE, "le"},  {CmpInst::ICMP_SGT, "gt"},  {CmpInst::ICMP_SGE, "ge"},
      {CmpInst::ICMP_ULT, "ltu"}, {CmpInst::ICMP_ULE, "leu"}, {CmpInst::ICMP_UGT, "gtu"},
      {CmpInst::ICMP_UGE, "geu"}};
  const int ra = isa<ConstantInt>(a) ? mov(extended(a, sign)) : (sign ? sextTo32(a) : zextTo32(a));
  const Opnd rb = extended(b, sign);
  emit(std::string("setp.") + names.at(pr), Opnd::pred(0), {V(ra), rb});
  return Pred{0, false};
}

// fcmp: fsetp with the FPU's ordered/unordered codes (docs/isa.md); the constant-false and
// -true predicates set p0 from a constant.
Pred Lowering::fcompare(const FCmpInst* c) {
  CmpInst::Predicate pr = c->getPredicate();
  const Value* a = c->getOperand(0);
  const Value* b = c->getOperand(1);
  if (pr == CmpInst::FCMP_FALSE || pr == CmpInst::FCMP_TRUE) {
    emit("setp.ne", Opnd::pred(0), {V(mov(Opnd::imm32(pr == CmpInst::FCMP_TRUE))), Opnd::imm32(0)});
    return Pred{0, false};
  }
  if (isa<ConstantFP>(a) && !isa<ConstantFP>(b)) {
    std::swap(a, b);
    pr = CmpInst::getSwappedPredicate(pr);
  }
  static const std::map<CmpInst::Predicate, const char*> names = {
      {CmpInst::FCMP_OEQ, "eq"},  {CmpInst::FCMP_ONE, "ne"},  {CmpInst::FCMP_OLT, "lt"},
      {CmpInst::FCMP_OLE, "le"},  {CmpInst::FCMP_OGT, "gt"},  {CmpInst::FCMP_OGE, "ge"},
      {CmpInst::FCMP_UEQ, "equ"}, {CmpInst::FCMP_UNE, "neu"}, {CmpInst::FCMP_ULT, "ltu"},
      {CmpInst::FCMP_ULE, "leu"}, {CmpInst::FCMP_UGT, "gtu"}, {CmpInst::FCMP_UGE, "geu"},
      {CmpInst::FCMP_ORD, "num"}, {CmpInst::FCMP_UNO, "nan"}};
  emit(std::string("fsetp.") + names.at(pr), Opnd::pred(0), {V(reg(a)), fregOrImm(b)});
  return Pred{0, false};
}

Pred Lowering::condition(const Value* cond) {
  if (const auto* c = dyn_cast<ICmpInst>(cond); c && fusable(*c)) return compare(c);
  if (const auto* c = dyn_cast<FCmpInst>(cond); c && fusable(*c)) return fcompare(c);
  if (const auto* ci = dyn_cast<ConstantInt>(cond)) {
    emit("setp.ne", Opnd::pred(0), {V(mov(Opnd::imm32(ci->getZExtValue() & 1))), Opnd::imm32(0)});
    return Pred{0, false};
  }
  emit("setp.ne", Opnd::pred(0), {V(reg(cond)), Opnd::imm32(0)});
  return Pred{0, false};
}

std::string Lowering::memSpace(unsigned as, const Instruction& I) const {
  if (as == kAsLocal) return "shared";
  if (as == kAsGlobal || as == kAsConstant || as == kAsPrivate || as == kAsLibConstant) return "global";
  refuse(&I, "memory in address space " + std::to_string(as) + " is not supported");
}

bool Lowering::foldable(const GetElementPtrInst& g) const {
  APInt off(32, 0);
  if (!g.accumulateConstantOffset(dl_, off)) return false;
  for (const User* u : g.users()) {
    if (const auto* ld = dyn_cast<LoadInst>(u);
        ld && ld->getPointerOperand() == &g && wordElements(ld->getType()))
      continue;
    if (const auto* st = dyn_cast<StoreInst>(u); st && st->getPointerOperand() == &g &&
                                                 st->getValueOperand() != &g &&
                                                 wordElements(st->getValueOperand()->getType()))
      continue;
    return false;
  }
  return true;
}

Opnd Lowering::address(const Value* ptr, int64_t extra) {
  if (const auto* g = dyn_cast<GEPOperator>(ptr)) {
    // A constant-offset GEP that was not lowered on its own folds into the operand.
    APInt off(32, 0);
    const auto* gi = dyn_cast<GetElementPtrInst>(ptr);
    if ((!gi || foldable(*gi)) && g->accumulateConstantOffset(dl_, off)) {
      return address(g->getPointerOperand(), extra + off.getSExtValue());
    }
  }
  if (const auto* gv = dyn_cast<GlobalVariable>(ptr)) {
    if (const auto it = ml_.localOffset.find(gv); it != ml_.localOffset.end()) return Opnd::mem(-1, false, it->second + extra);
    if (const auto it = ml_.constantLabel.find(gv); it != ml_.constantLabel.end()) return Opnd::memLabel(it->second, extra);
  }
  if (const auto* a = dyn_cast<AllocaInst>(ptr)) {
    return Opnd::mem(kFramePointer, false, allocaOffset_.at(a) + extra);
  }
  if (const auto* ce = dyn_cast<ConstantExpr>(ptr); ce && ce->isCast()) return address(ce->getOperand(0), extra);
  return Opnd::mem(reg(ptr), true, extra);
}

int Lowering::addressReg(const Value* ptr) {
  const Opnd m = address(ptr);
  if (!m.text.empty()) return mov(Opnd::label(m.text, m.imm));
  if (m.reg < 0) return mov(Opnd::imm32(m.imm));
  const Opnd base = m.baseIsVReg ? V(m.reg) : Opnd::preg(m.reg);
  const int r = vreg();
  if (m.imm == 0 && m.baseIsVReg) return m.reg;
  emit("add", V(r), {base, Opnd::imm32(m.imm)});
  return r;
}

void Lowering::wordLoop(const std::string& dstSpace, int dst, const std::string& srcSpace, int src,
                        int value, int words) {
  // One word per iteration; the pointers are copies, the counter the same in every work-item.
  const int p = mov(V(dst));
  const int q = src >= 0 ? mov(V(src)) : -1;
  const int end = op3("add", p, Opnd::imm32(4 * words));
  const std::string loop = newLabel();
  emit("bra", {}, {Opnd::label(loop)});
  startBlock(loop);
  int w = value;
  if (q >= 0) {
    w = vreg();
    emit("ld." + srcSpace, V(w), {Opnd::mem(q, true, 0)});
    emit("add", V(q), {V(q), Opnd::imm32(4)});
  }
  emit("st." + dstSpace, {}, {Opnd::mem(p, true, 0), V(w)});
  emit("add", V(p), {V(p), Opnd::imm32(4)});
  emit("setp.ne", Opnd::pred(1), {V(p), V(end)});
  emit("bra", {}, {Opnd::label(loop)}).guard = 1;
  startBlock(newLabel());
}

void Lowering::udivrem(int n, int d, int* q, int* r) {
  // Restoring division (the ISA has no divide): the dividend shifts out at the top into the
  // remainder while the quotient bits shift in at its bottom; four bits per iteration, eight
  // iterations (uniform: the counter is the same in every work-item).
  const int qq = mov(V(n));
  const int rr = mov(Opnd::imm32(0));
  const int i = mov(Opnd::imm32(8));
  const std::string loop = newLabel();
  const std::string after = newLabel();
  emit("bra", {}, {Opnd::label(loop)});
  startBlock(loop);
  for (int bit = 0; bit < 4; ++bit) {
    const int top = op3("shr", qq, Opnd::imm32(31));
    emit("shl", V(qq), {V(qq), Opnd::imm32(1)});
    emit("shl", V(rr), {V(rr), Opnd::imm32(1)});
    emit("or", V(rr), {V(rr), V(top)});
    emit("setp.geu", Opnd::pred(1), {V(rr), V(d)});
    emit("sub", V(rr), {V(rr), V(d)}).guard = 1;
    emit("or", V(qq), {V(qq), Opnd::imm32(1)}).guard = 1;
  }
  emit("sub", V(i), {V(i), Opnd::imm32(1)});
  emit("setp.ne", Opnd::pred(1), {V(i), Opnd::imm32(0)});
  emit("bra", {}, {Opnd::label(loop)}).guard = 1;
  startBlock(after);
  if (q) *q = qq;
  if (r) *r = rr;
}

// The high word of the 64-bit unsigned product, from 16-bit halves (the ISA's mul keeps the
// low word only).
int Lowering::mulhu(int a, Opnd b) {
  const int alo = op3("and", a, Opnd::imm32(0xffff));
  const int ahi = op3("shr", a, Opnd::imm32(16));
  Opnd blo, bhi;
  if (b.kind == Opnd::Imm) {
    blo = Opnd::imm32(b.imm & 0xffff);
    bhi = Opnd::imm32((b.imm >> 16) & 0xffff);
  } else {
    blo = V(op3("and", b.reg, Opnd::imm32(0xffff)));
    bhi = V(op3("shr", b.reg, Opnd::imm32(16)));
  }
  const int ll = op3("mul", alo, blo);
  const int lh = op3("mul", alo, bhi);
  const int hl = op3("mul", ahi, blo);
  const int hh = op3("mul", ahi, bhi);
  int mid = op3("shr", ll, Opnd::imm32(16));
  mid = op3("add", mid, V(op3("and", lh, Opnd::imm32(0xffff))));
  mid = op3("add", mid, V(op3("and", hl, Opnd::imm32(0xffff))));
  int hi = op3("add", hh, V(op3("shr", lh, Opnd::imm32(16))));
  hi = op3("add", hi, V(op3("shr", hl, Opnd::imm32(16))));
  return op3("add", hi, V(op3("shr", mid, Opnd::imm32(16))));
}

// Signed: mulhu(a, b) - (a < 0 ? b : 0) - (b < 0 ? a : 0).
int Lowering::mulhs(int a, Opnd b) {
  int hi = mulhu(a, b);
  const int sa = op3("sra", a, Opnd::imm32(31));
  hi = op3("sub", hi, V(op3("and", sa, b)));
  if (b.kind == Opnd::Imm) {
    if (b.imm & 0x80000000LL) hi = op3("sub", hi, V(a));
  } else {
    const int sb = op3("sra", b.reg, Opnd::imm32(31));
    hi = op3("sub", hi, V(op3("and", sb, V(a))));
  }
  return hi;
}

// Division by a constant: multiplication by a magic number (LLVM's
// UnsignedDivisionByConstantInfo, the sequence of its BuildUDIV).
int Lowering::udivConst(int n, uint32_t d) {
  if (d == 1) return mov(V(n));
  if ((d & (d - 1)) == 0) {
    int k = 0;
    while ((1u << k) < d) ++k;
    return op3("shr", n, Opnd::imm32(k));
  }
  if (d & 0x80000000u) {  // the quotient is 0 or 1
    const int q = mov(Opnd::imm32(0));
    emit("setp.geu", Opnd::pred(1), {V(n), Opnd::imm32(d)});
    emit("mov", V(q), {Opnd::imm32(1)}).guard = 1;
    return q;
  }
  const auto m = UnsignedDivisionByConstantInfo::get(APInt(32, d));
  int q = m.PreShift ? op3("shr", n, Opnd::imm32(m.PreShift)) : n;
  q = mulhu(q, Opnd::imm32(static_cast<int64_t>(m.Magic.getZExtValue())));
  if (m.IsAdd) {
    const int npq = op3("shr", op3("sub", n, V(q)), Opnd::imm32(1));
    q = op3("add", npq, V(q));
  }
  return m.PostShift ? op3("shr", q, Opnd::imm32(m.PostShift)) : q;
}

// LLVM's SignedDivisionByConstantInfo and BuildSDIV.
int Lowering::sdivConst(int n, int32_t d) {
  if (d == 1) return mov(V(n));
  if (d == -1) return op3("mul", n, Opnd::imm32(-1));
  if (d > 1 && (d & (d - 1)) == 0) {  // a power of two: round toward zero, then shift
    int k = 0;
    while ((1 << k) < d) ++k;
    const int bias = op3("shr", op3("sra", n, Opnd::imm32(31)), Opnd::imm32(32 - k));
    return op3("sra", op3("add", n, V(bias)), Opnd::imm32(k));
  }
  if (d == INT32_MIN) {  // 1 for INT32_MIN itself, else 0
    const int q = mov(Opnd::imm32(0));
    emit("setp.eq", Opnd::pred(1), {V(n), Opnd::imm32(INT32_MIN)});
    emit("mov", V(q), {Opnd::imm32(1)}).guard = 1;
    return q;
  }
  const auto m = SignedDivisionByConstantInfo::get(APInt(32, static_cast<uint64_t>(static_cast<uint32_t>(d))));
  const int32_t magic = static_cast<int32_t>(m.Magic.getSExtValue());
  int q = mulhs(n, Opnd::imm32(static_cast<int64_t>(static_cast<uint32_t>(magic))));
  if (d > 0 && magic < 0) q = op3("add", q, V(n));
  if (d < 0 && magic > 0) q = op3("sub", q, V(n));
  if (m.ShiftAmount) q = op3("sra", q, Opnd::imm32(m.ShiftAmount));
  return op3("add", q, V(op3("shr", q, Opnd::imm32(31))));
}

void Lowering::sdivrem(const Value* a, const Value* b, int* q, int* r) {
  const int x = sextTo32(a), y = sextTo32(b);
  const int sx = op3("sra", x, Opnd::imm32(31));
  const int sy = op3("sra", y, Opnd::imm32(31));
  const int ax = op3("sub", op3("xor", x, V(sx)), V(sx));
  const int ay = op3("sub", op3("xor", y, V(sy)), V(sy));
  int uq = -1, ur = -1;
  udivrem(ax, ay, &uq, &ur);
  if (q) {
    const int sq = op3("xor", sx, V(sy));
    *q = op3("sub", op3("xor", uq, V(sq)), V(sq));
  }
  if (r) *r = op3("sub", op3("xor", ur, V(sx)), V(sx));
}

int Lowering::workItem(const std::string& name, unsigned dim, const Instruction& I) {
  const auto it = workItems_.find({name, dim});
  if (it == workItems_.end()) refuse(&I, "internal: work-item value " + name + " not prepared");
  return it->second;
}

void Lowering::prologue() {
  // Arguments: one param word each, two for a long (low word first; splitI64 left its uses
  // as `trunc %a` and `trunc (lshr %a, 32)`, whose shift is the high word).
  int argWord = 0;
  for (Argument& a : f_.args()) {
    const int first = argWord;
    argWord += a.getType()->isIntegerTy(64) ? 2 : 1;
    if (a.use_empty()) continue;
    if (a.getType()->isVectorTy())
      refuse(cur_, "a vector argument (" + typeName(a.getType()) + ") is not supported");
    if (mode_.isKernel) {
      vregs_[&a] = paramWord(first);
      for (const User* u : a.users()) {
        bool high = false;
        if (const auto* in = dyn_cast<Instruction>(u); in && i64ArgumentWord(*in, &high) == &a && high) {
          vregs_[in] = paramWord(first + 1);
        }
      }
    } else {
      const int r = vreg();
      emit("ld.global", V(r), {Opnd::mem(kFramePointer, false, 4 + 4 * static_cast<int64_t>(a.getArgNo()))});
      vregs_[&a] = r;
    }
  }
  // Work-item ids used with constant dimensions.
  std::set<std::pair<std::string, unsigned>> needed;
  for (BasicBlock& bb : f_) {
    for (Instruction& I : bb) {
      const auto* call = dyn_cast<CallInst>(&I);
      if (!call || !call->getCalledFunction()) continue;
      const std::string n = demangle(call->getCalledFunction()->getName().str()).name;
      if (n != "get_local_id" && n != "get_global_id" && n != "get_group_id") continue;
      const auto* d = dyn_cast<ConstantInt>(call->getArgOperand(0));
      if (!d) refuse(&I, n + " with a dimension that is not a constant is not supported");
      needed.insert({n, static_cast<unsigned>(std::min<uint64_t>(d->getZExtValue(), 3))});
    }
  }
  auto need = [&](const char* n, unsigned d) { return needed.count({n, d}) != 0; };
  if (needed.empty()) return;
  // Fast path (the runtime's hidden "linear" flag: a 1-D shape, zero offset): the ids are
  // the special registers. Otherwise the linear ids are decomposed, x fastest:
  // x = t % size0, y = (t / size0) % size1, z = t / size0 / size1, for the local id
  // (t = %tid, sizes = local size) and the group id (t = %ctaid, sizes = group counts);
  // global id = group id * local size + local id + offset. The ISA has no divide: each
  // quotient is a multiplication by the runtime's reciprocal and a shift (hidden::kIdLocal,
  // kIdGroup; exact for every dividend of the launch), each remainder t - q * size.
  static const char* const kinds[3] = {"get_local_id", "get_group_id", "get_global_id"};
  static const char* const sregs[3] = {"%tid", "%ctaid", "%gtid"};
  int regs[3][3];
  for (int k = 0; k < 3; ++k) {
    for (unsigned d = 0; d < 3; ++d) {
      regs[k][d] = -1;
      if (!need(kinds[k], d)) continue;
      regs[k][d] = mov(d == 0 ? Opnd::sreg(sregs[k]) : Opnd::imm32(0));
      workItems_[{kinds[k], d}] = regs[k][d];
    }
    if (need(kinds[k], 3)) workItems_[{kinds[k], 3}] = mov(Opnd::imm32(0));
  }
  bool slowNeeded = false;
  for (int k = 0; k < 3; ++k) {
    for (unsigned d = 0; d < 3; ++d) slowNeeded |= regs[k][d] >= 0;
  }
  if (!slowNeeded || assumeLinear_) return;
  out_.dividesIds = true;
  const std::string done = newLabel();
  emit("setp.ne", Opnd::pred(1), {V(hiddenWord(hidden::kLinear)), Opnd::imm32(0)});
  emit("bra", {}, {Opnd::label(done)}).guard = 1;
  std::map<int, int> words;  // hidden word -> its register: each is loaded once
  auto word = [&](int h) {
    if (!words.count(h)) words[h] = hiddenWord(h);
    return words[h];
  };
  // n / size by the reciprocal at hidden word `magic` (the shift follows it).
  auto quotient = [&](int n, int magic) {
    return op3("shr", op3("mul", n, V(word(magic))), V(word(magic + 1)));
  };
  int ids[2][3] = {{-1, -1, -1}, {-1, -1, -1}};
  for (int k = 0; k < 2; ++k) {
    bool want[3];
    for (unsigned d = 0; d < 3; ++d) want[d] = regs[k][d] >= 0 || regs[2][d] >= 0;
    if (!want[0] && !want[1] && !want[2]) continue;
    const int sizeWord = k == 0 ? hidden::kLocalSize : hidden::kNumGroups;
    const int magic = k == 0 ? hidden::kIdLocal : hidden::kIdGroup;
    // The x id's register holds the special register until the end of the prologue.
    const int t = regs[k][0] >= 0 ? regs[k][0] : mov(Opnd::sreg(sregs[k]));
    const int q = quotient(t, magic);  // t / size0
    if (want[0]) ids[k][0] = op3("sub", t, V(op3("mul", q, V(word(sizeWord)))));
    if (!want[1] && !want[2]) continue;
    ids[k][2] = quotient(q, magic + 2);  // t / size0 / size1
    if (want[1]) ids[k][1] = op3("sub", q, V(op3("mul", ids[k][2], V(word(sizeWord + 1)))));
  }
  for (unsigned d = 0; d < 3; ++d) {
    for (int k = 0; k < 2; ++k) {
      if (regs[k][d] >= 0) emit("mov", V(regs[k][d]), {V(ids[k][d])});
    }
    if (regs[2][d] >= 0) {
      const int base = op3("mul", ids[1][d], V(word(hidden::kLocalSize + static_cast<int>(d))));
      const int off = word(hidden::kGlobalOffset + static_cast<int>(d));
      emit("add", V(regs[2][d]), {V(op3("add", base, V(ids[0][d]))), V(off)});
    }
  }
  startBlock(done);
}

LoweredFunction Lowering::run() {
  // Labels, allocas in the frame, a vreg for every value-producing instruction.
  int n = 0;
  for (BasicBlock& bb : f_) labels_[&bb] = mode_.prefix + "L" + std::to_string(n++);
  if (!mode_.isKernel) {  // the return value and the arguments: the first words of the frame
    out_.frameBytes = 4 * (1 + static_cast<uint32_t>(f_.arg_size()));
    out_.usesFrame = true;
  }
  for (BasicBlock& bb : f_) {
    for (Instruction& I : bb) {
      cur_ = &I;
      checkTypes(I);
      if (auto* a = dyn_cast<AllocaInst>(&I)) {
        const auto* size = dyn_cast<ConstantInt>(a->getArraySize());
        if (!size || &bb != &f_.getEntryBlock()) refuse(&I, "a variable-sized private array is not supported");
        const uint64_t bytes = dl_.getTypeAllocSize(a->getAllocatedType()) * size->getZExtValue();
        out_.frameBytes = (out_.frameBytes + 3u) & ~3u;
        allocaOffset_[a] = out_.frameBytes;
        out_.frameBytes += static_cast<uint32_t>((bytes + 3) & ~uint64_t{3});
        out_.usesFrame = true;
        continue;
      }
      if (const auto* vt = dyn_cast<FixedVectorType>(I.getType())) {
        // Vector phis and calls that take or give vectors are scalarised before lowering
        // (float_builtins.h, scalarizeVectorLoads); what is left here is not lowered.
        if (isa<PHINode>(I)) refuse(&I, "a vector phi (" + typeName(vt) + ") is not supported");
        if (const auto* call = dyn_cast<CallInst>(&I)) {
          const Function* callee = call->getCalledFunction();
          refuse(&I, "the call" +
                         (callee ? " to '" + demangle(callee->getName().str()).name + "'"
                                 : std::string()) +
                         " returns a vector (" + typeName(vt) + "), which is not supported");
        }
        std::vector<int>& regs = vecRegs_[&I];
        for (unsigned k = 0; k < vt->getNumElements(); ++k) regs.push_back(out_.mf.newVReg());
      } else if (!I.getType()->isVoidTy()) {
        vregs_[&I] = out_.mf.newVReg();
      }
    }
  }
  out_.mf.name = f_.getName().str();
  startBlock(mode_.isKernel ? "entry" : subroutineLabel(f_));
  cur_ = f_.getEntryBlock().getFirstNonPHIOrDbg();
  prologue();
  for (auto& [a, off] : allocaOffset_) {
    cur_ = a;
    const int r = vreg();
    emit("add", V(r), {Opnd::preg(kFramePointer), Opnd::imm32(off)});
    vregs_[a] = r;
  }
  bool first = true;
  for (BasicBlock& bb : f_) {
    if (first) {
      emit("bra", {}, {Opnd::label(blockLabel(&bb))});
      first = false;
    }
    startBlock(blockLabel(&bb));
    scaledIndex_.clear();
    for (Instruction& I : bb) {
      cur_ = &I;
      if (I.isTerminator()) {
        lowerTerminator(bb);
      } else {
        lowerInst(I);
      }
    }
  }
  // `@p bra NEXT; bra Y` becomes `@!p bra Y`, and `@p bra NEXT; exit` becomes `@!p exit`
  // (the work-items that leave exit where they are, the others fall through): one branch
  // fewer on every execution.
  auto& blocks = out_.mf.blocks;
  for (size_t b = 0; b + 1 < blocks.size(); ++b) {
    auto& insts = blocks[b].insts;
    if (insts.size() >= 2) {
      MInst& cond = insts[insts.size() - 2];
      const MInst& uncond = insts.back();
      if (cond.op == "bra" && cond.guard >= 0 && (uncond.op == "bra" || uncond.op == "exit") &&
          uncond.guard < 0 && cond.srcs[0].text == blocks[b + 1].label) {
        cond.guardNeg = !cond.guardNeg;
        cond.op = uncond.op;
        cond.srcs = uncond.srcs;
        insts.pop_back();
      }
    }
  }
  // Drop a branch to the next block.
  for (size_t b = 0; b + 1 < blocks.size(); ++b) {
    auto& insts = blocks[b].insts;
    if (!insts.empty() && insts.back().op == "bra" && insts.back().guard < 0 &&
        insts.back().srcs[0].text == blocks[b + 1].label) {
      insts.pop_back();
    }
  }
  return std::move(out_);
}

void Lowering::lowerInst(Instruction& I) {
  if (isa<PHINode>(I) || isa<AllocaInst>(I)) return;  // phis: copies on the edges
  if (bool high; I.getType()->isIntegerTy(64) && i64ArgumentWord(I, &high)) return;  // a param word (prologue)
  bool vector = I.getType()->isVectorTy();
  for (const Use& u : I.operands()) vector |= u->getType()->isVectorTy();
  if (vector) {
    if (const auto* call = dyn_cast<CallInst>(&I); call && !isa<DbgInfoIntrinsic>(call)) {
      const Function* callee = call->getCalledFunction();
      refuse(&I,
             "the call" +
                 (callee ? " to '" + demangle(callee->getName().str()).name + "'" : std::string()) +
                 " takes a vector argument, which is not supported");
    }
    if (!isa<DbgInfoIntrinsic>(I)) return lowerVector(I);
  }
  if (fusable(I)) return;                             // compare lowered at its branch/select
  if (auto* b = dyn_cast<BinaryOperator>(&I)) return lowerBinary(*b);
  if (auto* c = dyn_cast<CastInst>(&I)) return lowerCast(*c);
  if (auto* l = dyn_cast<LoadInst>(&I)) return lowerLoad(*l);
  if (auto* s = dyn_cast<StoreInst>(&I)) return lowerStore(*s);
  if (auto* g = dyn_cast<GetElementPtrInst>(&I)) return lowerGep(*g);
  if (auto* c = dyn_cast<CallInst>(&I)) return lowerCall(*c);
  if (auto* c = dyn_cast<CmpInst>(&I)) {
    if (auto* ic = dyn_cast<ICmpInst>(c)) compare(ic);
    else fcompare(cast<FCmpInst>(c));
    const int r = vregs_.at(&I);
    emit("mov", V(r), {Opnd::imm32(0)});
    emit("mov", V(r), {Opnd::imm32(1)}).guard = 0;
    return;
  }
  if (auto* s = dyn_cast<SelectInst>(&I)) {
    const Pred p = condition(s->getCondition());
    const int a = reg(s->getTrueValue());
    const int b = reg(s->getFalseValue());
    emit("selp", V(vregs_.at(&I)), {V(a), V(b), Opnd::pred(p.p)});
    return;
  }
  if (auto* fr = dyn_cast<FreezeInst>(&I)) {
    emit("mov", V(vregs_.at(&I)), {V(reg(fr->getOperand(0)))});
    return;
  }
  if (isa<FenceInst>(I)) {
    emit("membar", {}, {});
    return;
  }
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) refuse(&I, "C11-style atomics are not supported (use the OpenCL 1.2 atomic_* functions)");
  if (isa<ExtractValueInst>(I) || isa<InsertValueInst>(I)) refuse(&I, "aggregate values are not supported");
  if (auto* u = dyn_cast<UnaryOperator>(&I); u && u->getOpcode() == Instruction::FNeg) {
    emit("fneg", V(vregs_.at(&I)), {V(reg(u->getOperand(0)))});
    return;
  }
  refuse(&I, std::string("the LLVM instruction '") + I.getOpcodeName() + "' is not supported");
}

// Whether element k of vector v is undefined (poison, undef, or a shuffle's -1), following
// insertelement and shufflevector: such elements get no copies, so the Scalarizer's chains
// of insertelement into poison cost nothing beyond the elements they set.
bool Lowering::elemUndefined(const Value* v, unsigned k) const {
  const auto* vt = cast<FixedVectorType>(v->getType());
  if (k >= vt->getNumElements()) return true;
  if (const auto* c = dyn_cast<Constant>(v)) {
    const Constant* e = c->getAggregateElement(k);
    return !e || isa<UndefValue>(e);
  }
  if (const auto* ins = dyn_cast<InsertElementInst>(v)) {
    const auto* idx = dyn_cast<ConstantInt>(ins->getOperand(2));
    if (!idx) return false;
    if (idx->getZExtValue() == k) return isa<UndefValue>(ins->getOperand(1));
    return elemUndefined(ins->getOperand(0), k);
  }
  if (const auto* sh = dyn_cast<ShuffleVectorInst>(v)) {
    const int m = sh->getMaskValue(k);
    if (m < 0) return true;
    const unsigned n0 = cast<FixedVectorType>(sh->getOperand(0)->getType())->getNumElements();
    const unsigned mu = static_cast<unsigned>(m);
    return mu < n0 ? elemUndefined(sh->getOperand(0), mu)
                   : elemUndefined(sh->getOperand(1), mu - n0);
  }
  return false;
}

// The register of element k of a vector value (a constant's element materialised; an
// undefined element is 0).
int Lowering::elem(const Value* v, unsigned k) {
  if (elemUndefined(v, k)) return mov(Opnd::imm32(0));
  if (const auto* c = dyn_cast<Constant>(v)) return reg(c->getAggregateElement(k));
  const auto it = vecRegs_.find(v);
  if (it == vecRegs_.end()) return reg(v);  // refuses, naming the value
  return it->second.at(k);
}

void Lowering::lowerVector(Instruction& I) {
  if (auto* l = dyn_cast<LoadInst>(&I)) return lowerVectorLoad(*l);
  if (auto* st = dyn_cast<StoreInst>(&I)) return lowerVectorStore(*st);
  auto n = [](const Value* v) { return cast<FixedVectorType>(v->getType())->getNumElements(); };
  if (auto* ee = dyn_cast<ExtractElementInst>(&I)) {
    const auto* idx = dyn_cast<ConstantInt>(ee->getIndexOperand());
    if (!idx) refuse(&I, "extractelement with an index that is not a constant is not supported");
    emit("mov", V(vregs_.at(&I)),
         {V(elem(ee->getVectorOperand(), static_cast<unsigned>(idx->getZExtValue())))});
    return;
  }
  const auto vit = vecRegs_.find(&I);
  if (vit == vecRegs_.end()) {
    refuse(&I, std::string("the LLVM instruction '") + I.getOpcodeName() +
                   "' on vectors is not supported");
  }
  const std::vector<int>& d = vit->second;
  // Every element that is defined gets a copy from where it comes from (coalescing removes
  // most: docs/compiler.md).
  auto copyFrom = [&](unsigned k, const Value* src, unsigned j) {
    if (!elemUndefined(&I, k)) emit("mov", V(d[k]), {V(elem(src, j))});
  };
  if (auto* ins = dyn_cast<InsertElementInst>(&I)) {
    const auto* idx = dyn_cast<ConstantInt>(ins->getOperand(2));
    if (!idx) refuse(&I, "insertelement with an index that is not a constant is not supported");
    for (unsigned k = 0; k < d.size(); ++k) {
      if (k != idx->getZExtValue()) {
        copyFrom(k, ins->getOperand(0), k);
      } else if (!isa<UndefValue>(ins->getOperand(1))) {
        emit("mov", V(d[k]), {V(reg(ins->getOperand(1)))});
      }
    }
    return;
  }
  if (auto* sh = dyn_cast<ShuffleVectorInst>(&I)) {
    const unsigned n0 = n(sh->getOperand(0));
    for (unsigned k = 0; k < d.size(); ++k) {
      const int m = sh->getMaskValue(k);
      if (m < 0) continue;
      const unsigned mu = static_cast<unsigned>(m);
      if (mu < n0)
        copyFrom(k, sh->getOperand(0), mu);
      else
        copyFrom(k, sh->getOperand(1), mu - n0);
    }
    return;
  }
  const bool sameShape = I.getNumOperands() == 1 && I.getOperand(0)->getType()->isVectorTy() &&
                         n(I.getOperand(0)) == d.size() && wordElements(I.getType()) &&
                         wordElements(I.getOperand(0)->getType());
  if ((isa<BitCastInst>(I) || isa<FreezeInst>(I)) && sameShape) {
    for (unsigned k = 0; k < d.size(); ++k) copyFrom(k, I.getOperand(0), k);
    return;
  }
  refuse(&I, std::string("the vector operation '") + I.getOpcodeName() + "' on " +
                 typeName(I.getType()) + " is not supported");
}

Lowering::VectorAccess Lowering::vectorAccess(const Value* ptr, Align align) {
  VectorAccess acc;
  acc.base = address(ptr);
  // ld/st.global.v4 need a 16-byte aligned global address; __local, __constant and the
  // private frame (whose per-work-item base is only word aligned) take one word at a time.
  acc.v4 = cast<PointerType>(ptr->getType())->getAddressSpace() == kAsGlobal && align.value() >= 16;
  return acc;
}

void Lowering::lowerVectorLoad(LoadInst& I) {
  auto* vt = cast<FixedVectorType>(I.getType());
  if (!wordElements(vt))
    refuse(&I, "a load of " + typeName(vt) + " (elements other than 32 bits) is not supported");
  const std::vector<int>& d = vecRegs_.at(&I);
  const unsigned n = vt->getNumElements();
  const std::string op = "ld." + memSpace(I.getPointerAddressSpace(), I);
  const VectorAccess acc = vectorAccess(I.getPointerOperand(), I.getAlign());
  const auto at = [&](unsigned k) { return acc.word(k); };
  const bool v4 = acc.v4;
  for (unsigned c = 0; c < n; c += 4) {
    if (v4 && c + 4 <= n) {
      const std::array<int, 4> t = tupleRegs();
      emit("ld.global.v4", V(t[0]), {at(c)}).tupleRest = {V(t[1]), V(t[2]), V(t[3])};
      for (unsigned k = 0; k < 4; ++k) emit("mov", V(d[c + k]), {V(t[k])});
      loadedTuple_ = {n == 4 ? &I : nullptr, t};
      continue;
    }
    for (unsigned k = c; k < std::min(n, c + 4); ++k) emit(op, V(d[k]), {at(k)});
  }
}

void Lowering::lowerVectorStore(StoreInst& I) {
  const Value* v = I.getValueOperand();
  auto* vt = cast<FixedVectorType>(v->getType());
  if (!wordElements(vt))
    refuse(&I, "a store of " + typeName(vt) + " (elements other than 32 bits) is not supported");
  const unsigned n = vt->getNumElements();
  const std::string op = "st." + memSpace(I.getPointerAddressSpace(), I);
  const VectorAccess acc = vectorAccess(I.getPointerOperand(), I.getAlign());
  const auto at = [&](unsigned k) { return acc.word(k); };
  const bool v4 = acc.v4;
  for (unsigned c = 0; c < n; c += 4) {
    if (v4 && c + 4 <= n) {
      std::array<int, 4> t{};
      if (loadedTuple_.first == v) {
        t = loadedTuple_.second;
      } else {
        t = tupleRegs();
        for (unsigned k = 0; k < 4; ++k) emit("mov", V(t[k]), {V(elem(v, c + k))});
      }
      emit("st.global.v4", {}, {at(c), V(t[0])}).tupleRest = {V(t[1]), V(t[2]), V(t[3])};
      loadedTuple_.first = nullptr;
      continue;
    }
    for (unsigned k = c; k < std::min(n, c + 4); ++k) {
      if (!elemUndefined(v, k)) emit(op, {}, {at(k), V(elem(v, k))});
    }
  }
}

// fadd fsub fmul fdiv: the FPU's instructions (fdiv is correctly rounded: docs/isa.md).
void Lowering::lowerFloatBinary(BinaryOperator& I) {
  const int d = vregs_.at(&I);
  const Value* a = I.getOperand(0);
  const Value* b = I.getOperand(1);
  const char* op = nullptr;
  switch (I.getOpcode()) {
    case Instruction::FAdd: op = "fadd"; break;
    case Instruction::FSub: op = "fsub"; break;
    case Instruction::FMul: op = "fmul"; break;
    case Instruction::FDiv: op = "fdiv"; break;
    default: refuse(&I, std::string("the float operation '") + I.getOpcodeName() + "' is not supported (fmod: use the built-in)");
  }
  if (I.isCommutative() && isa<ConstantFP>(a) && !isa<ConstantFP>(b)) std::swap(a, b);
  emit(op, V(d), {V(reg(a)), fregOrImm(b)});
}

void Lowering::lowerBinary(BinaryOperator& I) {
  if (I.getType()->isFloatTy()) return lowerFloatBinary(I);
  const int d = vregs_.at(&I);
  const int bits = bitsOf(I.getType());
  const Value* a = I.getOperand(0);
  const Value* b = I.getOperand(1);
  auto simple = [&](const std::string& op, bool commutative) {
    if (commutative && isa<ConstantInt>(a) && !isa<ConstantInt>(b)) std::swap(a, b);
    emit(op, V(d), {V(reg(a)), regOrImm(b)});
  };
  auto pow2 = [&](const Value* v) -> int {
    if (const auto* c = dyn_cast<ConstantInt>(v); c && c->getValue().isPowerOf2()) return static_cast<int>(c->getValue().logBase2());
    return -1;
  };
  switch (I.getOpcode()) {
    case Instruction::Add: return simple(bits == 1 ? "xor" : "add", true);
    case Instruction::Sub: return simple(bits == 1 ? "xor" : "sub", false);
    case Instruction::Mul: return simple(bits == 1 ? "and" : "mul", true);
    case Instruction::And: return simple("and", true);
    case Instruction::Or: return simple("or", true);
    case Instruction::Xor: return simple("xor", true);
    case Instruction::Shl: return simple("shl", false);
    case Instruction::LShr: emit("shr", V(d), {V(zextTo32(a)), regOrImm(b)}); return;
    case Instruction::AShr: emit("sra", V(d), {V(sextTo32(a)), regOrImm(b)}); return;
    case Instruction::UDiv:
    case Instruction::URem: {
      const int k = pow2(b);
      const bool div = I.getOpcode() == Instruction::UDiv;
      if (k >= 0) {
        if (div) emit("shr", V(d), {V(zextTo32(a)), Opnd::imm32(k)});
        else emit("and", V(d), {V(reg(a)), Opnd::imm32((int64_t{1} << k) - 1)});
        return;
      }
      if (const auto* c = dyn_cast<ConstantInt>(b); c && !c->isZero()) {
        const uint32_t dv = static_cast<uint32_t>(c->getZExtValue());
        const int n = zextTo32(a);
        const int q = udivConst(n, dv);
        if (div) emit("mov", V(d), {V(q)});
        else emit("sub", V(d), {V(n), V(op3("mul", q, Opnd::imm32(dv)))});
        return;
      }
      int q = -1, r = -1;
      const int bb = zextTo32(b);
      udivrem(zextTo32(a), bb, div ? &q : nullptr, div ? nullptr : &r);
      emit("mov", V(d), {V(div ? q : r)});
      return;
    }
    case Instruction::SDiv:
    case Instruction::SRem: {
      const bool div = I.getOpcode() == Instruction::SDiv;
      if (const auto* c = dyn_cast<ConstantInt>(b); c && !c->isZero()) {
        const int32_t dv = static_cast<int32_t>(c->getSExtValue());
        const int n = sextTo32(a);
        const int q = sdivConst(n, dv);
        if (div) emit("mov", V(d), {V(q)});
        else emit("sub", V(d), {V(n), V(op3("mul", q, Opnd::imm32(dv)))});
        return;
      }
      int q = -1, r = -1;
      sdivrem(a, b, div ? &q : nullptr, div ? nullptr : &r);
      emit("mov", V(d), {V(div ? q : r)});
      return;
    }
    default:
      refuse(&I, std::string("the operation '") + I.getOpcodeName() + "' is not supported");
  }
}

void Lowering::lowerCast(CastInst& I) {
  const int d = vregs_.at(&I);
  const Value* a = I.getOperand(0);
  switch (I.getOpcode()) {
    case Instruction::Trunc:
      if (bitsOf(I.getType()) == 1) {
        emit("and", V(d), {V(reg(a)), Opnd::imm32(1)});
      } else {
        emit("mov", V(d), {V(reg(a))});
      }
      return;
    case Instruction::ZExt: emit("mov", V(d), {V(zextTo32(a))}); return;
    case Instruction::SExt: emit("mov", V(d), {V(sextTo32(a))}); return;
    case Instruction::PtrToInt:
    case Instruction::IntToPtr:
    case Instruction::BitCast:
      emit("mov", V(d), {V(reg(a))});
      return;
    // int <-> float: the FPU's conversions; rn to float, rz (C's cast, saturating) to int.
    case Instruction::SIToFP: emit("fcvt.f32.s32.rn", V(d), {V(sextTo32(a))}); return;
    case Instruction::UIToFP: emit("fcvt.f32.u32.rn", V(d), {V(zextTo32(a))}); return;
    case Instruction::FPToSI: emit("fcvt.s32.f32.rz", V(d), {V(reg(a))}); return;
    case Instruction::FPToUI: emit("fcvt.u32.f32.rz", V(d), {V(reg(a))}); return;
    case Instruction::AddrSpaceCast: refuse(&I, "address-space casts (generic pointers) are not supported");
    default: refuse(&I, std::string("the conversion '") + I.getOpcodeName() + "' is not supported");
  }
}

void Lowering::lowerGep(GetElementPtrInst& I) {
  if (foldable(I)) return;  // folded into its loads and stores
  const int d = vregs_.at(&I);
  int acc = reg(I.getPointerOperand());
  bool accIsTemp = false;
  int64_t imm = 0;
  for (auto it = gep_type_begin(I); it != gep_type_end(I); ++it) {
    const Value* idx = it.getOperand();
    if (StructType* st = it.getStructTypeOrNull()) {
      imm += static_cast<int64_t>(dl_.getStructLayout(st)->getElementOffset(cast<ConstantInt>(idx)->getZExtValue()));
      continue;
    }
    const int64_t size = static_cast<int64_t>(dl_.getTypeAllocSize(it.getIndexedType()));
    if (const auto* c = dyn_cast<ConstantInt>(idx)) {
      imm += c->getSExtValue() * size;
      continue;
    }
    int& scaled = scaledIndex_[{idx, size}];  // one scaled index per block and element size
    if (scaled == 0) {
      const int i = sextTo32(idx);
      if (size > 0 && (size & (size - 1)) == 0) {
        int k = 0;
        while ((int64_t{1} << k) < size) ++k;
        scaled = 1 + (k == 0 ? i : op3("shl", i, Opnd::imm32(k)));
      } else {
        scaled = 1 + op3("mul", i, Opnd::imm32(size));
      }
    }
    acc = op3("add", acc, V(scaled - 1));
    accIsTemp = true;
  }
  if (imm == 0 && accIsTemp) {
    block().insts.back().dst = V(d);  // the last add writes the GEP's register
  } else {
    emit("add", V(d), {V(acc), Opnd::imm32(static_cast<int32_t>(imm))});
  }
}

void Lowering::lowerLoad(LoadInst& I) {
  const int d = vregs_.at(&I);
  const unsigned as = I.getPointerAddressSpace();
  const std::string op = "ld." + memSpace(as, I);
  const int bits = bitsOf(I.getType());
  if (I.getType()->getPrimitiveSizeInBits() == 32) {
    emit(op, V(d), {address(I.getPointerOperand())});
    return;
  }
  // A byte or half-word: the word that holds it, shifted down.
  const int a = addressReg(I.getPointerOperand());
  const int w = op3("and", a, Opnd::imm32(-4));
  const int sh = op3("shl", op3("and", a, Opnd::imm32(3)), Opnd::imm32(3));
  const int word = vreg();
  emit(op, V(word), {Opnd::mem(w, true, 0)});
  if (bits == 1) {
    emit("and", V(d), {V(op3("shr", word, V(sh))), Opnd::imm32(1)});
  } else {
    emit("shr", V(d), {V(word), V(sh)});
  }
}

void Lowering::lowerStore(StoreInst& I) {
  const unsigned as = I.getPointerAddressSpace();
  const std::string space = memSpace(as, I);
  const Value* v = I.getValueOperand();
  const unsigned bits = static_cast<unsigned>(dl_.getTypeStoreSizeInBits(v->getType()));
  if (bits == 32) {
    emit("st." + space, {}, {address(I.getPointerOperand()), V(reg(v))});
    return;
  }
  // A byte or half-word: clear and set it with two atomics, so that work-items storing to
  // other bytes of the same word at the same time do not lose their stores.
  const int a = addressReg(I.getPointerOperand());
  const int w = op3("and", a, Opnd::imm32(-4));
  const int sh = op3("shl", op3("and", a, Opnd::imm32(3)), Opnd::imm32(3));
  const int64_t mask = bits == 8 ? 0xff : 0xffff;
  const int m = op3("shl", mov(Opnd::imm32(mask)), V(sh));
  const int keep = vreg();
  emit("not", V(keep), {V(m)});
  const int val = op3("shl", op3("and", reg(v), Opnd::imm32(mask)), V(sh));
  emit("atom." + space + ".and", V(vreg()), {Opnd::mem(w, true, 0), V(keep)});
  emit("atom." + space + ".or", V(vreg()), {Opnd::mem(w, true, 0), V(val)});
}

int Lowering::popcount(int x) {
  const int a = op3("sub", x, V(op3("and", op3("shr", x, Opnd::imm32(1)), Opnd::imm32(0x55555555))));
  const int b = op3("add", op3("and", a, Opnd::imm32(0x33333333)), V(op3("and", op3("shr", a, Opnd::imm32(2)), Opnd::imm32(0x33333333))));
  const int c = op3("and", op3("add", b, V(op3("shr", b, Opnd::imm32(4)))), Opnd::imm32(0x0f0f0f0f));
  return op3("shr", op3("mul", c, Opnd::imm32(0x01010101)), Opnd::imm32(24));
}

int Lowering::satAdd(int a, int b, bool sub, bool isSigned) {
  const int s = op3(sub ? "sub" : "add", a, V(b));
  if (!isSigned) {
    if (sub) {
      emit("setp.ltu", Opnd::pred(1), {V(a), V(b)});
      emit("mov", V(s), {Opnd::imm32(0)}).guard = 1;
    } else {
      emit("setp.ltu", Opnd::pred(1), {V(s), V(a)});
      emit("mov", V(s), {Opnd::imm32(-1)}).guard = 1;
    }
    return s;
  }
  // Overflow: add when a and b agree in sign and s does not; sub when a and b differ and s
  // differs from a.
  const int t = sub ? op3("and", op3("xor", a, V(b)), V(op3("xor", a, V(s))))
                    : op3("and", op3("xor", a, V(s)), V(op3("xor", b, V(s))));
  emit("setp.lt", Opnd::pred(1), {V(t), Opnd::imm32(0)});
  const int sat = op3("xor", op3("sra", a, Opnd::imm32(31)), Opnd::imm32(0x7fffffff));
  emit("mov", V(s), {V(sat)}).guard = 1;
  return s;
}

void Lowering::lowerIntrinsic(IntrinsicInst& I) {
  const Intrinsic::ID id = I.getIntrinsicID();
  switch (id) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::assume:
    case Intrinsic::dbg_value:
    case Intrinsic::dbg_declare:
    case Intrinsic::dbg_label:
    case Intrinsic::experimental_noalias_scope_decl:
      return;
    default: break;
  }
  if (lowerFloatIntrinsic(I)) return;
  const int d = I.getType()->isVoidTy() ? -1 : vregs_.at(&I);
  auto arg = [&](unsigned i) { return I.getArgOperand(i); };
  switch (id) {
    case Intrinsic::smin: emit("min", V(d), {V(sextTo32(arg(0))), extended(arg(1), true)}); return;
    case Intrinsic::smax: emit("max", V(d), {V(sextTo32(arg(0))), extended(arg(1), true)}); return;
    case Intrinsic::umin: emit("minu", V(d), {V(zextTo32(arg(0))), extended(arg(1), false)}); return;
    case Intrinsic::umax: emit("maxu", V(d), {V(zextTo32(arg(0))), extended(arg(1), false)}); return;
    case Intrinsic::abs: {
      const int x = sextTo32(arg(0));
      const int s = op3("sra", x, Opnd::imm32(31));
      emit("sub", V(d), {V(op3("xor", x, V(s))), V(s)});
      return;
    }
    case Intrinsic::fshl:
    case Intrinsic::fshr: {
      if (bitsOf(I.getType()) != 32) break;
      const int hi = reg(arg(0)), lo = reg(arg(1));
      if (const auto* c = dyn_cast<ConstantInt>(arg(2))) {
        // By a constant (InstCombine's form of a split 64-bit shift): two shifts and an or.
        const int k = static_cast<int>(c->getZExtValue() & 31);
        const bool left = id == Intrinsic::fshl;
        if (k == 0) {
          emit("mov", V(d), {V(left ? hi : lo)});
          return;
        }
        const int l = op3("shl", hi, Opnd::imm32(left ? k : 32 - k));
        emit("or", V(d), {V(l), V(op3("shr", lo, Opnd::imm32(left ? 32 - k : k)))});
        return;
      }
      const int n = op3("and", reg(arg(2)), Opnd::imm32(31));
      const int m = op3("and", op3("sub", mov(Opnd::imm32(32)), V(n)), Opnd::imm32(31));
      // fshl: (hi << n) | (lo >> (32 - n)), n = 0 gives hi; fshr: (hi << (32-n)) | (lo >> n).
      const int l = id == Intrinsic::fshl ? op3("shl", hi, V(n)) : op3("shr", lo, V(n));
      int r = id == Intrinsic::fshl ? op3("shr", lo, V(m)) : op3("shl", hi, V(m));
      emit("setp.eq", Opnd::pred(1), {V(n), Opnd::imm32(0)});
      emit("mov", V(r), {Opnd::imm32(0)}).guard = 1;
      emit("or", V(d), {V(l), V(r)});
      return;
    }
    case Intrinsic::memcpy:
    case Intrinsic::memmove:
    case Intrinsic::memset: {
      // Small word-aligned copies and fills (struct assignment, array initialisers): one
      // word at a time (a memmove copies through registers first, so overlap is safe).
      const auto* len = dyn_cast<ConstantInt>(arg(2));
      const auto* mi = cast<MemIntrinsic>(&I);
      const uint64_t align = mi->getDestAlign() ? mi->getDestAlign()->value() : 1;
      uint64_t srcAlign = 4;
      if (const auto* mt = dyn_cast<MemTransferInst>(&I)) srcAlign = mt->getSourceAlign() ? mt->getSourceAlign()->value() : 1;
      // Larger ones (a loop LLVM's loop-idiom pass turned into a memset or memcpy, a big
      // array initialiser) become a uniform loop over the words; a large memmove, whose
      // direction depends on the addresses, is refused.
      const bool wordAligned = len && len->getZExtValue() % 4 == 0 && align >= 4 && srcAlign >= 4;
      const bool large = wordAligned && len->getZExtValue() > 256;
      if (!wordAligned || (large && id == Intrinsic::memmove)) {
        refuse(&I, "a memory copy or fill that is not a small multiple of aligned words is not supported");
      }
      const int words = static_cast<int>(len->getZExtValue() / 4);
      const std::string dsp = memSpace(I.getArgOperand(0)->getType()->getPointerAddressSpace(), I);
      if (id == Intrinsic::memset) {
        const auto* v = dyn_cast<ConstantInt>(arg(1));
        int val;
        if (v) {
          const uint32_t b = static_cast<uint32_t>(v->getZExtValue() & 0xff);
          val = mov(Opnd::imm32(b * 0x01010101u));
        } else {
          val = op3("mul", op3("and", reg(arg(1)), Opnd::imm32(0xff)), Opnd::imm32(0x01010101));
        }
        if (large) {
          wordLoop(dsp, addressReg(arg(0)), "", -1, val, words);
          return;
        }
        for (int w = 0; w < words; ++w) emit("st." + dsp, {}, {address(arg(0), 4 * w), V(val)});
        return;
      }
      const std::string ssp = memSpace(I.getArgOperand(1)->getType()->getPointerAddressSpace(), I);
      if (large) {
        wordLoop(dsp, addressReg(arg(0)), ssp, addressReg(arg(1)), -1, words);
        return;
      }
      std::vector<int> tmp;
      for (int w = 0; w < words; ++w) {
        const int t = vreg();
        emit("ld." + ssp, V(t), {address(arg(1), 4 * w)});
        tmp.push_back(t);
      }
      for (int w = 0; w < words; ++w) emit("st." + dsp, {}, {address(arg(0), 4 * w), V(tmp[static_cast<size_t>(w)])});
      return;
    }
    case Intrinsic::bitreverse:
      if (bitsOf(I.getType()) != 1) break;
      emit("mov", V(d), {V(reg(arg(0)))});  // one bit reversed is itself
      return;
    case Intrinsic::ctpop:
      if (bitsOf(I.getType()) != 32) break;
      emit("mov", V(d), {V(popcount(reg(arg(0))))});
      return;
    case Intrinsic::ctlz: {
      if (bitsOf(I.getType()) != 32) break;
      int x = reg(arg(0));
      for (int s : {1, 2, 4, 8, 16}) x = op3("or", x, V(op3("shr", x, Opnd::imm32(s))));
      emit("sub", V(d), {V(mov(Opnd::imm32(32))), V(popcount(x))});
      return;
    }
    case Intrinsic::uadd_sat:
    case Intrinsic::usub_sat:
    case Intrinsic::sadd_sat:
    case Intrinsic::ssub_sat: {
      if (bitsOf(I.getType()) != 32) break;
      const bool sub = id == Intrinsic::usub_sat || id == Intrinsic::ssub_sat;
      const bool sgn = id == Intrinsic::sadd_sat || id == Intrinsic::ssub_sat;
      emit("mov", V(d), {V(satAdd(reg(arg(0)), reg(arg(1)), sub, sgn))});
      return;
    }
    default: break;
  }
  refuse(&I, "the LLVM intrinsic '" + I.getCalledFunction()->getName().str() + "' is not supported");
}

// floor/ceil/trunc/rint of x: |x| >= 2^23 (or NaN, infinity) is integral already (NaN
// canonical through fadd 0); else convert to s32 with the mode and back, with x's sign (so
// ceil(-0.5) = -0).
int Lowering::roundToIntegral(int x, const char* mode) {
  const int i = vreg();
  emit(std::string("fcvt.s32.f32.") + mode, V(i), {V(x)});
  const int f = vreg();
  emit("fcvt.f32.s32.rn", V(f), {V(i)});
  const int signed_ = op3("or", op3("and", f, Opnd::imm32(0x7fffffff)), V(op3("and", x, Opnd::imm32(static_cast<int64_t>(0x80000000u)))));
  const int ax = vreg();
  emit("fabs", V(ax), {V(x)});
  emit("fsetp.geu", Opnd::pred(1), {V(ax), Opnd::fimm(0x4b000000u)});  // 2^23, or NaN
  emit("fadd", V(signed_), {V(x), Opnd::fimm(0)}).guard = 1;            // x itself (NaN canonical)
  return signed_;
}

// LLVM's float intrinsics that are one FPU instruction or a short sequence; false if I is
// not one of them.
bool Lowering::lowerFloatIntrinsic(IntrinsicInst& I) {
  if (!I.getType()->isFloatTy()) return false;
  const int d = vregs_.at(&I);
  auto arg = [&](unsigned i) { return I.getArgOperand(i); };
  switch (I.getIntrinsicID()) {
    case Intrinsic::fabs: emit("fabs", V(d), {V(reg(arg(0)))}); return true;
    case Intrinsic::sqrt: emit("fsqrt", V(d), {V(reg(arg(0)))}); return true;
    case Intrinsic::fma:
    case Intrinsic::fmuladd: {
      const Value* a = arg(0);
      const Value* b = arg(1);
      if (isa<ConstantFP>(a) && !isa<ConstantFP>(b)) std::swap(a, b);
      emit("ffma", V(d), {V(reg(a)), fregOrImm(b), V(reg(arg(2)))});
      return true;
    }
    case Intrinsic::minnum:
    case Intrinsic::maxnum: {
      const Value* a = arg(0);
      const Value* b = arg(1);
      if (isa<ConstantFP>(a) && !isa<ConstantFP>(b)) std::swap(a, b);
      emit(I.getIntrinsicID() == Intrinsic::minnum ? "fmin" : "fmax", V(d), {V(reg(a)), fregOrImm(b)});
      return true;
    }
    case Intrinsic::copysign: {
      const int mag = op3("and", reg(arg(0)), Opnd::imm32(0x7fffffff));
      const int sgn = op3("and", reg(arg(1)), Opnd::imm32(static_cast<int64_t>(0x80000000u)));
      emit("or", V(d), {V(mag), V(sgn)});
      return true;
    }
    case Intrinsic::floor: emit("mov", V(d), {V(roundToIntegral(reg(arg(0)), "rm"))}); return true;
    case Intrinsic::ceil: emit("mov", V(d), {V(roundToIntegral(reg(arg(0)), "rp"))}); return true;
    case Intrinsic::trunc: emit("mov", V(d), {V(roundToIntegral(reg(arg(0)), "rz"))}); return true;
    case Intrinsic::rint:
    case Intrinsic::nearbyint:
    case Intrinsic::roundeven: emit("mov", V(d), {V(roundToIntegral(reg(arg(0)), "rn"))}); return true;
    case Intrinsic::round: {  // half away from zero: trunc(x + copysign(0.5 - 2^-25, x)) is wrong
      // near 0.5 - ulp; use trunc(|x| + 0.5) when |x| < 2^23 with the exact tie test instead:
      // t = trunc(x); if |x - t| >= 0.5 then t += copysign(1, x).
      const int x = reg(arg(0));
      const int t = roundToIntegral(x, "rz");
      const int diff = vreg();
      emit("fsub", V(diff), {V(x), V(t)});
      emit("fabs", V(diff), {V(diff)});
      const int one = op3("or", op3("and", x, Opnd::imm32(static_cast<int64_t>(0x80000000u))), Opnd::imm32(0x3f800000));
      emit("mov", V(d), {V(t)});
      emit("fsetp.ge", Opnd::pred(1), {V(diff), Opnd::fimm(0x3f000000u)});
      emit("fadd", V(d), {V(t), V(one)}).guard = 1;
      return true;
    }
    case Intrinsic::canonicalize: emit("fadd", V(d), {V(reg(arg(0))), Opnd::fimm(0x80000000u)}); return true;
    default: return false;
  }
}

void Lowering::lowerAtomic(CallInst& I, const std::string& name, const BuiltinName& b) {
  const std::string op = name.substr(name.find('_') + 1);
  const int as = b.params.empty() ? 0 : pointerAddressSpace(b.params[0]);
  if (as != kAsGlobal && as != kAsLocal) refuse(&I, name + " on this address space is not supported");
  const char ty = b.params.empty() ? '?' : pointeeType(b.params[0]);
  if (ty != 'i' && ty != 'j') refuse(&I, name + " on this element type is not supported (32-bit int and uint only)");
  const std::string space = as == kAsLocal ? "shared" : "global";
  const Opnd m = address(I.getArgOperand(0));
  const int d = vregs_.at(&I);
  auto rmw = [&](const std::string& aop, int operand) { emit("atom." + space + "." + aop, V(d), {m, V(operand)}); };
  if (op == "add") return rmw("add", reg(I.getArgOperand(1)));
  if (op == "sub") return rmw("add", op3("mul", reg(I.getArgOperand(1)), Opnd::imm32(-1)));
  if (op == "inc") return rmw("add", mov(Opnd::imm32(1)));
  if (op == "dec") return rmw("add", mov(Opnd::imm32(-1)));
  if (op == "xchg") return rmw("exch", reg(I.getArgOperand(1)));
  if (op == "and" || op == "or" || op == "xor") return rmw(op, reg(I.getArgOperand(1)));
  if (op == "min" || op == "max") {
    if (ty != 'j') return rmw(op, reg(I.getArgOperand(1)));
    // uint: the core's atomic min/max are signed, so a compare-and-swap loop. Every round
    // some lane's swap succeeds (lanes act in ascending order), the others retry.
    const int v = reg(I.getArgOperand(1));
    const std::string space2 = space;
    const int addr = addressReg(I.getArgOperand(0));
    const std::string loop = newLabel();
    emit("bra", {}, {Opnd::label(loop)});
    startBlock(loop);
    emit("ld." + space2, V(d), {Opnd::mem(addr, true, 0)});
    const int nv = op3(op == "min" ? "minu" : "maxu", d, V(v));
    const int got = vreg();
    emit("atom." + space2 + ".cas", V(got), {Opnd::mem(addr, true, 0), V(d), V(nv)});
    emit("setp.ne", Opnd::pred(1), {V(got), V(d)});
    emit("bra", {}, {Opnd::label(loop)}).guard = 1;
    startBlock(newLabel());
    return;
  }
  if (op == "cmpxchg") {
    emit("atom." + space + ".cas", V(d), {m, V(reg(I.getArgOperand(1))), V(reg(I.getArgOperand(2)))});
    return;
  }
  refuse(&I, "the atomic function '" + name + "' is not supported");
}

// The seed-000 barrier kinds of sim/compiler/include/simt.h.
void Lowering::lowerSimtBarrier(CallInst& I, const std::string& n) {
  auto constArg = [&](unsigned i, uint64_t max, const char* what) -> int64_t {
    const auto* c = dyn_cast<ConstantInt>(I.getArgOperand(i));
    if (!c) refuse(&I, n + ": the " + std::string(what) + " must be a constant");
    if (c->getZExtValue() > max) refuse(&I, n + ": the " + std::string(what) + " must be at most " + std::to_string(max));
    return static_cast<int64_t>(c->getZExtValue());
  };
  auto countOpnd = [&](unsigned i) -> Opnd {
    if (const auto* c = dyn_cast<ConstantInt>(I.getArgOperand(i))) {
      if (c->getZExtValue() < 1 || c->getZExtValue() > 4095) refuse(&I, n + ": the count must be 1..4095");
      return Opnd::imm32(static_cast<int64_t>(c->getZExtValue()));
    }
    return V(reg(I.getArgOperand(i)));
  };
  const Opnd id = Opnd::imm32(constArg(0, 15, "barrier id"));
  if (n == "simt_barrier") {
    emit("bar.sync", {}, {id});
  } else if (n == "simt_barrier_count") {
    emit("bar.sync", {}, {id, countOpnd(1)});
  } else if (n == "simt_barrier_impatient") {
    emit("bar.sync.imp", {}, {id, countOpnd(1), Opnd::imm32(constArg(2, 1023, "minimum")),
                              Opnd::imm32(constArg(3, 32767, "timeout"))});
  } else if (n == "simt_ordered_begin") {
    emit("bar.top.ocs", {}, {id});
  } else if (n == "simt_ordered_end") {
    emit("bar.bot.ocs", {}, {id});
  } else if (n == "simt_unordered_begin") {
    emit("bar.top.ucs", {}, {id});
  } else if (n == "simt_unordered_end") {
    emit("bar.bot.ucs", {}, {id});
  } else if (n == "simt_ordered_begin_exclusive") {
    emit("bar.top.ocs.ex", {}, {id});
  } else if (n == "simt_unordered_begin_exclusive") {
    emit("bar.top.ucs.ex", {}, {id});
  } else if (n == "simt_ordered_end_nowait") {
    emit("bar.bot.ocs.nb", {}, {id});
  } else if (n == "simt_unordered_end_nowait") {
    emit("bar.bot.ucs.nb", {}, {id});
  } else {
    refuse(&I, "unknown simt built-in '" + n + "'");
  }
}

void Lowering::lowerCall(CallInst& I) {
  if (auto* ii = dyn_cast<IntrinsicInst>(&I)) return lowerIntrinsic(*ii);
  const Function* callee = I.getCalledFunction();
  if (!callee) refuse(&I, "indirect calls are not supported");
  if (!callee->isDeclaration()) {
    if (!mode_.subroutines) refuse(&I, "a call to '" + callee->getName().str() + "' that was not inlined is not supported");
    // A subroutine: arguments into its frame, `cal`, the result from its frame.
    const std::string frame = subroutineLabel(*callee);
    for (unsigned i = 0; i < I.arg_size(); ++i) {
      Opnd slot = Opnd::mem(kFramePointer, false, 4 + 4 * static_cast<int64_t>(i));
      slot.frameOf = frame;
      emit("st.global", {}, {slot, V(reg(I.getArgOperand(i)))});
    }
    emit("cal", {}, {Opnd::label(frame)});
    if (!I.getType()->isVoidTy()) {
      Opnd slot = Opnd::mem(kFramePointer, false, 0);
      slot.frameOf = frame;
      emit("ld.global", V(vregs_.at(&I)), {slot});
    }
    out_.usesFrame = true;
    out_.calls = true;
    return;
  }
  const BuiltinName b = demangle(callee->getName().str());
  const std::string& n = b.name;
  if (callee->hasFnAttribute("simt-refused")) {  // float_builtins.h: why libclc's is not taken
    refuse(&I, "the built-in '" + n + "' is not supported: " +
                   callee->getFnAttribute("simt-refused").getValueAsString().str());
  }
  const int d = I.getType()->isVoidTy() ? -1 : vregs_.at(&I);
  auto constDim = [&]() -> unsigned {
    const auto* c = dyn_cast<ConstantInt>(I.getArgOperand(0));
    if (!c) refuse(&I, n + " with a dimension that is not a constant is not supported");
    return static_cast<unsigned>(std::min<uint64_t>(c->getZExtValue(), 3));
  };
  auto sizeLike = [&](int word) {
    const unsigned dim = constDim();
    if (dim >= 3) emit("mov", V(d), {Opnd::imm32(word == hidden::kGlobalOffset ? 0 : 1)});
    else emit("ld.param", V(d), {Opnd::mem(-1, false, 4 * (hiddenBase_ + word + static_cast<int>(dim)))});
  };
  if (n == "get_work_dim") {
    emit("ld.param", V(d), {Opnd::mem(-1, false, 4 * (hiddenBase_ + hidden::kWorkDim))});
    return;
  }
  if (n == "get_global_size") return sizeLike(hidden::kGlobalSize);
  if (n == "get_local_size") return sizeLike(hidden::kLocalSize);
  if (n == "get_num_groups") return sizeLike(hidden::kNumGroups);
  if (n == "get_global_offset") return sizeLike(hidden::kGlobalOffset);
  if (n == "get_local_id" || n == "get_global_id" || n == "get_group_id") {
    emit("mov", V(d), {V(workItem(n, constDim(), I))});
    return;
  }
  if (n == "barrier" || n == "work_group_barrier") {
    emit("bar.sync", {}, {Opnd::imm32(0)});
    return;
  }
  if (n == "mem_fence" || n == "read_mem_fence" || n == "write_mem_fence") {
    emit("membar", {}, {});
    return;
  }
  if (n.rfind("simt_", 0) == 0 && n != "simt_yield") return lowerSimtBarrier(I, n);
  if (n == "simt_yield") {
    emit("yield", {}, {});
    ++out_.yields;
    return;
  }
  if (n.rfind("atomic_", 0) == 0 || n.rfind("atom_", 0) == 0) return lowerAtomic(I, n, b);
  // Integer built-ins on int/uint.
  const bool allInt = !b.params.empty() && std::all_of(b.params.begin(), b.params.end(), [](const std::string& p) { return p == "i" || p == "j" || p == "S_"; });
  if (allInt && I.getType()->isIntegerTy(32)) {
    const bool sgn = b.params[0] == "i";
    auto a = [&](unsigned i) { return reg(I.getArgOperand(i)); };
    if (n == "min" || n == "max") {
      emit(n + (sgn ? "" : "u"), V(d), {V(a(0)), regOrImm(I.getArgOperand(1))});
      return;
    }
    if (n == "clamp") {
      const int lo = op3(sgn ? "max" : "maxu", a(0), regOrImm(I.getArgOperand(1)));
      emit(sgn ? "min" : "minu", V(d), {V(lo), regOrImm(I.getArgOperand(2))});
      return;
    }
    if (n == "abs") {
      if (!sgn) {
        emit("mov", V(d), {V(a(0))});
        return;
      }
      const int x = a(0);
      const int s = op3("sra", x, Opnd::imm32(31));
      emit("sub", V(d), {V(op3("xor", x, V(s))), V(s)});
      return;
    }
    if (n == "mul24") {
      emit("mul", V(d), {V(a(0)), regOrImm(I.getArgOperand(1))});
      return;
    }
    if (n == "mad24") {
      emit("add", V(d), {V(op3("mul", a(0), regOrImm(I.getArgOperand(1)))), V(a(2))});
      return;
    }
    if (n == "rotate") {
      const int x = a(0);
      const int k = op3("and", a(1), Opnd::imm32(31));
      const int m = op3("and", op3("sub", mov(Opnd::imm32(32)), V(k)), Opnd::imm32(31));
      const int hi = op3("shl", x, V(k));
      const int lo = op3("shr", x, V(m));
      emit("setp.eq", Opnd::pred(1), {V(k), Opnd::imm32(0)});
      emit("mov", V(lo), {Opnd::imm32(0)}).guard = 1;
      emit("or", V(d), {V(hi), V(lo)});
      return;
    }
    if (n == "hadd" || n == "rhadd") {
      const int x = a(0), y = a(1);
      const std::string sh = sgn ? "sra" : "shr";
      const int s = op3("add", op3(sh, x, Opnd::imm32(1)), V(op3(sh, y, Opnd::imm32(1))));
      const int c = op3("and", op3(n == "hadd" ? "and" : "or", x, V(y)), Opnd::imm32(1));
      emit("add", V(d), {V(s), V(c)});
      return;
    }
    if (n == "mul_hi") {
      emit("mov", V(d), {V(sgn ? mulhs(a(0), V(a(1))) : mulhu(a(0), V(a(1))))});
      return;
    }
    if (n == "popcount") {
      emit("mov", V(d), {V(popcount(a(0)))});
      return;
    }
    if (n == "clz") {
      int x = a(0);
      for (int s : {1, 2, 4, 8, 16}) x = op3("or", x, V(op3("shr", x, Opnd::imm32(s))));
      emit("sub", V(d), {V(mov(Opnd::imm32(32))), V(popcount(x))});
      return;
    }
    if (n == "add_sat" || n == "sub_sat") {
      emit("mov", V(d), {V(satAdd(a(0), a(1), n == "sub_sat", sgn))});
      return;
    }
    if (n == "select" && b.params.size() == 3) {
      emit("setp.ne", Opnd::pred(0), {V(a(2)), Opnd::imm32(0)});
      emit("selp", V(d), {V(a(1)), V(a(0)), Opnd::pred(0)});
      return;
    }
  }
  if (n == "printf") refuse(&I, "printf is not supported");
  refuse(&I, "the function '" + n + "' is not supported" + (b.mangled ? " for these argument types" : ""));
}

bool isReturnOnly(const BasicBlock* bb) {
  return bb->phis().empty() && isa<ReturnInst>(bb->getFirstNonPHIOrDbgOrLifetime());
}


// Phi copies (a parallel copy through temporaries when a phi reads another phi of the same
// block), yield on a spinning loop's back edge, then `sync P`, `exit` (a block that only
// returns) or `bra`; all guarded by `guard` when the edge is a conditional branch's taken one.
void Lowering::emitEdge(const BasicBlock* from, const BasicBlock* to, int guard, bool neg) {
  auto guarded = [&](MInst& in) {
    in.guard = guard;
    in.guardNeg = neg;
  };
  auto copy = [&](MInst& in) {
    guarded(in);
    in.edgeCopy = guard >= 0;
  };
  std::vector<std::pair<int, const Value*>> copies;
  std::set<const Value*> dests;
  for (const PHINode& phi : to->phis()) {
    copies.emplace_back(vregs_.at(&phi), phi.getIncomingValueForBlock(from));
    dests.insert(&phi);
  }
  bool parallel = false;
  for (const auto& c : copies) parallel |= dests.count(c.second) != 0;
  if (parallel) {
    std::vector<int> temps;
    for (const auto& c : copies) temps.push_back(mov(V(reg(c.second))));
    for (size_t i = 0; i < copies.size(); ++i) copy(emit("mov", V(copies[i].first), {V(temps[i])}));
  } else {
    for (const auto& c : copies) {
      if (const auto* ci = dyn_cast<ConstantInt>(c.second)) {
        copy(emit("mov", V(c.first), {Opnd::imm32(static_cast<int64_t>(ci->getZExtValue() & 0xffffffffu))}));
      } else {
        const int src = reg(c.second);
        copy(emit("mov", V(c.first), {V(src)}));
      }
    }
  }
  if (plan_.yieldEdges.count({from, to})) {
    guarded(emit("yield", {}, {}));
    ++out_.yields;
  }
  if (plan_.syncEdges.count({from, to})) {
    guarded(emit("sync", {}, {Opnd::label(blockLabel(to))}));
  } else if (mode_.isKernel && isReturnOnly(to)) {
    guarded(emit("exit", {}, {}));
  } else {
    guarded(emit("bra", {}, {Opnd::label(blockLabel(to))}));
  }
}

// Constants a loop needs in registers (operands of calls, stored values, selected values,
// the left side of a subtraction or shift) are put in registers once, in the preheader.
void Lowering::hoistLoopConstants(const BasicBlock& preheader) {
  for (const Loop* l : li_.getLoopsInPreorder()) {
    if (l->getLoopPreheader() != &preheader) continue;
    std::set<uint32_t> values;
    for (const BasicBlock* b : l->blocks()) {
      for (const Instruction& I : *b) {
        auto add = [&](const Value* v) {
          if (const auto bits = constantBits(v)) values.insert(*bits);
        };
        if (const auto* call = dyn_cast<CallInst>(&I); call && !isa<IntrinsicInst>(call)) {
          for (const Use& a : call->args()) add(a.get());
        } else if (const auto* st = dyn_cast<StoreInst>(&I)) {
          add(st->getValueOperand());
        } else if (const auto* sel = dyn_cast<SelectInst>(&I)) {
          add(sel->getTrueValue());
          add(sel->getFalseValue());
        } else if (const auto* bo = dyn_cast<BinaryOperator>(&I); bo && !bo->isCommutative()) {
          add(bo->getOperand(0));
        } else if (const auto* fc = dyn_cast<FCmpInst>(&I)) {  // fsetp takes a register first
          add(fc->getOperand(0));
        } else if (const auto* ii = dyn_cast<IntrinsicInst>(&I)) {
          if (ii->getIntrinsicID() == Intrinsic::fma || ii->getIntrinsicID() == Intrinsic::fmuladd) {
            add(ii->getArgOperand(2));  // ffma's addend is a register
          }
        }
      }
    }
    for (uint32_t v : values) {
      bool outer = false;  // an enclosing loop holds it already
      for (const Loop* p = l->getParentLoop(); p; p = p->getParentLoop()) outer |= loopConst_.count({p, v}) != 0;
      if (!outer) loopConst_[{l, v}] = mov(Opnd::imm32(v));
    }
  }
}

void Lowering::lowerTerminator(BasicBlock& bb) {
  Instruction* t = bb.getTerminator();
  if (const auto it = plan_.ssyAt.find(&bb); it != plan_.ssyAt.end()) {
    for (const BasicBlock* p : it->second) emit("ssy", {}, {Opnd::label(blockLabel(p))});
  }
  hoistLoopConstants(bb);
  if (auto* r = dyn_cast<ReturnInst>(t)) {
    if (mode_.isKernel) {
      emit("exit", {}, {});
      return;
    }
    if (const Value* v = r->getReturnValue()) emit("st.global", {}, {Opnd::mem(kFramePointer, false, 0), V(reg(v))});
    emit("ret", {}, {});
    return;
  }
  if (isa<UnreachableInst>(t)) {
    emit("trap", {}, {});
    return;
  }
  const auto* br = dyn_cast<BranchInst>(t);
  if (!br) refuse(t, std::string("the terminator '") + t->getOpcodeName() + "' is not supported");
  if (br->isUnconditional() || br->getSuccessor(0) == br->getSuccessor(1)) {
    emitEdge(&bb, br->getSuccessor(0));
    return;
  }
  const bool divergent = ui_.isDivergentBranch(&bb);
  ++(divergent ? out_.divergentBranches : out_.uniformBranches);
  // The taken edge's code (phi copies, yield) is guarded by the condition and ends in the
  // guarded branch; the work-items left over take the other edge, unguarded.
  const Pred p = condition(br->getCondition());
  emitEdge(&bb, br->getSuccessor(0), p.p, p.neg);
  if (divergent) block().insts.back().comment = "divergent";
  emitEdge(&bb, br->getSuccessor(1));
}

}  // namespace

std::string subroutineLabel(const Function& f) {
  std::string n = "F_";
  for (char c : f.getName()) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n;
}

LoweredFunction lowerFunction(Function& f, const UniformityInfo& ui, const ReconvergencePlan& plan,
                              const ModuleLayout& layout, int hiddenBase, bool assumeLinear, const LoopInfo& li,
                              const LowerMode& mode) {
  Lowering l(f, ui, plan, layout, hiddenBase, assumeLinear, li, mode);
  return l.run();
}

}  // namespace simt::compiler
