#include "compiler/float_builtins.h"

#include <sys/stat.h>

#include <cstdlib>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Support/MemoryBuffer.h>

#include "compiler/analysis_managers.h"
#include "compiler/builtins.h"

#ifndef SIMT_LIBCLC_DEFAULT
#define SIMT_LIBCLC_DEFAULT "/usr/lib/clc/nvptx--.bc"
#endif

namespace simt::compiler {

using namespace llvm;

namespace {

constexpr const char* kRefusedAttr = "simt-refused";

bool allFloat(const Function& f) {
  if (!f.getReturnType()->isFloatTy() && !f.getReturnType()->isIntegerTy(32)) return false;
  for (const Argument& a : f.args()) {
    if (!a.getType()->isFloatTy()) return false;
  }
  return f.arg_size() > 0;
}

// The replacement of one call, or nullptr when the built-in is not one of the simple ones.
Value* simpleBuiltin(const std::string& n, CallInst& call, IRBuilder<>& b) {
  Module& m = *call.getModule();
  auto arg = [&](unsigned i) { return call.getArgOperand(i); };
  auto intrinsic = [&](Intrinsic::ID id) -> Value* {
    std::vector<Value*> args(call.arg_begin(), call.arg_end());
    return b.CreateCall(Intrinsic::getDeclaration(&m, id, {b.getFloatTy()}), args);
  };
  auto flag = [&](Value* c) { return b.CreateZExt(c, b.getInt32Ty()); };  // scalar relations: 0 or 1
  const bool retFloat = call.getType()->isFloatTy();
  const unsigned nargs = call.arg_size();
  if (retFloat && nargs == 1) {
    if (n == "fabs") return intrinsic(Intrinsic::fabs);
    if (n == "sqrt" || n == "native_sqrt" || n == "half_sqrt") return intrinsic(Intrinsic::sqrt);
    if (n == "floor") return intrinsic(Intrinsic::floor);
    if (n == "ceil") return intrinsic(Intrinsic::ceil);
    if (n == "trunc") return intrinsic(Intrinsic::trunc);
    if (n == "rint") return intrinsic(Intrinsic::rint);
    if (n == "round") return intrinsic(Intrinsic::round);
    if (n == "native_recip" || n == "half_recip") return b.CreateFDiv(ConstantFP::get(b.getFloatTy(), 1.0), arg(0));
    if (n == "rsqrt" || n == "native_rsqrt" || n == "half_rsqrt") {
      // two correctly rounded steps: at most 1.5 ulp (OpenCL allows 2 for rsqrt)
      Value* s = b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::sqrt, {b.getFloatTy()}), {arg(0)});
      return b.CreateFDiv(ConstantFP::get(b.getFloatTy(), 1.0), s);
    }
  }
  if (retFloat && nargs == 2) {
    if (n == "fmin") return intrinsic(Intrinsic::minnum);
    if (n == "fmax") return intrinsic(Intrinsic::maxnum);
    if (n == "copysign") return intrinsic(Intrinsic::copysign);
    if (n == "native_divide" || n == "half_divide") return b.CreateFDiv(arg(0), arg(1));
  }
  if (retFloat && nargs == 3) {
    if (n == "fma") return intrinsic(Intrinsic::fma);
    if (n == "mad") return intrinsic(Intrinsic::fmuladd);
  }
  if (call.getType()->isIntegerTy(32)) {
    if (nargs == 1) {
      if (n == "isnan") return flag(b.CreateFCmpUNO(arg(0), arg(0)));
      Value* ax = b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::fabs, {b.getFloatTy()}), {arg(0)});
      const auto inf = ConstantFP::getInfinity(b.getFloatTy());
      if (n == "isinf") return flag(b.CreateFCmpOEQ(ax, inf));
      if (n == "isfinite") return flag(b.CreateFCmpOLT(ax, inf));
      if (n == "isnormal") {  // flushed subnormals are zeros, not normal
        return flag(b.CreateAnd(b.CreateFCmpOLT(ax, inf),
                                b.CreateFCmpOGE(ax, ConstantFP::get(b.getFloatTy(), 1.1754943508222875e-38))));
      }
      if (n == "signbit") return b.CreateLShr(b.CreateBitCast(arg(0), b.getInt32Ty()), 31);
      cast<Instruction>(ax)->eraseFromParent();
    }
    if (nargs == 2) {
      static const std::map<std::string, CmpInst::Predicate> rel = {
          {"isequal", CmpInst::FCMP_OEQ},      {"isnotequal", CmpInst::FCMP_UNE},
          {"isgreater", CmpInst::FCMP_OGT},    {"isgreaterequal", CmpInst::FCMP_OGE},
          {"isless", CmpInst::FCMP_OLT},       {"islessequal", CmpInst::FCMP_OLE},
          {"islessgreater", CmpInst::FCMP_ONE}, {"isordered", CmpInst::FCMP_ORD},
          {"isunordered", CmpInst::FCMP_UNO}};
      if (const auto it = rel.find(n); it != rel.end()) return flag(b.CreateFCmp(it->second, arg(0), arg(1)));
    }
  }
  return nullptr;
}

