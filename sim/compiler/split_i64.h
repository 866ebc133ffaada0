// 64-bit integers before lowering (docs/compiler.md, "64-bit integers"): an IR pass with one
// job, LLVM 16 having no IR-level type legaliser. Every i64 value of a defined function
// becomes two i32 values, its low and high words, and every operation on i64 the
// equivalent i32 code: add/sub with the carry from an unsigned compare, mul from the low
// products and the 32x32 high word (OpenCL's mul_hi, which the lowering has), shifts by a
// constant or a variable, and/or/xor, every icmp predicate, select, phi, zext/sext/trunc,
// loads and stores as two words, ptrtoint/inttoptr, freeze, smin/smax/umin/umax/abs/ctpop/
// ctlz/cttz; an i64 index of a getelementptr is its low word (pointers have 32 bits).
//
// An i64 kernel argument stays, two param words: its uses become `trunc %a to i32` (the low
// word) and `trunc (lshr %a, 32) to i32` (the high word) at the entry, which the lowering
// reads as the two words. Division by a value that is not a power of two and i64 <-> float
// conversions are first rewritten by expandI64 (expand_i64.h) into i64 IR this pass splits.
// What it does not cover (atomics, i64 arguments or results of calls) it refuses naming the
// construct and the source line.
#pragma once

namespace llvm {
class Module;
class Argument;
class Instruction;
}  // namespace llvm

namespace simt::compiler {

void splitI64(llvm::Module& m);

// The i64 kernel argument an instruction left by splitI64 reads a word of (`trunc %a`,
// `lshr %a, 32`, `trunc (lshr %a, 32)`), with whether it is the high word; nullptr otherwise.
const llvm::Argument* i64ArgumentWord(const llvm::Instruction& I, bool* high);

}  // namespace simt::compiler
