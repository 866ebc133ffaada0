// Symbolic byte offsets of a kernel's memory references (seed 004; docs/compiler.md, "Alias
// metadata"): an integer expression over the launch (scalar arguments, work-item ids and
// sizes) and loop iteration counts, written by the compiler from LLVM's scalar evolution and
// evaluated by the runtime at launch with the actual values. No LLVM here: the runtime and
// the kernel cache read and write the text form.
//
// Text form (one expression per memory reference, kept in the compiled kernel):
//   -12            a constant
//   a3             the value of scalar argument 3
//   gid0 lid1 grp2 the work-item's global id, local id, group id in a dimension
//   gsz0 lsz0 ngr0 goff0 dim   global size, local size, number of groups, global offset, work_dim
//   (+ X Y ..) (* X Y ..) (/u X Y) (smax X Y ..) (smin ..) (umax ..) (umin ..)
//   (zext X) (sext X) (trunc X)    conversions to the node's width from the operand's
//   (rec START STEP BTC)           START + STEP * k for k in [0, BTC] (a loop's iterations)
// A node's bit width follows a colon when it is not 32 (a3:8, (zext:32 a3:8) is (zext a3:8)).
// Integer nodes compute modulo 2^width as LLVM's do; the evaluator tracks which
// representative each operation needs (signed for smax and sext, unsigned for umax, udiv and
// zext) and gives up (unknown) when an interval straddles a wrap point, so that an evaluated
// range always contains every address the reference can touch.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace simt::compiler {

struct RangeExpr {
  enum class Op {
    Const, Arg, GlobalId, LocalId, GroupId, GlobalSize, LocalSize, NumGroups, GlobalOffset, WorkDim,
    Add, Mul, UDiv, SMax, SMin, UMax, UMin, ZExt, SExt, Trunc, Rec
  };
  Op op = Op::Const;
  int width = 32;
  int64_t value = 0;  // Const: the value; Arg: argument index; ids and sizes: the dimension
  std::vector<RangeExpr> ops;

  static RangeExpr constant(int64_t v, int width = 32);
  static RangeExpr leaf(Op op, int64_t index, int width = 32);
  static RangeExpr node(Op op, std::vector<RangeExpr> operands, int width = 32);

  std::string print() const;
  // Throws std::invalid_argument naming the position of the first error.
  static RangeExpr parse(const std::string& text);

  bool usesWorkItemIds() const;  // gid, lid or grp anywhere
  // Largest dimension index of an id leaf (-1: none).
  int maxIdDimension() const;
};

// A closed interval of integers (unbounded precision for the sizes the launch reaches).
struct Interval {
  __int128 lo = 0, hi = 0;
  bool known = false;
  static Interval exact(__int128 v) { return {v, v, true}; }
  static Interval of(__int128 lo, __int128 hi) { return {lo, hi, true}; }
  static Interval unknown() { return {}; }
};

// The values an expression is evaluated with: one work-item (ids exact) or a whole range
// (ids as intervals).
struct LaunchValues {
  std::vector<uint32_t> args;  // raw words of the kernel's arguments
  std::array<uint32_t, 3> globalSize{1, 1, 1}, localSize{1, 1, 1}, numGroups{1, 1, 1}, globalOffset{0, 0, 0};
  uint32_t workDim = 1;
  std::array<Interval, 3> globalId, localId, groupId;  // set per work-item or per range
};

// Every value the expression can take for the given launch values (unknown if it cannot say).
Interval evaluate(const RangeExpr& e, const LaunchValues& v);

// The interval as unsigned `width`-bit values (shifting by a multiple of 2^width), or unknown
// when it straddles 2^width's boundary.
Interval asUnsigned(Interval iv, int width);
Interval asSigned(Interval iv, int width);

}  // namespace simt::compiler