constexpr const char* kTgamma = "_Z6tgammaf";
constexpr const char* kPow = "_Z3powff";
constexpr const char* kExp = "_Z3expf";
constexpr const char* kErfc = "_Z4erfcf";
constexpr const char* kSinpi = "_Z5sinpif";

// libclc-16's erfc(x) for x in [1/0.35, 28) is fdlibm's exp(-z*z - 0.5625) * exp((z - x)(z + x)
// + R/S) / x with z = x & 0xfffff000 (12 significant bits). -z*z - 0.5625 is meant to be
// exact, but for z in [7.9375, 8) it crosses 64 and needs 2^-18: float rounds it, and erfc
// is off by up to 2^-18 relative, 64 ulp (x near 8, results near 1e-29). z & 0xffffe000 (11
// bits, as FreeBSD's msun s_erff.c has it) makes -z*z - 0.5625 exact for every z below 28;
// the identity -x*x = -z*z + (z - x)(z + x) holds for any z. The one mask constant changes.
void patchErfc(Module& m) {
  Function* f = m.getFunction(kErfc);
  if (!f || f->isDeclaration()) return;
  std::vector<Instruction*> masks;
  for (BasicBlock& bb : *f) {
    for (Instruction& I : bb) {
      if (I.getOpcode() != Instruction::And || !I.getType()->isIntegerTy(32)) continue;
      if (auto* c = dyn_cast<ConstantInt>(I.getOperand(1)); c && c->getZExtValue() == 0x7ffff000u) masks.push_back(&I);
    }
  }
  if (masks.size() != 1) return;  // not the code described above: left alone
  masks[0]->setOperand(1, ConstantInt::get(masks[0]->getType(), 0x7fffe000u));
}

