// The OpenCL float built-ins (docs/compiler.md, "FP32"). Two module passes run before
// inlining, each with one job:
//   - mapFloatBuiltins: the built-ins that are one FPU instruction or an LLVM operation
//     (fabs, sqrt, fma, mad, fmin, fmax, copysign, floor, ceil, trunc, rint, round, the
//     native_/half_ forms of divide, recip, sqrt and rsqrt, isnan, isless, ...) become the
//     LLVM intrinsic, fcmp or fdiv, so they need no library;
//   - linkMathLibrary: the other float built-ins (exp, log, pow, tanh, erf, ...) are linked
//     from libclc's bitcode (Debian's libclc-16), restricted to the functions the kernel
//     declares that take or return float; libclc's work-item functions are never taken.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace simt::compiler {

void mapFloatBuiltins(llvm::Module& m);

// The libclc bitcode linked for the math built-ins: $SIMT_LIBCLC, else SIMT_LIBCLC_DEFAULT
// (CMake), else /usr/lib/clc/nvptx--.bc. Empty if it does not exist.
std::string mathLibraryPath();

// Links the math built-ins the module declares. Those libclc does not define, or all when the
// library is missing, stay declarations: the lowering refuses them naming the line.
void linkMathLibrary(llvm::Module& m);

// libclc keeps its tables as vectors (<2 x float>): a load of a vector whose users are all
// extractelement with constant indices becomes scalar loads.
void scalarizeVectorLoads(llvm::Module& m);

}  // namespace simt::compiler
