// The front end: the clang-16 driver, run as a subprocess, parses OpenCL C 1.2 for 32-bit
// SPIR and optimises it (-O2); the bitcode is read back into an llvm::Module in process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/compiler.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace simt::compiler {

struct FrontendResult {
  std::unique_ptr<llvm::Module> module;
  std::string diagnostics;  // Clang's warnings (errors throw)
  std::vector<std::string> sources;  // the file and the headers it included (not the system's)
};

// Throws CompileError with Clang's diagnostics (FILE:LINE:COL: error: ...) when Clang fails.
FrontendResult runFrontend(const std::string& path, const CompileOptions& opt, llvm::LLVMContext& ctx);

// The clang command line runFrontend uses (for docs and tests).
std::vector<std::string> clangCommand(const std::string& path, const CompileOptions& opt,
                                      const std::string& output);

}  // namespace simt::compiler