// libclc-16's tgamma(x) is exp(lgamma(x)): the float lgamma has an absolute error of at least
// half its ulp, 2^-18 for lgamma in [64, 128), which exp turns into a relative error of Gamma
// (up to 170 ulp for x near 30, where lgamma is 70). For 4 <= x < 36 the built-in computes
// instead Stirling's series with the big factor from libclc's pow, which keeps its logarithm
// in two floats (0.55 ulp measured): Gamma(x) = p * exp(-x) * p * sqrt(2 pi) * exp(S),
// p = x^(x/2 - 1/4) (x/2 - 1/4 is exact), S = 1/(12x) - 1/(360x^3) + 1/(1260x^5) - 1/(1680x^7)
// (the next term is below 2^-28 relative at x = 4); for -33 < x <= -4, libclc's reflection
// with that Gamma(|x|): pi / (Gamma(|x|) |x| sinpi(x)), NaN where sinpi(x) is 0 (the bound
// keeps the result normal, where libclc's turns a flushed one into infinity). Other x (|x|
// below 4, where libclc's is within 2.1 ulp; infinite, NaN, overflowing) keep libclc's, which
// is renamed and called from the new _Z6tgammaf.
void wrapTgamma(Module& m) {
  Function* lib = m.getFunction(kTgamma);
  Function* pow = m.getFunction(kPow);
  Function* exp = m.getFunction(kExp);
  Function* sinpi = m.getFunction(kSinpi);
  for (Function* g : {lib, pow, exp, sinpi}) {
    if (!g || g->isDeclaration()) return;
  }
  lib->setName("simt.libclc.tgamma");
  lib->setLinkage(GlobalValue::InternalLinkage);
  Function* f = Function::Create(lib->getFunctionType(), GlobalValue::InternalLinkage, kTgamma, m);
  f->copyAttributesFrom(lib);
  lib->replaceAllUsesWith(f);
  LLVMContext& ctx = m.getContext();
  BasicBlock* entry = BasicBlock::Create(ctx, "entry", f);
  BasicBlock* stirling = BasicBlock::Create(ctx, "stirling", f);
  BasicBlock* other = BasicBlock::Create(ctx, "libclc", f);
  BasicBlock* done = BasicBlock::Create(ctx, "done", f);
  IRBuilder<> b(entry);
  auto k = [&](double v) { return ConstantFP::get(b.getFloatTy(), v); };
  auto call = [&](Function* g, std::vector<Value*> args) {
    CallInst* c = b.CreateCall(g, args);
    c->setCallingConv(g->getCallingConv());
    return c;
  };
  Value* x = f->getArg(0);
  Value* pos = b.CreateAnd(b.CreateFCmpOGE(x, k(4.0)), b.CreateFCmpOLT(x, k(36.0)));
  Value* neg = b.CreateAnd(b.CreateFCmpOLE(x, k(-4.0)), b.CreateFCmpOGT(x, k(-33.0)));
  b.CreateCondBr(b.CreateOr(pos, neg), stirling, other);
  b.SetInsertPoint(stirling);
  Value* ax = b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::fabs, {b.getFloatTy()}), {x});
  Value* p = call(pow, {ax, b.CreateFSub(b.CreateFMul(ax, k(0.5)), k(0.25))});
  Value* e = call(exp, {b.CreateFNeg(ax)});
  Value* r = b.CreateFDiv(k(1.0), ax);
  Value* r2 = b.CreateFMul(r, r);
  Value* s = k(-1.0 / 1680);
  for (double c : {1.0 / 1260, -1.0 / 360, 1.0 / 12}) s = b.CreateFAdd(b.CreateFMul(s, r2), k(c));
  s = b.CreateFMul(s, r);
  Value* c = b.CreateFMul(call(exp, {s}), k(2.5066282746310002));  // sqrt(2 pi)
  Value* g = b.CreateFMul(b.CreateFMul(p, e), b.CreateFMul(p, c));  // p * exp(-x) first: no overflow
  Value* z = call(sinpi, {x});
  Value* refl = b.CreateFDiv(k(3.1415926535897932), b.CreateFMul(b.CreateFMul(g, ax), z));
  refl = b.CreateSelect(b.CreateFCmpOEQ(z, k(0.0)), ConstantFP::getNaN(b.getFloatTy()), refl);
  g = b.CreateSelect(b.CreateFCmpOLT(x, k(0.0)), refl, g);
  b.CreateBr(done);
  b.SetInsertPoint(other);
  Value* h = call(lib, {x});
  b.CreateBr(done);
  b.SetInsertPoint(done);
  PHINode* phi = b.CreatePHI(b.getFloatTy(), 2);
  phi->addIncoming(g, stirling);
  phi->addIncoming(h, other);
  b.CreateRet(phi);
}

}  // namespace

void mapFloatBuiltins(Module& m) {
  std::vector<CallInst*> calls;
  for (Function& f : m) {
    if (!f.isDeclaration() || !allFloat(f)) continue;
    for (User* u : f.users()) {
      if (auto* c = dyn_cast<CallInst>(u); c && c->getCalledFunction() == &f) calls.push_back(c);
    }
  }
  for (CallInst* c : calls) {
    const std::string n = demangle(c->getCalledFunction()->getName().str()).name;
    IRBuilder<> b(c);
    if (Value* v = simpleBuiltin(n, *c, b)) {
      if (auto* I = dyn_cast<Instruction>(v)) I->setDebugLoc(c->getDebugLoc());
      c->replaceAllUsesWith(v);
      c->eraseFromParent();
    }
  }
}

std::string mathLibraryPath() {
  const char* env = std::getenv("SIMT_LIBCLC");
  const std::string p = env && *env ? env : SIMT_LIBCLC_DEFAULT;
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? p : std::string();
}

