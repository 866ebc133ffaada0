#include "compiler/float_builtins.h"

#include <sys/stat.h>

#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

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
  // libclc's functions use the C calling convention, the kernel's calls SPIR's: one for all,
  // or the optimiser would take the mismatched calls for undefined behaviour.
  for (Function& f : m) {
    if (f.getCallingConv() == CallingConv::SPIR_KERNEL || f.isIntrinsic()) continue;
    f.setCallingConv(CallingConv::SPIR_FUNC);
    for (User* u : f.users()) {
      if (auto* c = dyn_cast<CallInst>(u); c && c->getCalledFunction() == &f) c->setCallingConv(CallingConv::SPIR_FUNC);
    }
  }
  // A built-in whose libclc code (or a function it calls) computes in 64-bit integers or
  // double cannot be lowered: it goes back to a declaration that the lowering refuses,
  // naming the built-in (sin, cos, tan: libclc's argument reduction multiplies in 64 bits).
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
          auto bad = [](Type* t) { return t->isIntegerTy(64) || t->isDoubleTy(); };
          wide |= bad(I.getType());
          for (const Use& u : I.operands()) wide |= bad(u->getType());
          if (auto* c = dyn_cast<CallInst>(&I); c && c->getCalledFunction()) work.push_back(c->getCalledFunction());
        }
      }
    }
    if (wide) {
      f->deleteBody();
      f->addFnAttr(kRefusedAttr, "libclc's float version needs 64-bit integers, which the lowering does not have");
    }
  }
}

void scalarizeVectorLoads(Module& m) {
  for (Function& f : m) {
    std::vector<LoadInst*> loads;
    for (BasicBlock& bb : f) {
      for (Instruction& I : bb) {
        auto* ld = dyn_cast<LoadInst>(&I);
        if (!ld || !isa<FixedVectorType>(ld->getType()) || ld->isVolatile()) continue;
        bool ok = !ld->use_empty();
        for (User* u : ld->users()) {
          auto* ee = dyn_cast<ExtractElementInst>(u);
          ok &= ee && isa<ConstantInt>(ee->getIndexOperand());
        }
        if (ok) loads.push_back(ld);
      }
    }
    for (LoadInst* ld : loads) {
      auto* vt = cast<FixedVectorType>(ld->getType());
      Type* et = vt->getElementType();
      IRBuilder<> b(ld);
      std::map<uint64_t, Value*> lane;
      for (User* u : std::vector<User*>(ld->user_begin(), ld->user_end())) {
        auto* ee = cast<ExtractElementInst>(u);
        const uint64_t i = cast<ConstantInt>(ee->getIndexOperand())->getZExtValue();
        Value*& v = lane[i];
        if (!v) {
          Value* p = b.CreateConstInBoundsGEP1_32(et, ld->getPointerOperand(), static_cast<unsigned>(i));
          auto* s = b.CreateLoad(et, p);
          s->setDebugLoc(ld->getDebugLoc());
          v = s;
        }
        ee->replaceAllUsesWith(v);
        ee->eraseFromParent();
      }
      ld->eraseFromParent();
    }
  }
}

}  // namespace simt::compiler
