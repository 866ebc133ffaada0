// 64-bit operations that have no word-by-word form, rewritten into 64-bit IR that splitI64
// splits (docs/compiler.md, "64-bit integers"); splitI64 runs it on each function first.
//
// - udiv/urem/sdiv/srem on i64 by a value that is not a power of two: 32-bit division when
//   both operands fit in 32 bits, else a shift-subtract loop over the quotient's bits
//   (normalised with ctlz, so it runs clz(d) - clz(n) + 1 times); the signed forms divide the
//   magnitudes and fix the signs (truncation toward zero, the remainder takes the dividend's
//   sign). x / 0 gives all ones (unsigned; -1 or 1 signed, as the 32-bit sequence), x % 0
//   gives x, INT64_MIN / -1 gives INT64_MIN.
// - sitofp/uitofp i64 -> float: the value normalised with ctlz, its low word folded into a
//   sticky bit, the 32-bit conversion's round to nearest even, the exponent moved back.
// - fptosi/fptoui float -> i64 (and llvm.fptosi/fptoui.sat): exponent and mantissa
//   arithmetic, saturating as the 32-bit fcvt does (NaN gives 0).
#pragma once

namespace llvm {
class BinaryOperator;
class Function;
}  // namespace llvm

namespace simt::compiler {

// Whether splitI64 divides by a shift: a constant power of two other than 2^63.
bool dividesByShift(const llvm::BinaryOperator& div);

// Returns whether the function changed.
bool expandI64(llvm::Function& f);

}  // namespace simt::compiler