void linkMathLibrary(Module& m) {
  // The built-ins wanted: declared here, taking or returning float.
  std::set<std::string> wanted;
  for (const Function& f : m) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty()) continue;
    bool fl = f.getReturnType()->isFloatTy();
    for (const Argument& a : f.args()) fl |= a.getType()->isFloatTy();
    if (fl && f.getName().startswith("_Z")) wanted.insert(f.getName().str());
  }
  if (wanted.empty()) return;
  // tgamma takes pow, exp and sinpi as well (wrapTgamma, after the link).
  if (wanted.count(kTgamma)) {
    Type* f32 = Type::getFloatTy(m.getContext());
    for (const auto& [name, arity] : {std::pair{kPow, 2u}, std::pair{kExp, 1u}, std::pair{kSinpi, 1u}}) {
      m.getOrInsertFunction(name, FunctionType::get(f32, std::vector<Type*>(arity, f32), false));
      wanted.insert(name);
    }
  }
  const std::string path = mathLibraryPath();
  auto refuseAll = [&](const std::string& why) {
    for (const std::string& n : wanted) m.getFunction(n)->addFnAttr(kRefusedAttr, why);
  };
  if (path.empty()) return refuseAll("the math built-ins need libclc-16 (apt-get install libclc-16; see docs/compiler.md)");
  auto buf = MemoryBuffer::getFile(path);
  if (!buf) return;
  auto lazy = getOwningLazyBitcodeModule(std::move(*buf), m.getContext());
  if (!lazy) {
    consumeError(lazy.takeError());
    return;
  }
  std::unique_ptr<Module> lib = std::move(*lazy);
  // Only the wanted functions (and what they call) come over: every other function this
  // module declares (get_global_id, barrier, atomics: the lowering's own) loses its body.
  for (Function& f : *lib) {
    if (f.isDeclaration() || wanted.count(f.getName().str())) continue;
    if (m.getFunction(f.getName())) f.deleteBody();
  }
  lib->setDataLayout(m.getDataLayout());
  lib->setTargetTriple(m.getTargetTriple());
  if (Linker::linkModules(m, std::move(lib), Linker::LinkOnlyNeeded)) return;
  // Two of libclc's float built-ins lose their accuracy in one step each; both are replaced
  // (docs/compiler.md, "FP32", the accuracy table).
  patchErfc(m);
  wrapTgamma(m);
  // libclc's functions use the C calling convention, the kernel's calls SPIR's: one for all,
  // or the optimiser would take the mismatched calls for undefined behaviour.
  for (Function& f : m) {
    if (f.getCallingConv() == CallingConv::SPIR_KERNEL || f.isIntrinsic()) continue;
    f.setCallingConv(CallingConv::SPIR_FUNC);
    for (User* u : f.users()) {
      if (auto* c = dyn_cast<CallInst>(u); c && c->getCalledFunction() == &f) c->setCallingConv(CallingConv::SPIR_FUNC);
    }
  }
  // A built-in whose libclc code (or a function it calls) computes in double cannot be
  // lowered: it goes back to a declaration that the lowering refuses, naming the built-in.
  // 64-bit integers are split into words before lowering (split_i64.h): sin, cos and tan,
  // whose argument reduction multiplies in 64 bits, compile.
  for (const std::string& n : wanted) {
    Function* f = m.getFunction(n);
    if (!f || f->isDeclaration()) continue;
    std::set<Function*> seen;
    std::vector<Function*> work = {f};
    bool wide = false;
    while (!work.empty() && !wide) {
      Function* g = work.back();
      work.pop_back();
      if (!seen.insert(g).second || g->isDeclaration()) continue;
      for (BasicBlock& bb : *g) {
        for (Instruction& I : bb) {
          wide |= I.getType()->isDoubleTy();
          for (const Use& u : I.operands()) wide |= u->getType()->isDoubleTy();
          if (auto* c = dyn_cast<CallInst>(&I); c && c->getCalledFunction()) work.push_back(c->getCalledFunction());
        }
      }
    }
    if (wide) {
      f->deleteBody();
      f->addFnAttr(kRefusedAttr, "libclc's float version computes in double, which the core does not have");
    }
  }
}

