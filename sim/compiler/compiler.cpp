#include "compiler/compiler.h"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/Scalar/StructurizeCFG.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LowerSwitch.h>

#include "compiler/divergence.h"
#include "compiler/pipeline.h"
#include "compiler/frontend.h"
#include "compiler/lower.h"
#include "compiler/regalloc.h"

namespace simt::compiler {

using namespace llvm;

const char* argKindName(ArgKind k) {
  switch (k) {
    case ArgKind::GlobalPtr: return "global";
    case ArgKind::ConstantPtr: return "constant";
    case ArgKind::LocalPtr: return "local";
    case ArgKind::Scalar: return "scalar";
  }
  return "?";
}

namespace {

// Recursion is an error (KERNELS.md): a cycle in the calls between defined functions.
void refuseRecursion(Module& m) {
  std::map<Function*, int> state;  // 1 on the stack, 2 done
  std::function<void(Function*)> visit = [&](Function* f) {
    state[f] = 1;
    for (BasicBlock& bb : *f) {
      for (Instruction& I : bb) {
        auto* call = dyn_cast<CallBase>(&I);
        if (!call || !call->getCalledFunction() || call->getCalledFunction()->isDeclaration()) continue;
        Function* g = call->getCalledFunction();
        if (state[g] == 1) {
          throw CompileError(sourcePos(&I) + ": error: recursion is not supported: '" + g->getName().str() +
                             "' is called while it runs");
        }
        if (state[g] == 0) visit(g);
      }
    }
    state[f] = 2;
  };
  for (Function& f : m) {
    if (!f.isDeclaration() && state[&f] == 0) visit(&f);
  }
}

// Every call to a defined function is inlined (cal/ret is a later step), then the module is
// optimised again, without vectorisation or unrolling.
void inlineAndOptimise(Module& m) {
  // As for clang (frontend.cpp): no closed-form loop exit values, they need wider integers.
  static const bool optionsSet = [] {
    const char* argv[] = {"simt", "-replexitval=never"};
    return cl::ParseCommandLineOptions(2, argv, "", &llvm::nulls());
  }();
  (void)optionsSet;
  bool any = false;
  for (Function& f : m) {
    if (f.isDeclaration() || f.getCallingConv() == CallingConv::SPIR_KERNEL) continue;
    if (f.use_empty()) continue;
    f.removeFnAttr(Attribute::NoInline);
    f.removeFnAttr(Attribute::OptimizeNone);
    f.addFnAttr(Attribute::AlwaysInline);
    any = true;
  }
  PipelineTuningOptions pto;
  pto.LoopVectorization = false;
  pto.SLPVectorization = false;
  pto.LoopUnrolling = false;
  PassBuilder pb(nullptr, pto);
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  if (any) {
    ModulePassManager mpm;
    mpm.addPass(AlwaysInlinerPass());
    mpm.addPass(pb.buildPerModuleDefaultPipeline(OptimizationLevel::O2));
    mpm.run(m, mam);
  }
  // Shapes the lowering relies on: no switch, loops with preheaders and dedicated exits.
  FunctionPassManager fpm;
  fpm.addPass(LowerSwitchPass());
  fpm.addPass(LoopSimplifyPass());
  ModulePassManager mpm2;
  mpm2.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm2.run(m, mam);
}

// The analyses the lowering reads, computed together (and again after a transformation).
struct KernelAnalyses {
  DominatorTree dt;
  LoopInfo li;
  PostDominatorTree pdt;
  std::unique_ptr<UniformityInfo> ui;
  ReconvergencePlan plan;
  explicit KernelAnalyses(Function& f)
      : dt(f), li(dt), pdt(f), ui(std::make_unique<UniformityInfo>(f, pdt, li)), plan(planReconvergence(f, *ui, pdt, li)) {}
};

// LLVM's StructurizeCFG: every region single-entry, single-exit, so that the divergent
// branches the plan could not give a token of their own nest.
void structurize(Function& f) {
  PassBuilder pb;
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  FunctionPassManager fpm;
  fpm.addPass(StructurizeCFGPass());
  fpm.addPass(LoopSimplifyPass());
  fpm.run(f, fam);
}

std::string metaString(const Function& f, const char* kind, unsigned i) {
  if (const MDNode* md = f.getMetadata(kind)) {
    if (i < md->getNumOperands()) {
      if (const auto* s = dyn_cast<MDString>(md->getOperand(i))) return s->getString().str();
    }
  }
  return "";
}

std::vector<ArgInfo> kernelArgs(Function& f) {
  std::vector<ArgInfo> args;
  for (Argument& a : f.args()) {
    ArgInfo ai;
    ai.name = metaString(f, "kernel_arg_name", a.getArgNo());
    ai.typeName = metaString(f, "kernel_arg_type", a.getArgNo());
    std::string where = f.getName().str() + " argument " + std::to_string(a.getArgNo() + 1);
    const Instruction* at = f.getEntryBlock().getFirstNonPHIOrDbg();
    if (a.hasByValAttr() || a.hasStructRetAttr()) {
      throw CompileError(sourcePos(at) + ": error: " + where + ": struct arguments by value are not supported");
    }
    Type* t = a.getType();
    if (ai.typeName.find("image") != std::string::npos || ai.typeName.find("sampler") != std::string::npos ||
        ai.typeName.find("event_t") != std::string::npos) {
      throw CompileError(sourcePos(at) + ": error: " + where + " (" + ai.typeName + "): images and samplers are not supported");
    }
    if (t->isPointerTy()) {
      switch (t->getPointerAddressSpace()) {
        case 1: ai.kind = ArgKind::GlobalPtr; break;
        case 2: ai.kind = ArgKind::ConstantPtr; break;
        case 3: ai.kind = ArgKind::LocalPtr; break;
        default: throw CompileError(sourcePos(at) + ": error: " + where + ": a pointer in this address space is not supported");
      }
    } else if (t->isIntegerTy() && t->getIntegerBitWidth() <= 32) {
      ai.kind = ArgKind::Scalar;
    } else if (t->isFloatTy()) {
      ai.kind = ArgKind::Scalar;
      ai.isFloat = true;
    } else {
      throw CompileError(sourcePos(at) + ": error: " + where + " (" + ai.typeName + "): this argument type is not supported");
    }
    args.push_back(ai);
  }
  return args;
}

}  // namespace

void prepareModule(Module& m) {
  refuseRecursion(m);
  inlineAndOptimise(m);
}

namespace {

CompiledKernel compileOne(const std::string& path, const CompileOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  LLVMContext ctx;
  FrontendResult fe = runFrontend(path, opt, ctx);
  Module& m = *fe.module;
  std::vector<Function*> kernels;
  for (Function& f : m) {
    if (!f.isDeclaration() && f.getCallingConv() == CallingConv::SPIR_KERNEL) kernels.push_back(&f);
  }
  Function* kernel = nullptr;
  std::string names;
  for (Function* k : kernels) {
    names += (names.empty() ? "" : ", ") + k->getName().str();
    if (k->getName() == opt.kernel) kernel = k;
  }
  if (kernels.empty()) throw CompileError(path + ": error: no __kernel function in the file");
  if (opt.kernel.empty()) {
    if (kernels.size() > 1) throw CompileError(path + ": error: several kernels (" + names + "): choose one with --kernel");
    kernel = kernels.front();
  } else if (!kernel) {
    throw CompileError(path + ": error: no kernel '" + opt.kernel + "' (kernels: " + names + ")");
  }
  prepareModule(m);

  CompiledKernel ck;
  ck.name = kernel->getName().str();
  ck.diagnostics = fe.diagnostics;
  ck.sources = fe.sources;
  ck.args = kernelArgs(*kernel);
  ck.hiddenBase = static_cast<int>(ck.args.size());
  for (BasicBlock& bb : *kernel) {
    for (Instruction& I : bb) {
      if (auto* call = dyn_cast<CallBase>(&I); call && call->getCalledFunction() &&
          !call->getCalledFunction()->isDeclaration()) {
        throw CompileError(sourcePos(&I) + ": error: the call to '" + call->getCalledFunction()->getName().str() +
                           "' could not be inlined");
      }
    }
  }
  auto an = std::make_unique<KernelAnalyses>(*kernel);
  if (an->plan.droppedTokens > 0 && opt.structurize) {
    structurize(*kernel);
    an = std::make_unique<KernelAnalyses>(*kernel);
    ck.structurized = true;
  }
  const UniformityInfo& ui = *an->ui;
  const ReconvergencePlan& plan = an->plan;
  const ModuleLayout layout = layoutGlobals(*kernel);
  LoweredFunction lf = lowerFunction(*kernel, ui, plan, layout, ck.hiddenBase, opt.assumeLinearRange, an->li);
  ck.variant = opt.assumeLinearRange ? "linear" : "default";
  const AllocationResult ra = allocateRegisters(lf.mf, lf.frameBytes, lf.usesFrame,
                                                4 * (ck.hiddenBase + hidden::kPrivateBase), opt.maxRegisters);
  ck.staticLocalBytes = layout.localBytes;
  ck.frameBytes = ra.usesFrame ? ra.frameBytes : 0;
  ck.stats.virtualRegisters = lf.mf.numVRegs;
  ck.stats.spilledRegisters = ra.spilled;
  ck.stats.spillLoads = ra.spillLoads;
  ck.stats.spillStores = ra.spillStores;
  ck.stats.divergentBranches = lf.divergentBranches;
  ck.stats.uniformBranches = lf.uniformBranches;
  ck.stats.reconvergenceTokens = static_cast<int>(plan.tokens.size());
  ck.stats.yields = lf.yields;
  ck.stats.unnestedBranches = plan.droppedTokens;
  for (const auto& b : lf.mf.blocks) ck.stats.instructions += static_cast<int>(b.insts.size());

  std::ostringstream os;
  os << "; " << ck.name << ": compiled from " << path << " by simt cc (docs/compiler.md), variant " << ck.variant << "\n";
  os << "; params: ";
  for (size_t i = 0; i < ck.args.size(); ++i) {
    os << "[" << 4 * i << "] " << (ck.args[i].name.empty() ? "arg" + std::to_string(i) : ck.args[i].name) << " ("
       << argKindName(ck.args[i].kind) << ") ";
  }
  os << "[" << 4 * ck.hiddenBase << "..] hidden launch block\n";
  os << "; local memory " << ck.staticLocalBytes << " bytes static; private frame " << ck.frameBytes
     << " bytes per work-item; " << ck.stats.spilledRegisters << " spilled\n";
  os << ".kernel " << ck.name << "\n";
  if (!layout.dataSection.empty()) os << ".data\n" << layout.dataSection;
  os << ".text\n" << lf.mf.print();
  ck.assembly = os.str();
  ck.stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return ck;
}

}  // namespace

CompiledKernel compileFile(const std::string& path, const CompileOptions& opt) {
  try {
    return compileOne(path, opt);
  } catch (const CompileError&) {
    throw;
  } catch (const std::exception& e) {  // a bug of the lowering: reported, never a crash
    throw CompileError(path + ": error: internal compiler error: " + e.what());
  }
}

}  // namespace simt::compiler
