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
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/StructurizeCFG.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LowerSwitch.h>

#include "compiler/access_metadata.h"
#include "compiler/analysis_managers.h"
#include "compiler/builtins.h"
#include "compiler/alias_opt.h"
#include "compiler/divergence.h"
#include "compiler/float_builtins.h"
#include "compiler/pipeline.h"
#include "compiler/frontend.h"
#include "compiler/iv_divrem.h"
#include "compiler/lower.h"
#include "compiler/regalloc.h"
#include "compiler/split_i64.h"

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

// With m = ceil(2^s / d) and e = m*d - 2^s (0 <= e < d), n*m / 2^s = n/d + n*e / (d * 2^s);
// for n = q*d + r that is q + (r + n*e / 2^s) / d, and r <= d - 1, so the floor is q as long
// as n*e < 2^s. The smallest such s keeps m, and so n*m, smallest. With n < 2^N and
// 2^(l-1) < d <= 2^l, s = N + l satisfies n*e < 2^s and m <= 2^(N+1), n*m < 2^(2N+1): any
// N <= 15 fits 32 bits.
std::optional<hidden::IdDivision> hidden::idDivision(uint32_t divisor, uint32_t maxDividend) {
  if (divisor == 0) return std::nullopt;
  if (maxDividend < divisor) return IdDivision{0, 0};  // every quotient is 0
  for (uint32_t s = 0; s < 32; ++s) {
    const uint64_t p = uint64_t{1} << s;
    const uint64_t m = (p + divisor - 1) / divisor;
    const uint64_t e = m * divisor - p;
    if (m * maxDividend >= (uint64_t{1} << 32)) break;  // m only grows with s
    if (e == 0 || maxDividend <= (p - 1) / e) return IdDivision{static_cast<uint32_t>(m), s};
  }
  return std::nullopt;
}

std::string AliasFacts::key() const {
  std::ostringstream os;
  const char* sep = "";
  if (!noalias.empty()) {
    os << "noalias";
    for (int a : noalias) os << " " << a;
    sep = "; ";
  }
  for (const auto& d : distances) {
    os << sep << "distance " << d.a << " " << d.b << " " << (d.bytes >= 0 ? "+" : "") << d.bytes;
    sep = "; ";
  }
  if (!alignment.empty()) {
    os << sep << "align";
    for (const auto& [a, b] : alignment) os << " " << a << ":" << b;
    sep = "; ";
  }
  if (!lowZeroBits.empty()) {
    os << sep << "lowzero";
    for (const auto& [a, b] : lowZeroBits) os << " " << a << ":" << b;
  }
  return os.str();
}

AliasFacts AliasFacts::parse(const std::string& text) {
  AliasFacts f;
  std::istringstream clauses(text);
  std::string clause;
  auto bad = [&](const std::string& what) {
    return CompileError("error: alias facts '" + text + "': " + what + " (expected e.g. "
                        "\"noalias 0 1; distance 0 2 +16; align 0:16; lowzero 3:4\")");
  };
  auto number = [&](const std::string& t) {
    size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != t.size() || t.empty()) throw bad("'" + t + "' is not a number");
    return v;
  };
  auto pairOf = [&](const std::string& t) {
    const auto c = t.find(':');
    if (c == std::string::npos) throw bad("'" + t + "' is not ARG:VALUE");
    return std::make_pair(static_cast<int>(number(t.substr(0, c))), static_cast<int>(number(t.substr(c + 1))));
  };
  while (std::getline(clauses, clause, ';')) {
    std::istringstream words(clause);
    std::string kind, w;
    if (!(words >> kind)) continue;
    std::vector<std::string> rest;
    while (words >> w) rest.push_back(w);
    if (kind == "noalias") {
      for (const auto& r : rest) f.noalias.push_back(static_cast<int>(number(r)));
    } else if (kind == "distance") {
      if (rest.size() != 3) throw bad("distance takes A B BYTES");
      f.distances.push_back({static_cast<int>(number(rest[0])), static_cast<int>(number(rest[1])), number(rest[2])});
    } else if (kind == "align" || kind == "lowzero") {
      for (const auto& r : rest) (kind == "align" ? f.alignment : f.lowZeroBits).push_back(pairOf(r));
    } else {
      throw bad("unknown clause '" + kind + "'");
    }
  }
  for (const auto& [a, b] : f.alignment) {
    if (b != 4 && b != 8 && b != 16) throw bad("an alignment is 4, 8 or 16 bytes");
  }
  for (const auto& [a, b] : f.lowZeroBits) {
    if (b < 1 || b > 4) throw bad("low zero bits are 1 to 4");
  }
  return f;
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