namespace {

// OpenCL's vloadN(offset, p) and vstoreN(data, offset, p) (N = 2, 3, 4, 8, 16): Clang
// declares them as library functions; they are a load or store of <N x T> at p + offset * N
// with the element's alignment only (OpenCL asks no more of p), so the lowering decides
// whether a v4 access may be used.
void mapVectorLoadsAndStores(Module& m) {
  const DataLayout& dl = m.getDataLayout();
  std::vector<CallInst*> calls;
  for (Function& f : m) {
    if (!f.isDeclaration()) continue;
    const std::string n = demangle(f.getName().str()).name;
    static const std::set<std::string> names = {"vload2",  "vload3",  "vload4",  "vload8",
                                                "vload16", "vstore2", "vstore3", "vstore4",
                                                "vstore8", "vstore16"};
    if (!names.count(n)) continue;
    for (User* u : f.users()) {
      if (auto* c = dyn_cast<CallInst>(u); c && c->getCalledFunction() == &f) calls.push_back(c);
    }
  }
  for (CallInst* c : calls) {
    const bool load = !c->getType()->isVoidTy();
    auto* vt = dyn_cast<FixedVectorType>(load ? c->getType() : c->getArgOperand(0)->getType());
    if (!vt || c->arg_size() != (load ? 2u : 3u)) continue;
    Value* offset = c->getArgOperand(load ? 0 : 1);
    Value* ptr = c->getArgOperand(load ? 1 : 2);
    if (!ptr->getType()->isPointerTy() || !offset->getType()->isIntegerTy()) continue;
    Type* et = vt->getElementType();
    IRBuilder<> b(c);
    b.SetCurrentDebugLocation(c->getDebugLoc());
    // p + offset * N elements: an index into an array of [N x T] (vload3's stride is three
    // elements, where <3 x T> would step by four)
    Value* p = b.CreateInBoundsGEP(ArrayType::get(et, vt->getNumElements()), ptr, offset);
    const Align align = dl.getABITypeAlign(et);
    if (load) {
      c->replaceAllUsesWith(b.CreateAlignedLoad(vt, p, align));
    } else {
      b.CreateAlignedStore(c->getArgOperand(0), p, align);
    }
    c->eraseFromParent();
  }
}

// Element-wise built-ins on vectors (min(int4, int4), clamp(int4, int, int), fabs(float4),
// ...) become one call of the scalar built-in per element, which the lowering (integer ones)
// or mapFloatBuiltins (float ones, run again after this) knows; select(a, b, c) on vectors
// takes b where c's element has its top bit set (OpenCL), an IR select. Other built-ins on
// vectors stay calls, which the lowering refuses naming them and the line.
void splitVectorBuiltins(Module& m) {
  static const std::set<std::string> elementwise = {
      "min",  "max",   "clamp",       "abs",           "mul24",       "mad24",        "rotate",
      "hadd", "rhadd", "mul_hi",      "popcount",      "clz",         "add_sat",      "sub_sat",
      "fabs", "sqrt",  "native_sqrt", "half_sqrt",     "floor",       "ceil",         "trunc",
      "rint", "round", "rsqrt",       "native_rsqrt",  "half_rsqrt",  "native_recip", "half_recip",
      "fmin", "fmax",  "copysign",    "native_divide", "half_divide", "fma",          "mad"};
  std::vector<CallInst*> calls;
  for (Function& f : m) {
    if (!f.isDeclaration() || !isa<FixedVectorType>(f.getReturnType())) continue;
    const std::string n = demangle(f.getName().str()).name;
    if (n != "select" && !elementwise.count(n)) continue;
    for (User* u : f.users()) {
      if (auto* c = dyn_cast<CallInst>(u); c && c->getCalledFunction() == &f) calls.push_back(c);
    }
  }
  for (CallInst* c : calls) {
    const BuiltinName bn = demangle(c->getCalledFunction()->getName().str());
    auto* vt = cast<FixedVectorType>(c->getType());
    IRBuilder<> b(c);
    b.SetCurrentDebugLocation(c->getDebugLoc());
    if (bn.name == "select") {
      if (c->arg_size() != 3 || !isa<FixedVectorType>(c->getArgOperand(2)->getType())) continue;
      Value* msb = b.CreateICmpSLT(c->getArgOperand(2),
                                   Constant::getNullValue(c->getArgOperand(2)->getType()));
      c->replaceAllUsesWith(b.CreateSelect(msb, c->getArgOperand(1), c->getArgOperand(0)));
      c->eraseFromParent();
      continue;
    }
    // The scalar built-in's mangled name: each Dv<N>_<t> (and each S<seq>_ naming one) is <t>.
    std::vector<std::string> subs;
    std::string codes;
    bool ok = bn.params.size() == c->arg_size();
    for (const std::string& p : bn.params) {
      std::string t = p;
      if (p.rfind("Dv", 0) == 0) {
        subs.push_back(p);
        t = p.substr(p.find('_') + 1);
      } else if (p[0] == 'S') {
        const size_t idx =
            p == "S_" ? 0
                      : static_cast<size_t>(std::stoul(p.substr(1, p.size() - 2), nullptr, 36)) + 1;
        ok &= idx < subs.size();
        if (ok) t = subs[idx].substr(subs[idx].find('_') + 1);
      }
      ok &= t.size() == 1;
      codes += t;
    }
    if (!ok) continue;
    std::vector<Type*> params;
    for (Value* a : c->args()) params.push_back(a->getType()->getScalarType());
    const std::string scalarName = "_Z" + std::to_string(bn.name.size()) + bn.name + codes;
    FunctionCallee callee =
        m.getOrInsertFunction(scalarName, FunctionType::get(vt->getElementType(), params, false));
    if (auto* sf = dyn_cast<Function>(callee.getCallee())) sf->setCallingConv(c->getCallingConv());
    Value* out = PoisonValue::get(vt);
    for (unsigned k = 0; k < vt->getNumElements(); ++k) {
      std::vector<Value*> args;
      for (Value* a : c->args())
        args.push_back(a->getType()->isVectorTy() ? b.CreateExtractElement(a, k) : a);
      CallInst* e = b.CreateCall(callee, args);
      e->setCallingConv(c->getCallingConv());
      out = b.CreateInsertElement(out, e, k);
    }
    c->replaceAllUsesWith(out);
    c->eraseFromParent();
  }
  mapFloatBuiltins(m);
}

// A load or store of a vector whose elements are not 32 bits (char4, short2, libclc's
// tables are <2 x float> and stay whole) becomes one access per element: the lowering has
// word accesses and v4 tuples of words only.
void splitNarrowVectorAccesses(Function& f) {
  const DataLayout& dl = f.getParent()->getDataLayout();
  std::vector<Instruction*> work;
  for (BasicBlock& bb : f) {
    for (Instruction& I : bb) {
      Type* t = nullptr;
      if (auto* ld = dyn_cast<LoadInst>(&I)) t = ld->getType();
      if (auto* st = dyn_cast<StoreInst>(&I)) t = st->getValueOperand()->getType();
      auto* vt = dyn_cast_or_null<FixedVectorType>(t);
      if (vt && vt->getElementType()->getPrimitiveSizeInBits() != 32) work.push_back(&I);
    }
  }
  for (Instruction* I : work) {
    IRBuilder<> b(I);
    b.SetCurrentDebugLocation(I->getDebugLoc());
    auto* ld = dyn_cast<LoadInst>(I);
    auto* st = dyn_cast<StoreInst>(I);
    auto* vt = cast<FixedVectorType>(ld ? ld->getType() : st->getValueOperand()->getType());
    Type* et = vt->getElementType();
    Value* ptr = ld ? ld->getPointerOperand() : st->getPointerOperand();
    const Align align = ld ? ld->getAlign() : st->getAlign();
    const uint64_t size = dl.getTypeStoreSize(et);
    Value* vec = PoisonValue::get(vt);
    for (unsigned k = 0; k < vt->getNumElements(); ++k) {
      Value* p = b.CreateConstInBoundsGEP1_32(et, ptr, k);
      const Align a = commonAlignment(align, k * size);
      if (ld) {
        LoadInst* e = b.CreateAlignedLoad(et, p, a, ld->isVolatile());
        vec = b.CreateInsertElement(vec, e, k);
      } else {
        b.CreateAlignedStore(b.CreateExtractElement(st->getValueOperand(), k), p, a,
                             st->isVolatile());
      }
    }
    if (ld) ld->replaceAllUsesWith(vec);
    I->eraseFromParent();
  }
}

}  // namespace

