// The OpenCL float built-ins (docs/compiler.md, "FP32"). Two module passes run before
// inlining, each with one job:
//   - mapFloatBuiltins: the built-ins that are one FPU instruction or an LLVM operation
//     (fabs, sqrt, fma, mad, fmin, fmax, copysign, floor, ceil, trunc, rint, round, the
//     native_/half_ forms of divide, recip, sqrt and rsqrt, isnan, isless, ...) become the
//     LLVM intrinsic, fcmp or fdiv, so they need no library;
//   - linkMathLibrary: the other float built-ins (exp, log, pow, tanh, erf, ...) are linked
//     from libclc's bitcode (Debian's libclc-16), restricted to the functions the kernel
//     declares that take or return float; libclc's work-item functions are never taken;
//     libclc's erfc (one mask) and tgamma (Stirling's series for 4 <= |x| < 36) are
//     corrected after the link (docs/compiler.md, "FP32", below the accuracy table).
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

// Vectors before lowering (docs/compiler.md, "Vector types and vector memory"): vloadN and
// vstoreN become loads and stores of <N x T> aligned to the element; element-wise built-ins
// on vectors (min, clamp, fabs, ..., select) become scalar ones per element; loads and stores
// of vectors whose elements are not 32 bits become element accesses; then LLVM's Scalarizer
// splits every other vector operation into its elements, keeping loads and stores of 32-bit
// elements whole for the lowering (ld/st.global.v4 when global and 16-byte aligned, word
// accesses otherwise; libclc's <2 x float> tables are such loads). The name is historical.
void scalarizeVectorLoads(llvm::Module& m);

}  // namespace simt::compiler