// Clang marks every OpenCL function convergent, the work-item queries too (get_global_size,
// get_local_id, ...), and LICM leaves convergent calls where they are: a grid-stride loop
// then reloads get_global_size(0) from the params on every iteration. Their values depend on
// neither memory nor which threads run together (they are the launch's and the work-item's),
// so moving them across control flow is safe: their calls and declarations lose
// `convergent`. Whether any such call sits in a loop (then LICM is worth running).
bool workItemQueriesNotConvergent(Module& m) {
  static const std::set<std::string> kQueries = {
      "get_work_dim", "get_global_size", "get_global_id",  "get_local_size",
      "get_local_id", "get_num_groups",  "get_group_id",   "get_global_offset"};
  std::map<Function*, std::vector<BasicBlock*>> callers;  // where the queries are called
  for (Function& decl : m) {
    if (!decl.isDeclaration() || !kQueries.count(demangle(decl.getName().str()).name)) continue;
    decl.removeFnAttr(Attribute::Convergent);
    for (User* u : decl.users()) {
      auto* call = dyn_cast<CallInst>(u);
      if (!call || call->getCalledFunction() != &decl) continue;
      call->removeFnAttr(Attribute::Convergent);
      callers[call->getFunction()].push_back(call->getParent());
    }
  }
  for (auto& [f, blocks] : callers) {
    DominatorTree dt(*f);
    LoopInfo li(dt);
    for (BasicBlock* bb : blocks) {
      if (li.getLoopFor(bb)) return true;
    }
  }
  return false;
}

// Every call to a defined function is inlined (cal/ret is a later step), then the module is
// optimised again, without vectorisation or unrolling.
void inlineAndOptimise(Module& m, bool keepNoinline) {
  // As for clang (frontend.cpp): no closed-form loop exit values, they need wider integers.
  static const bool optionsSet = [] {
    // The alias-optimised variant's runtime unrolling leaves the remainder iterations after
    // the unrolled loop, which then starts where the work-item's range starts (aligned).
    const char* argv[] = {"simt", "-replexitval=never", "-unroll-runtime-epilog=true"};
    return cl::ParseCommandLineOptions(3, argv, "", &llvm::nulls());
  }();
  (void)optionsSet;
  bool any = false;
  for (Function& f : m) {
    if (f.isDeclaration() || f.getCallingConv() == CallingConv::SPIR_KERNEL) continue;
    if (f.use_empty()) continue;
    if (keepNoinline && f.hasFnAttribute(Attribute::NoInline)) continue;  // a subroutine
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
  AnalysisManagers am(pb);
  if (any) {
    ModulePassManager mpm;
    mpm.addPass(AlwaysInlinerPass());
    mpm.addPass(pb.buildPerModuleDefaultPipeline(OptimizationLevel::O2));
    mpm.run(m, am.mam);
  }
  // The work-item queries out of loops (their values never change within a launch).
  if (workItemQueriesNotConvergent(m)) {
    FunctionPassManager hoist;
    hoist.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()), /*UseMemorySSA=*/true));
    ModulePassManager mpm;
    mpm.addPass(createModuleToFunctionPassAdaptor(std::move(hoist)));
    mpm.run(m, am.mam);
  }
  // Shapes the lowering relies on: no switch, loops with preheaders and dedicated exits;
  // then the division and remainder of induction variables by constants become recurrences
  // (the core has no divide or high multiply: iv_divrem.h).
  FunctionPassManager fpm;
  fpm.addPass(LowerSwitchPass());
  fpm.addPass(LoopSimplifyPass());
  fpm.addPass(DivRemOfInductionVariablePass());
  ModulePassManager mpm2;
  mpm2.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm2.run(m, am.mam);
}

// The analyses the lowering reads, computed together (and again after a transformation).
struct KernelAnalyses {
  DominatorTree dt;
  LoopInfo li;
  PostDominatorTree pdt;
  std::unique_ptr<UniformityInfo> ui;
  ReconvergencePlan plan;
  explicit KernelAnalyses(Function& f, bool argumentsVary = false)
      : dt(f), li(dt), pdt(f), ui(std::make_unique<UniformityInfo>(f, pdt, li, argumentsVary)),
        plan(planReconvergence(f, *ui, pdt, li)) {}
};