void scalarizeVectorLoads(Module& m) {
  mapVectorLoadsAndStores(m);
  splitVectorBuiltins(m);
  PassBuilder pb;
  AnalysisManagers am(pb);
  FunctionAnalysisManager& fam = am.fam;
  // LLVM's Scalarizer splits every vector operation, phi and select into its elements and
  // leaves loads and stores whole (with extractelement/insertelement at their edges), so the
  // lowering meets vectors only in memory accesses and element moves. Variable indices
  // become compares and selects.
  ScalarizerPass scalarizer;
  scalarizer.setScalarizeLoadStore(false);
  scalarizer.setScalarizeVariableInsertExtract(true);
  for (Function& f : m) {
    if (f.isDeclaration()) continue;
    splitNarrowVectorAccesses(f);
    scalarizer.run(f, fam);
    fam.invalidate(f, PreservedAnalyses::none());
    // What the Scalarizer looked through (insertelement chains) may be left without users.
    bool changed = true;
    while (changed) {
      changed = false;
      for (BasicBlock& bb : f) {
        for (Instruction& I : make_early_inc_range(bb)) {
          if ((isa<InsertElementInst>(I) || isa<ExtractElementInst>(I) ||
               isa<ShuffleVectorInst>(I)) &&
              I.use_empty()) {
            I.eraseFromParent();
            changed = true;
          }
        }
      }
    }
  }
}

}  // namespace simt::compiler
