// The IR preparation compileFile runs between the front end and the analyses, for the tests
// of the analyses (tb/compiler/test_passes.cpp).
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace simt::compiler {

// Refuses recursion (CompileError), inlines every call to a defined function, optimises
// again (O2 without vectorisation or unrolling), lowers switches, puts loops in simplified
// form (preheaders, dedicated exits).
// keepNoinline: functions marked noinline stay (subroutines, CompileOptions::subroutines).
void prepareModule(llvm::Module& m, bool keepNoinline = false);

}  // namespace simt::compiler