// LLVM's StructurizeCFG: every region single-entry, single-exit, so that the divergent
// branches the plan could not give a token of their own nest.
void structurize(Function& f) {
  PassBuilder pb;
  AnalysisManagers am(pb);
  FunctionPassManager fpm;
  fpm.addPass(StructurizeCFGPass());
  fpm.addPass(LoopSimplifyPass());
  fpm.run(f, am.fam);
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
    } else if (t->isIntegerTy(64)) {  // long, ulong: two words, low first
      ai.kind = ArgKind::Scalar;
      ai.words = 2;
    } else if (t->isFloatTy()) {
      ai.kind = ArgKind::Scalar;
      ai.isFloat = true;
    } else {
      throw CompileError(sourcePos(at) + ": error: " + where + " (" + ai.typeName + "): this argument type is not supported");
    }
    ai.word = args.empty() ? 0 : args.back().word + args.back().words;
    args.push_back(ai);
  }
  return args;
}

}  // namespace

void prepareModule(Module& m, bool keepNoinline) {
  mapFloatBuiltins(m);
  linkMathLibrary(m);
  refuseRecursion(m);
  inlineAndOptimise(m, keepNoinline);
  scalarizeVectorLoads(m);
  splitI64(m);
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
  prepareModule(m, opt.subroutines);

  CompiledKernel ck;
  {
    ReferenceAnalysis refs = analyseReferences(*kernel);
    ck.references = std::move(refs.references);
    ck.referencesComplete = refs.complete;
  }
  if (opt.alias.permitsOptimisation()) {
    const AliasOptStats as = optimiseForAliasFacts(*kernel, opt.alias);
    scalarizeVectorLoads(m);
    splitI64(m);
    ck.aliasFacts = opt.alias.key();
    ck.unrolledLoops = as.unrollRequests;
    ck.vectorAccesses = as.vectorAccesses;
  }
  ck.name = kernel->getName().str();
  ck.diagnostics = fe.diagnostics;
  ck.sources = fe.sources;
  ck.args = kernelArgs(*kernel);
  ck.hiddenBase = ck.args.empty() ? 0 : ck.args.back().word + ck.args.back().words;
  if (!opt.subroutines) {
    for (BasicBlock& bb : *kernel) {
      for (Instruction& I : bb) {
        if (auto* call = dyn_cast<CallBase>(&I); call && call->getCalledFunction() &&
            !call->getCalledFunction()->isDeclaration()) {
          throw CompileError(sourcePos(&I) + ": error: the call to '" + call->getCalledFunction()->getName().str() +
                             "' could not be inlined");
        }
      }
    }
  }
  // The kernel and the subroutines it reaches, callers before callees.
  std::vector<Function*> order;
  {
    std::set<Function*> seen;
    std::vector<Function*> post;
    std::function<void(Function*)> visit = [&](Function* f) {
      seen.insert(f);
      for (BasicBlock& bb : *f) {
        for (Instruction& I : bb) {
          auto* call = dyn_cast<CallBase>(&I);
          if (!call || !call->getCalledFunction() || call->getCalledFunction()->isDeclaration()) continue;
          if (!seen.count(call->getCalledFunction())) visit(call->getCalledFunction());
        }
      }
      post.push_back(f);
    };
    visit(kernel);
    order.assign(post.rbegin(), post.rend());
  }
  const ModuleLayout layout = layoutGlobals(*kernel);
  ck.variant = opt.assumeLinearRange ? "linear" : "default";
  struct Piece {
    Function* f = nullptr;
    LoweredFunction lf;
    uint32_t frame = 0;
    std::string label;
  };
  std::vector<Piece> pieces;
  for (Function* f : order) {
    const bool isKernel = f == kernel;
    auto an = std::make_unique<KernelAnalyses>(*f, !isKernel);
    if (an->plan.droppedTokens > 0 && opt.structurize) {
      structurize(*f);
      an = std::make_unique<KernelAnalyses>(*f, !isKernel);
      ck.structurized = true;
    }
    LowerMode mode;
    mode.isKernel = isKernel;
    mode.prefix = isKernel ? "" : subroutineLabel(*f) + "_";
    mode.subroutines = opt.subroutines;
    Piece pc;
    pc.f = f;
    pc.label = isKernel ? "" : subroutineLabel(*f);
    pc.lf = lowerFunction(*f, *an->ui, an->plan, layout, ck.hiddenBase, opt.assumeLinearRange, an->li, mode);
    const AllocationResult ra =
        allocateRegisters(pc.lf.mf, pc.lf.frameBytes, pc.lf.usesFrame,
                          isKernel ? 4 * (ck.hiddenBase + hidden::kPrivateBase) : -1, opt.maxRegisters);
    pc.frame = ra.usesFrame ? ra.frameBytes : 0;
    if (!isKernel) pc.frame = insertCalleeSaves(pc.lf.mf, ra.frameBytes, pc.lf.calls);
    ck.stats.virtualRegisters += pc.lf.mf.numVRegs;
    ck.stats.spilledRegisters += ra.spilled;
    ck.stats.spillLoads += ra.spillLoads;
    ck.stats.spillStores += ra.spillStores;
    ck.stats.divergentBranches += pc.lf.divergentBranches;
    ck.stats.uniformBranches += pc.lf.uniformBranches;
    ck.stats.reconvergenceTokens += static_cast<int>(an->plan.tokens.size());
    ck.stats.yields += pc.lf.yields;
    if (pc.lf.dividesIds) ck.hiddenWords = hidden::kWordsWithIds;
    ck.stats.unnestedBranches += an->plan.droppedTokens;
    pieces.push_back(std::move(pc));
  }
  // Frames: a static overlay (no recursion): a subroutine's frame follows every caller's.
  std::map<std::string, uint32_t> base;
  uint32_t total = 0;
  for (Piece& pc : pieces) {
    const uint32_t b = base[pc.label];
    total = std::max(total, b + pc.frame);
    for (BasicBlock& bb : *pc.f) {
      for (Instruction& I : bb) {
        auto* call = dyn_cast<CallBase>(&I);
        if (!call || !call->getCalledFunction() || call->getCalledFunction()->isDeclaration()) continue;
        uint32_t& cb = base[subroutineLabel(*call->getCalledFunction())];
        cb = std::max(cb, b + pc.frame);
      }
    }
  }
  for (Piece& pc : pieces) {
    const uint32_t own = base[pc.label];
    for (MBlock& blk : pc.lf.mf.blocks) {
      for (MInst& in : blk.insts) {
        for (Opnd& o : in.srcs) {
          if (o.kind == Opnd::Mem && o.reg == kFramePointer && !o.baseIsVReg) o.imm += o.frameOf.empty() ? own : base[o.frameOf];
        }
        if (in.op == "add" && in.srcs.size() == 2 && in.srcs[0].kind == Opnd::PReg && in.srcs[0].reg == kFramePointer &&
            in.srcs[1].kind == Opnd::Imm) {
          in.srcs[1].imm += own;
        }
        // The kernel's frame pointer spans every frame: gtid * total.
        if (pc.label.empty() && in.op == "mul" && in.dst.kind == Opnd::PReg && in.dst.reg == kFramePointer) {
          in.srcs[1].imm = total;
        }
      }
    }
    for (const auto& blk : pc.lf.mf.blocks) ck.stats.instructions += static_cast<int>(blk.insts.size());
  }
  ck.staticLocalBytes = layout.localBytes;
  ck.frameBytes = total;
  MFunction& kmf = pieces.front().lf.mf;

  std::ostringstream os;
  os << "; " << ck.name << ": compiled from " << path << " by simt cc (docs/compiler.md), variant " << ck.variant << "\n";
  os << "; params: ";
  for (size_t i = 0; i < ck.args.size(); ++i) {
    os << "[" << 4 * ck.args[i].word << (ck.args[i].words == 2 ? "," + std::to_string(4 * ck.args[i].word + 4) : "") << "] " << (ck.args[i].name.empty() ? "arg" + std::to_string(i) : ck.args[i].name) << " ("
       << argKindName(ck.args[i].kind) << ") ";
  }
  os << "[" << 4 * ck.hiddenBase << ".." << 4 * (ck.hiddenBase + ck.hiddenWords) - 1 << "] hidden launch block\n";
  if (!ck.aliasFacts.empty()) {
    os << "; alias-optimised variant (seed 004) for: " << ck.aliasFacts << "; " << ck.unrolledLoops
       << " loop(s) unrolled by 4, " << ck.vectorAccesses << " vector access(es)\n";
  }
  os << "; local memory " << ck.staticLocalBytes << " bytes static; private frame " << ck.frameBytes
     << " bytes per work-item; " << ck.stats.spilledRegisters << " spilled\n";
  os << ".kernel " << ck.name << "\n";
  if (!layout.dataSection.empty()) os << ".data\n" << layout.dataSection;
  os << ".text\n" << kmf.print();
  for (size_t i = 1; i < pieces.size(); ++i) {
    os << "; subroutine " << pieces[i].f->getName().str() << " (frame at +" << base[pieces[i].label] << ", "
       << pieces[i].frame << " bytes)\n" << pieces[i].lf.mf.print();
  }
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
