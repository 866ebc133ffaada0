// The new pass manager's four analysis managers, registered with a pass builder and wired to
// each other (destroyed in the reverse order, module first): what every pipeline the compiler
// runs in process needs (the IR preparation, the vector scalarisation, the alias-optimised
// recompilation).
#pragma once

#include <llvm/Passes/PassBuilder.h>

namespace simt::compiler {

struct AnalysisManagers {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  explicit AnalysisManagers(llvm::PassBuilder& pb) {
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
  }
};

}  // namespace simt::compiler
