// Instruction selection: one LLVM function (a kernel, everything else inlined) to machine IR
// with virtual registers, out of SSA (phi copies on edges), with the reconvergence plan's
// ssy/sync/yield on the edges it names.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "compiler/compiler.h"
#include "compiler/divergence.h"
#include "compiler/mir.h"

namespace llvm {
class Function;
class GlobalVariable;
class LoopInfo;
}  // namespace llvm

namespace simt::compiler {

// Where module-level variables live: __local ones in shared memory from 0, __constant ones
// as data labels in the kernel's .data section.
struct ModuleLayout {
  std::map<const llvm::GlobalVariable*, uint32_t> localOffset;
  std::map<const llvm::GlobalVariable*, std::string> constantLabel;
  uint32_t localBytes = 0;
  std::string dataSection;  // assembly lines for the __constant data
};

ModuleLayout layoutGlobals(llvm::Function& kernel);

// How one function is lowered: the kernel, or a subroutine (`cal`/`ret`) whose arguments
// and return value travel through its frame (docs/compiler.md, "Subroutines").
struct LowerMode {
  bool isKernel = true;
  std::string prefix;        // label prefix, unique per function
  bool subroutines = false;  // calls to defined functions become `cal` (else refused)
};
std::string subroutineLabel(const llvm::Function& f);

struct LoweredFunction {
  MFunction mf;
  uint32_t frameBytes = 0;  // private arrays (allocas)
  bool usesFrame = false;   // r30 holds the frame pointer
  bool calls = false;       // contains `cal` (a subroutine must keep its r31)
  bool dividesIds = false;  // the prologue reads the id division words (hidden::kIdLocal..)
  int divergentBranches = 0, uniformBranches = 0, yields = 0;
};

// hiddenBase: the param word where the hidden block starts (the argument count).
// assumeLinear: the launch is known to be linear (hidden::kLinear): no division path.
LoweredFunction lowerFunction(llvm::Function& f, const UniformityInfo& ui, const ReconvergencePlan& plan,
                              const ModuleLayout& layout, int hiddenBase, bool assumeLinear,
                              const llvm::LoopInfo& li, const LowerMode& mode = {});

// The frame pointer register (per-thread private memory in global memory).
constexpr int kFramePointer = 30;

}  // namespace simt::compiler
