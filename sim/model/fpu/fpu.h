// Golden model of simt_fpu (rtl/fpu/, docs/blocks/fpu.md): the bits of every FP32 operation,
// computed with the host's IEEE-754 float (std::fma, std::sqrt, std::nearbyint under
// std::fesetround for the conversions' modes) and the FPU's rules around it:
//   - subnormal inputs are flushed to the zero of their sign (all operations but abs/neg);
//   - a subnormal result (the host's correctly rounded result, i.e. after rounding) is
//     flushed to the zero of its sign;
//   - every NaN result is the canonical quiet NaN 0x7FC00000;
//   - arithmetic rounds to nearest even; the conversions take a rounding mode;
//   - f32 -> s32/u32 saturate, NaN -> 0.
// The host must run with its default floating-point environment (no FTZ/DAZ, round to
// nearest): Fpu::hostIsIeee() checks it.
#pragma once

#include <cstdint>
#include <string>

namespace simt::model {

class Fpu {
 public:
  // Numbered as simt_fpu_pkg::op_e, rm_e and cmp_e.
  enum class Op : uint8_t {
    Add = 0, Sub = 1, Mul = 2, Fma = 3, Min = 4, Max = 5, Abs = 6, Neg = 7, Cmp = 8,
    F2S = 9, F2U = 10, S2F = 11, U2F = 12, Div = 13, Sqrt = 14
  };
  static constexpr int kNumOps = 15;
  enum class Rm : uint8_t { Rne = 0, Rtz = 1, Rdn = 2, Rup = 3 };
  enum class Cmp : uint8_t {
    Eq = 0, Ne = 1, Lt = 2, Le = 3, Gt = 4, Ge = 5, Equ = 6, Neu = 7, Ltu = 8, Leu = 9,
    Gtu = 10, Geu = 11, Num = 12, Nan = 13
  };
  static constexpr int kNumCmps = 14;

  static constexpr uint32_t kCanonicalNan = 0x7FC00000u;
  static constexpr int kLatency = 3;          // simt_fpu_pkg::Latency
  static constexpr int kDivSqrtLatency = 27;  // simt_fpu_pkg::DivSqrtLatency

  struct Result {
    uint32_t value = 0;
    bool pred = false;  // Cmp only
    bool operator==(const Result& o) const { return value == o.value && pred == o.pred; }
  };

  // One operation as simt_fpu computes it (rm: conversions; cmp: Cmp; c: Fma).
  static Result execute(Op op, Rm rm, Cmp cmp, uint32_t a, uint32_t b, uint32_t c);

  static uint32_t add(uint32_t a, uint32_t b);
  static uint32_t sub(uint32_t a, uint32_t b);
  static uint32_t mul(uint32_t a, uint32_t b);
  static uint32_t fma(uint32_t a, uint32_t b, uint32_t c);  // a * b + c, one rounding
  static uint32_t div(uint32_t a, uint32_t b);
  static uint32_t sqrt(uint32_t a);
  static uint32_t min(uint32_t a, uint32_t b);  // minNum, -0 < +0
  static uint32_t max(uint32_t a, uint32_t b);
  static uint32_t abs(uint32_t a) { return a & 0x7FFFFFFFu; }
  static uint32_t neg(uint32_t a) { return a ^ 0x80000000u; }
  static bool compare(Cmp cmp, uint32_t a, uint32_t b);
  static uint32_t f2s(uint32_t a, Rm rm);
  static uint32_t f2u(uint32_t a, Rm rm);
  static uint32_t s2f(uint32_t a, Rm rm);
  static uint32_t u2f(uint32_t a, Rm rm);

  // The flush rules.
  static uint32_t flushIn(uint32_t a);   // subnormal -> zero of its sign
  static uint32_t flushOut(uint32_t r);  // subnormal -> zero of its sign; NaN -> canonical

  static bool isNan(uint32_t a) { return (a & 0x7F800000u) == 0x7F800000u && (a & 0x7FFFFFu); }
  static bool isSubnormal(uint32_t a) { return (a & 0x7F800000u) == 0 && (a & 0x7FFFFFu); }
  static bool isPipelined(Op op) { return op != Op::Div && op != Op::Sqrt; }

  // Whether the host computes IEEE-754 binary32 with subnormals and rounds to nearest.
  static bool hostIsIeee();

  static const char* name(Op op);
  static const char* name(Rm rm);
  static const char* name(Cmp cmp);
  // "fadd 0x3f800000 0x..." for failure messages.
  static std::string describe(Op op, Rm rm, Cmp cmp, uint32_t a, uint32_t b, uint32_t c);
};

}  // namespace simt::model
