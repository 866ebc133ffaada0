// simt_fpu against model::Fpu (sim/model/fpu/): directed special values and boundaries of
// every operation with hand-computed results (checked on the model and on the RTL), the
// cross product of special operands, and random operands from a distribution that favours
// specials, extreme exponents, near ties, cancellation and conversion limits, compared bit
// for bit with the exact cycle of every result. Div/sqrt run through the iterative unit
// while the pipeline keeps issuing. Seeds: SIMT_SEED, SIMT_REPEAT; length: SIMT_SCALE.
#include <gtest/gtest-spi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "Vfpu.h"
#include "common/harness.h"
#include "common/sim_context.h"
#include "model/fpu/fpu.h"

namespace simt::tb {
namespace {

using model::Fpu;
using Op = Fpu::Op;
using Rm = Fpu::Rm;
using Cmp = Fpu::Cmp;

struct Instr {
  Op op = Op::Add;
  Rm rm = Rm::Rne;
  Cmp cmp = Cmp::Eq;
  uint32_t a = 0, b = 0, c = 0;
};

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

float f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// Drives simt_fpu one cycle at a time and checks every output in every cycle: valid_o
// exactly Latency cycles after each pipelined operation, ds_valid_o DivSqrtLatency cycles
// after a division or square root, busy_o in between, results and predicates bit for bit.
class FpuBench {
 public:
  explicit FpuBench(uint64_t seed) : sim_("simt_fpu", seed), junk_(seed ^ 0x7F7F) {
    auto s = [](const char* name, int w) { return waveSignal("simt_fpu", name, w); };
    sim_.setWaveGroups({
        {"in", {s("valid_i", 1), s("op_i", 4), s("rm_i", 2), s("cmp_i", 4), s("a_i", 32),
                s("b_i", 32), s("c_i", 32)}},
        {"out", {s("valid_o", 1), s("result_o", 32), s("pred_o", 1), s("busy_o", 1),
                 s("ds_valid_o", 1), s("ds_result_o", 32)}},
    });
    drive(nullptr);
    sim_.reset();
  }

  SimContext<Vfpu>& sim() { return sim_; }
  bool busy() { return sim_->busy_o != 0; }
  bool dsPending() const { return ds_.has_value(); }
  uint64_t checks() const { return checks_; }
  uint64_t mismatches() const { return mismatches_; }

  // One cycle: check this cycle's outputs, apply ins (or nothing), clock.
  void step(const Instr* ins) {
    const uint64_t now = sim_.cycle();
    const bool expValid = !pipe_.empty() && pipe_.front().due == now;
    if ((sim_->valid_o != 0) != expValid) {
      report("valid_o is " + std::to_string(sim_->valid_o) + " at cycle " + std::to_string(now) +
             (expValid ? " (expected the result of " + describe(pipe_.front().ins) + ")" : ""));
    }
    if (expValid) {
      compare(pipe_.front(), sim_->result_o, sim_->pred_o != 0, "result_o");
      pipe_.pop_front();
    } else if (sim_->pred_o) {
      report("pred_o high without valid_o at cycle " + std::to_string(now));
    }
    const bool expDs = ds_ && ds_->due == now;
    if ((sim_->ds_valid_o != 0) != expDs) {
      report("ds_valid_o is " + std::to_string(sim_->ds_valid_o) + " at cycle " + std::to_string(now));
    }
    const bool expBusy = ds_ && now > dsIssued_ && now < ds_->due;
    if ((sim_->busy_o != 0) != expBusy) {
      report("busy_o is " + std::to_string(sim_->busy_o) + " at cycle " + std::to_string(now));
    }
    if (expDs) {
      compare(*ds_, sim_->ds_result_o, false, "ds_result_o");
      ds_.reset();
    }
    if (ins != nullptr) {
      Pending p{0, *ins, Fpu::execute(ins->op, ins->rm, ins->cmp, ins->a, ins->b, ins->c)};
      if (Fpu::isPipelined(ins->op)) {
        p.due = now + Fpu::kLatency;
        pipe_.push_back(p);
      } else {
        p.due = now + Fpu::kDivSqrtLatency;
        p.expect.pred = false;
        ds_ = p;
        dsIssued_ = now;
      }
    }
    drive(ins);
    sim_.tick();
  }

  void drain() {
    int guard = 0;
    while ((!pipe_.empty() || ds_) && guard++ < 100) step(nullptr);
    EXPECT_TRUE(pipe_.empty() && !ds_) << "results never came";
    step(nullptr);  // and nothing after them
  }

  static std::string describe(const Instr& i) {
    return Fpu::describe(i.op, i.rm, i.cmp, i.a, i.b, i.c);
  }

 private:
  struct Pending {
    uint64_t due;
    Instr ins;
    Fpu::Result expect;
  };

  void drive(const Instr* ins) {
    sim_->valid_i = ins != nullptr;
    if (ins != nullptr) {
      sim_->op_i = static_cast<uint8_t>(ins->op);
      sim_->rm_i = static_cast<uint8_t>(ins->rm);
      sim_->cmp_i = static_cast<uint8_t>(ins->cmp);
      sim_->a_i = ins->a;
      sim_->b_i = ins->b;
      sim_->c_i = ins->c;
    } else {
      // Idle cycles carry junk: nothing may come of it.
      sim_->op_i = static_cast<uint8_t>(junk_.below(Fpu::kNumOps));
      sim_->rm_i = static_cast<uint8_t>(junk_.bits(2));
      sim_->cmp_i = static_cast<uint8_t>(junk_.below(Fpu::kNumCmps));
      sim_->a_i = static_cast<uint32_t>(junk_.bits(32));
      sim_->b_i = static_cast<uint32_t>(junk_.bits(32));
      sim_->c_i = static_cast<uint32_t>(junk_.bits(32));
    }
  }

  void compare(const Pending& p, uint32_t result, bool pred, const char* port) {
    ++checks_;
    if (result == p.expect.value && pred == p.expect.pred) return;
    report(std::string("mismatch on ") + port + ": " + describe(p.ins) + " model=" +
           hex(p.expect.value) + (p.ins.op == Op::Cmp ? " pred=" + std::to_string(p.expect.pred) : "") +
           " rtl=" + hex(result) + (p.ins.op == Op::Cmp ? " pred=" + std::to_string(pred) : ""));
  }

  void report(const std::string& msg) {
    ++mismatches_;
    if (mismatches_ <= 10) ADD_FAILURE() << "simt_fpu " << msg;
  }

  SimContext<Vfpu> sim_;
  Rng junk_;
  std::deque<Pending> pipe_;
  std::optional<Pending> ds_;
  uint64_t dsIssued_ = 0;
  uint64_t checks_ = 0, mismatches_ = 0;
};

// ---------------------------------------------------------------------------------------
// Directed vectors with hand-computed results
// ---------------------------------------------------------------------------------------
struct Vector {
  Instr ins;
  uint32_t expect;
  const char* why;
};

constexpr uint32_t kOne = 0x3F800000, kTwo = 0x40000000, kThree = 0x40400000;
constexpr uint32_t kPInf = 0x7F800000, kNInf = 0xFF800000, kNZero = 0x80000000;
constexpr uint32_t kQNan = 0x7FC00000, kSNan = 0x7F800001, kMax = 0x7F7FFFFF;
constexpr uint32_t kMinN = 0x00800000, kNan = Fpu::kCanonicalNan;

Vector v(Op op, uint32_t a, uint32_t b, uint32_t c, uint32_t expect, const char* why) {
  return {Instr{op, Rm::Rne, Cmp::Eq, a, b, c}, expect, why};
}
Vector vr(Op op, Rm rm, uint32_t a, uint32_t expect, const char* why) {
  return {Instr{op, rm, Cmp::Eq, a, 0, 0}, expect, why};
}
Vector vc(Cmp cmp, uint32_t a, uint32_t b, bool expect, const char* why) {
  return {Instr{Op::Cmp, Rm::Rne, cmp, a, b, 0}, expect ? 1u : 0u, why};
}

std::vector<Vector> directedVectors() {
  return {
      // add / sub
      v(Op::Add, kOne, kTwo, 0, kThree, "1 + 2"),
      v(Op::Add, kOne, 0x33800000, 0, kOne, "1 + 2^-24: tie to even (down)"),
      v(Op::Add, kOne, 0x34400000, 0, 0x3F800002, "1 + 1.5 ulp: tie to even (up)"),
      v(Op::Add, kOne, 0x33800001, 0, 0x3F800001, "1 + just above half an ulp"),
      v(Op::Add, 0, kNZero, 0, 0, "+0 + -0 = +0"),
      v(Op::Add, kNZero, kNZero, 0, kNZero, "-0 + -0 = -0"),
      v(Op::Add, kOne, 0xBF800000, 0, 0, "1 + -1 = +0"),
      v(Op::Add, kPInf, kNInf, 0, kNan, "inf - inf"),
      v(Op::Add, kPInf, kOne, 0, kPInf, "inf + 1"),
      v(Op::Add, kQNan, kOne, 0, kNan, "qNaN"),
      v(Op::Add, kSNan, kOne, 0, kNan, "sNaN quietened"),
      v(Op::Add, kOne, 0xFFC00001, 0, kNan, "negative NaN with payload -> canonical"),
      v(Op::Add, kMax, kMax, 0, kPInf, "overflow"),
      v(Op::Add, kMax, 0x73000000, 0, kPInf, "max + half ulp: tie to even overflows"),
      v(Op::Add, kMax, 0x72FFFFFF, 0, kMax, "max + below half ulp"),
      v(Op::Add, 0x00800001, 0x80800000, 0, 0, "2^-149 exact: flushed"),
      v(Op::Add, 0x00000001, 0, 0, 0, "subnormal input is +0"),
      v(Op::Add, 0x80000001, 0, 0, 0, "-subnormal (-0) + +0 = +0"),
      v(Op::Add, 0x80000001, kNZero, 0, kNZero, "-subnormal + -0 = -0"),
      v(Op::Add, kMinN, 0x00000001, 0, kMinN, "min normal + subnormal"),
      v(Op::Sub, 0x3F800001, kOne, 0, 0x34000000, "cancellation to 2^-23"),
      v(Op::Sub, 0x00C00000, kMinN, 0, 0, "1.5*2^-126 - 2^-126: subnormal, flushed"),
      v(Op::Sub, 0x80C00000, 0x80800000, 0, kNZero, "negative subnormal difference -> -0"),
      v(Op::Sub, 0x01000000, 0x00800001, 0, 0, "2^-125 - (2^-126 + 2^-149) = 0x007fffff, flushed"),
      v(Op::Sub, kThree, kOne, 0, kTwo, "3 - 1"),
      v(Op::Sub, 0xBF800000, 0xBF800000, 0, 0, "-1 - -1 = +0"),
      v(Op::Sub, kNZero, 0, 0, kNZero, "-0 - +0 = -0"),
      v(Op::Sub, 0, 0, 0, 0, "+0 - +0 = +0"),
      v(Op::Sub, kPInf, kPInf, 0, kNan, "inf - inf"),
      v(Op::Sub, 0x4B800000, 0x3F800000, 0, 0x4B7FFFFF, "2^24 - 1 exact"),
      v(Op::Sub, 0x4B800000, 0x3F000000, 0, 0x4B800000, "2^24 - 0.5: tie to even"),
      // mul
      v(Op::Mul, kTwo, kThree, 0, 0x40C00000, "2 * 3"),
      v(Op::Mul, kNZero, 0x40A00000, 0, kNZero, "-0 * 5"),
      v(Op::Mul, kPInf, 0, 0, kNan, "inf * 0"),
      v(Op::Mul, kPInf, 0xC0000000, 0, kNInf, "inf * -2"),
      v(Op::Mul, 0x20000000, 0x20000000, 0, kMinN, "2^-63 * 2^-63 = min normal"),
      v(Op::Mul, 0x1F800000, 0x20000000, 0, 0, "2^-127: flushed"),
      v(Op::Mul, 0x3F7FFFFF, kMinN, 0, kMinN, "2^-126 - 2^-150: rounds up to min normal, kept"),
      v(Op::Mul, 0x3F7FFFFE, kMinN, 0, 0, "2^-126 - 2^-149: subnormal, flushed"),
      v(Op::Mul, 0xBF7FFFFE, kMinN, 0, kNZero, "negative: flushed to -0"),
      v(Op::Mul, 0xBF7FFFFF, kMinN, 0, 0x80800000, "negative: rounds to -min normal"),
      v(Op::Mul, 0x7F000000, kTwo, 0, kPInf, "2^127 * 2 overflows"),
      v(Op::Mul, 0xFF000000, kTwo, 0, kNInf, "-2^127 * 2 overflows"),
      v(Op::Mul, 0x3FC00000, 0x3FC00000, 0, 0x40100000, "1.5 * 1.5"),
      v(Op::Mul, 0x3F800800, 0x3F800800, 0, 0x3F801000, "(1 + 2^-12)^2: tie to even"),
      v(Op::Mul, 0x00400000, kTwo, 0, 0, "subnormal * 2 = 0 (inputs flushed)"),
      v(Op::Mul, kSNan, 0, 0, kNan, "sNaN * 0"),
      // fma
      v(Op::Fma, kTwo, kThree, kOne, 0x40E00000, "2 * 3 + 1"),
      v(Op::Fma, kTwo, kThree, 0xC0C00000, 0, "2 * 3 - 6 = +0"),
      v(Op::Fma, 0xC0000000, kThree, 0x40C00000, 0, "-2 * 3 + 6 = +0"),
      v(Op::Fma, 0xC0000000, kThree, kNZero, 0xC0C00000, "-2 * 3 + -0"),
      v(Op::Fma, 0, 0x40A00000, kNZero, 0, "+0 * 5 + -0 = +0"),
      v(Op::Fma, kNZero, 0x40A00000, kNZero, kNZero, "-0 * 5 + -0 = -0"),
      v(Op::Fma, kNZero, 0x40A00000, 0, 0, "-0 * 5 + +0 = +0"),
      v(Op::Fma, 0, 0x40A00000, kThree, kThree, "0 * 5 + 3"),
      v(Op::Fma, kPInf, 0, kQNan, kNan, "inf * 0 + NaN"),
      v(Op::Fma, kPInf, kOne, kNInf, kNan, "inf * 1 - inf"),
      v(Op::Fma, kOne, kOne, kPInf, kPInf, "1 * 1 + inf"),
      v(Op::Fma, kPInf, kOne, kPInf, kPInf, "inf * 1 + inf"),
      v(Op::Fma, 0x3F800800, 0x3F800800, 0xBF800000, 0x3A000400, "single rounding: 2^-11 + 2^-24"),
      v(Op::Fma, 0x3F800001, 0x3F800001, 0xBF800002, 0x28800000, "cancellation to 2^-46"),
      v(Op::Fma, kOne, kOne, 0x4E800000, 0x4E800000, "addend dominates: 2^30 + 1"),
      v(Op::Fma, 0x3F7FFFFF, kMinN, 0, kMinN, "rounds up to min normal"),
      v(Op::Fma, 0x3F7FFFFE, kMinN, 0, 0, "subnormal result flushed"),
      v(Op::Fma, kMax, kTwo, 0xFF7FFFFF, kMax, "overflowing product, exact difference"),
      v(Op::Fma, kMinN, kMinN, kOne, kOne, "tiny product below the addend"),
      v(Op::Fma, kMinN, kMinN, 0xBF800000, 0xBF800000, "tiny product below -1: -1"),
      v(Op::Fma, 0x3F800000, 0x33800000, 0x3F800000, kOne, "1 + 2^-24 as fma: tie to even"),
      v(Op::Fma, 0x3F800001, 0x33800000, 0x3F800000, 0x3F800001, "1 + 2^-24 + 2^-47 rounds up"),
      // min / max
      v(Op::Min, kOne, kTwo, 0, kOne, "min(1, 2)"),
      v(Op::Max, kOne, kTwo, 0, kTwo, "max(1, 2)"),
      v(Op::Min, kNZero, 0, 0, kNZero, "min(-0, +0) = -0"),
      v(Op::Min, 0, kNZero, 0, kNZero, "min(+0, -0) = -0"),
      v(Op::Max, kNZero, 0, 0, 0, "max(-0, +0) = +0"),
      v(Op::Max, 0, kNZero, 0, 0, "max(+0, -0) = +0"),
      v(Op::Min, kQNan, kOne, 0, kOne, "min(NaN, 1) = 1"),
      v(Op::Min, kOne, kSNan, 0, kOne, "min(1, sNaN) = 1"),
      v(Op::Max, 0xFFC12345, kNInf, 0, kNInf, "max(NaN, -inf) = -inf"),
      v(Op::Min, kQNan, kSNan, 0, kNan, "min(NaN, NaN) = canonical NaN"),
      v(Op::Min, kNInf, kOne, 0, kNInf, "min(-inf, 1)"),
      v(Op::Max, 0x00000001, kNZero, 0, 0, "max(subnormal, -0) = +0 (flushed)"),
      v(Op::Min, 0x80000001, 0, 0, kNZero, "min(-subnormal, +0) = -0"),
      v(Op::Min, 0xC0000000, 0xBF800000, 0, 0xC0000000, "min(-2, -1)"),
      v(Op::Max, 0xC0000000, 0xBF800000, 0, 0xBF800000, "max(-2, -1)"),
      // abs / neg: bit operations
      v(Op::Abs, 0xFFC00001, 0, 0, 0x7FC00001, "abs keeps the NaN payload"),
      v(Op::Abs, 0x80000001, 0, 0, 0x00000001, "abs does not flush"),
      v(Op::Neg, 0x00000001, 0, 0, 0x80000001, "neg does not flush"),
      v(Op::Neg, 0, 0, 0, kNZero, "neg +0"),
      v(Op::Neg, kNInf, 0, 0, kPInf, "neg -inf"),
      // compare
      vc(Cmp::Eq, 0, kNZero, true, "+0 == -0"),
      vc(Cmp::Eq, kQNan, kQNan, false, "NaN == NaN"),
      vc(Cmp::Ne, kQNan, kOne, false, "ordered ne with NaN"),
      vc(Cmp::Neu, kQNan, kOne, true, "unordered ne with NaN"),
      vc(Cmp::Ne, kOne, kTwo, true, "1 != 2"),
      vc(Cmp::Lt, kOne, kTwo, true, "1 < 2"),
      vc(Cmp::Lt, 0xBF800000, 0xC0000000, false, "-1 < -2"),
      vc(Cmp::Gt, 0xBF800000, 0xC0000000, true, "-1 > -2"),
      vc(Cmp::Le, kOne, kOne, true, "1 <= 1"),
      vc(Cmp::Lt, 0x00000001, 0, false, "subnormal < 0 (flushed: equal)"),
      vc(Cmp::Eq, 0x80000001, 0, true, "-subnormal == +0"),
      vc(Cmp::Ltu, kQNan, kOne, true, "ltu with NaN"),
      vc(Cmp::Lt, kQNan, kOne, false, "lt with NaN"),
      vc(Cmp::Geu, kOne, kSNan, true, "geu with sNaN"),
      vc(Cmp::Ge, kSNan, kSNan, false, "ge of NaNs"),
      vc(Cmp::Num, kOne, kTwo, true, "num"),
      vc(Cmp::Num, kOne, kQNan, false, "num with NaN"),
      vc(Cmp::Nan, kOne, kQNan, true, "nan"),
      vc(Cmp::Nan, kPInf, kNInf, false, "nan of infinities"),
      vc(Cmp::Lt, kNInf, kPInf, true, "-inf < inf"),
      vc(Cmp::Ge, kPInf, kPInf, true, "inf >= inf"),
      vc(Cmp::Gtu, kTwo, kOne, true, "gtu ordered"),
      vc(Cmp::Leu, kTwo, kOne, false, "leu ordered false"),
      vc(Cmp::Equ, kOne, kOne, true, "equ ordered"),
      vc(Cmp::Lt, kNZero, 0, false, "-0 < +0 is false"),
      // f32 -> s32
      vr(Op::F2S, Rm::Rne, 0x3FC00000, 2, "1.5 rn"),
      vr(Op::F2S, Rm::Rtz, 0x3FC00000, 1, "1.5 rz"),
      vr(Op::F2S, Rm::Rdn, 0x3FC00000, 1, "1.5 rm"),
      vr(Op::F2S, Rm::Rup, 0x3FC00000, 2, "1.5 rp"),
      vr(Op::F2S, Rm::Rne, 0xBFC00000, 0xFFFFFFFE, "-1.5 rn"),
      vr(Op::F2S, Rm::Rtz, 0xBFC00000, 0xFFFFFFFF, "-1.5 rz"),
      vr(Op::F2S, Rm::Rdn, 0xBFC00000, 0xFFFFFFFE, "-1.5 rm"),
      vr(Op::F2S, Rm::Rup, 0xBFC00000, 0xFFFFFFFF, "-1.5 rp"),
      vr(Op::F2S, Rm::Rne, 0x40200000, 2, "2.5 rn: tie to even"),
      vr(Op::F2S, Rm::Rne, 0x3F000000, 0, "0.5 rn"),
      vr(Op::F2S, Rm::Rne, 0xBF000000, 0, "-0.5 rn"),
      vr(Op::F2S, Rm::Rup, 0x00000001, 0, "subnormal rp: a zero"),
      vr(Op::F2S, Rm::Rup, 0x3E800000, 1, "0.25 rp"),
      vr(Op::F2S, Rm::Rdn, 0xBE800000, 0xFFFFFFFF, "-0.25 rm"),
      vr(Op::F2S, Rm::Rtz, 0x4F000000, 0x7FFFFFFF, "2^31 saturates"),
      vr(Op::F2S, Rm::Rtz, 0xCF000000, 0x80000000, "-2^31 exact"),
      vr(Op::F2S, Rm::Rtz, 0xCF000001, 0x80000000, "below -2^31 saturates"),
      vr(Op::F2S, Rm::Rtz, 0x4EFFFFFF, 0x7FFFFF80, "largest float below 2^31"),
      vr(Op::F2S, Rm::Rtz, kQNan, 0, "NaN -> 0"),
      vr(Op::F2S, Rm::Rtz, kPInf, 0x7FFFFFFF, "inf saturates"),
      vr(Op::F2S, Rm::Rtz, kNInf, 0x80000000, "-inf saturates"),
      vr(Op::F2S, Rm::Rtz, 0x4B000001, 0x00800001, "2^23 + 1"),
      // f32 -> u32
      vr(Op::F2U, Rm::Rtz, 0x4F800000, 0xFFFFFFFF, "2^32 saturates"),
      vr(Op::F2U, Rm::Rtz, 0x4F7FFFFF, 0xFFFFFF00, "largest float below 2^32"),
      vr(Op::F2U, Rm::Rtz, 0xBF800000, 0, "-1 -> 0"),
      vr(Op::F2U, Rm::Rtz, 0xBE99999A, 0, "-0.3 rz -> 0"),
      vr(Op::F2U, Rm::Rdn, 0xBE99999A, 0, "-0.3 rm -> -1 -> 0"),
      vr(Op::F2U, Rm::Rtz, 0x4F000000, 0x80000000, "2^31"),
      vr(Op::F2U, Rm::Rtz, kSNan, 0, "sNaN -> 0"),
      vr(Op::F2U, Rm::Rup, 0x3F000000, 1, "0.5 rp"),
      vr(Op::F2U, Rm::Rne, 0x3F400000, 1, "0.75 rn"),
      vr(Op::F2U, Rm::Rtz, kPInf, 0xFFFFFFFF, "inf saturates"),
      // s32 / u32 -> f32
      vr(Op::S2F, Rm::Rne, 0, 0, "0 -> +0"),
      vr(Op::S2F, Rm::Rdn, 0, 0, "0 -> +0 in rm too"),
      vr(Op::S2F, Rm::Rne, 0xFFFFFFFF, 0xBF800000, "-1"),
      vr(Op::S2F, Rm::Rne, 0x80000000, 0xCF000000, "-2^31"),
      vr(Op::S2F, Rm::Rne, 0x7FFFFFFF, 0x4F000000, "2^31 - 1 rn"),
      vr(Op::S2F, Rm::Rtz, 0x7FFFFFFF, 0x4EFFFFFF, "2^31 - 1 rz"),
      vr(Op::S2F, Rm::Rne, 0x01000001, 0x4B800000, "2^24 + 1 rn: tie to even"),
      vr(Op::S2F, Rm::Rup, 0x01000001, 0x4B800001, "2^24 + 1 rp"),
      vr(Op::S2F, Rm::Rne, 0x01000003, 0x4B800002, "2^24 + 3 rn: tie to even (up)"),
      vr(Op::S2F, Rm::Rdn, 0xFEFFFFFF, 0xCB800001, "-(2^24 + 1) rm"),
      vr(Op::S2F, Rm::Rup, 0xFEFFFFFF, 0xCB800000, "-(2^24 + 1) rp"),
      vr(Op::U2F, Rm::Rne, 0xFFFFFFFF, 0x4F800000, "2^32 - 1 rn"),
      vr(Op::U2F, Rm::Rtz, 0xFFFFFFFF, 0x4F7FFFFF, "2^32 - 1 rz"),
      vr(Op::U2F, Rm::Rne, 0x80000000, 0x4F000000, "2^31 unsigned"),
      vr(Op::U2F, Rm::Rne, 1, kOne, "1"),
      // div
      v(Op::Div, kOne, kThree, 0, 0x3EAAAAAB, "1 / 3"),
      v(Op::Div, 0x40C00000, kThree, 0, kTwo, "6 / 3"),
      v(Op::Div, kOne, 0, 0, kPInf, "1 / 0"),
      v(Op::Div, 0xBF800000, 0, 0, kNInf, "-1 / 0"),
      v(Op::Div, kOne, 0x80000001, 0, kNInf, "1 / -subnormal = -inf"),
      v(Op::Div, 0, 0, 0, kNan, "0 / 0"),
      v(Op::Div, kPInf, kNInf, 0, kNan, "inf / inf"),
      v(Op::Div, kOne, kPInf, 0, 0, "1 / inf"),
      v(Op::Div, 0xBF800000, kPInf, 0, kNZero, "-1 / inf"),
      v(Op::Div, kPInf, kTwo, 0, kPInf, "inf / 2"),
      v(Op::Div, kMax, 0x3F000000, 0, kPInf, "overflow"),
      v(Op::Div, kMinN, kTwo, 0, 0, "underflow flushed"),
      v(Op::Div, 0x00FFFFFF, kTwo, 0, kMinN, "rounds up to min normal"),
      v(Op::Div, 0x00FFFFFE, kTwo, 0, 0, "0x007fffff flushed"),
      v(Op::Div, kQNan, kOne, 0, kNan, "NaN / 1"),
      v(Op::Div, 0x3F7FFFFF, 0x3F800001, 0, 0x3F7FFFFD, "quotient below 1"),
      // sqrt
      v(Op::Sqrt, 0x40800000, 0, 0, kTwo, "sqrt 4"),
      v(Op::Sqrt, kTwo, 0, 0, 0x3FB504F3, "sqrt 2"),
      v(Op::Sqrt, 0x40100000, 0, 0, 0x3FC00000, "sqrt 2.25"),
      v(Op::Sqrt, kNZero, 0, 0, kNZero, "sqrt -0"),
      v(Op::Sqrt, 0xBF800000, 0, 0, kNan, "sqrt -1"),
      v(Op::Sqrt, 0x80000001, 0, 0, kNZero, "sqrt -subnormal = -0"),
      v(Op::Sqrt, kPInf, 0, 0, kPInf, "sqrt inf"),
      v(Op::Sqrt, kNInf, 0, 0, kNan, "sqrt -inf"),
      v(Op::Sqrt, kSNan, 0, 0, kNan, "sqrt sNaN"),
      v(Op::Sqrt, kMinN, 0, 0, 0x20000000, "sqrt min normal"),
      v(Op::Sqrt, kMax, 0, 0, 0x5F7FFFFF, "sqrt max"),
      v(Op::Sqrt, 0x00000001, 0, 0, 0, "sqrt subnormal"),
  };
}

std::string vectorName(const Vector& vec) {
  return FpuBench::describe(vec.ins) + " (" + vec.why + ")";
}

TEST(FpuModel, HostComputesIeeeBinary32) { EXPECT_TRUE(Fpu::hostIsIeee()); }

TEST(FpuModel, DirectedVectorsHaveTheDocumentedResults) {
  for (const Vector& vec : directedVectors()) {
    const Fpu::Result r = Fpu::execute(vec.ins.op, vec.ins.rm, vec.ins.cmp, vec.ins.a, vec.ins.b, vec.ins.c);
    EXPECT_EQ(hex(r.value), hex(vec.expect)) << vectorName(vec);
    if (vec.ins.op == Op::Cmp) EXPECT_EQ(r.pred, vec.expect != 0) << vectorName(vec);
  }
}

TEST(FpuRtl, DirectedVectorsHaveTheDocumentedResults) {
  FpuBench bench(baseSeed());
  for (const Vector& vec : directedVectors()) {
    // The model's expectation is checked above; here each result is also pinned by hand.
    EXPECT_EQ(Fpu::execute(vec.ins.op, vec.ins.rm, vec.ins.cmp, vec.ins.a, vec.ins.b, vec.ins.c).value,
              vec.expect) << vectorName(vec);
    if (!Fpu::isPipelined(vec.ins.op)) {
      while (bench.busy() || bench.dsPending()) bench.step(nullptr);
    }
    bench.step(&vec.ins);
  }
  bench.drain();
  EXPECT_EQ(bench.mismatches(), 0u);
  EXPECT_TRUE(bench.sim().ok());
}

// ---------------------------------------------------------------------------------------
// Special operands, every pair (every op, compare code and rounding mode), fma triples
// ---------------------------------------------------------------------------------------
const std::vector<uint32_t>& specialValues() {
  static const std::vector<uint32_t> kValues = {
      0x00000000, 0x80000000, 0x7F800000, 0xFF800000,  // zeros, infinities
      0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7F800001, 0xFFBFFFFF,  // qNaN, sNaN
      0x00800000, 0x80800000, 0x00800001, 0x00FFFFFF,  // smallest normals
      0x7F7FFFFF, 0xFF7FFFFF, 0x7F7FFFFE,              // largest
      0x00000001, 0x80000001, 0x007FFFFF, 0x00400000,  // subnormals
      0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF,  // around 1
      0x40000000, 0x3F000000, 0x33800000, 0x34000000,  // 2, 0.5, half ulp and ulp of 1
      0x4F000000, 0xCF000000, 0x4F800000, 0x4EFFFFFF, 0x4F7FFFFF, 0xCF000001,  // 2^31, 2^32
      0x3FC00000, 0xBFC00000, 0x40200000, 0x3F400000,  // halves
      0x4B800000, 0x4B800001, 0x5F800000, 0x1F800000,  // 2^24, 2^64, 2^-64
  };
  return kValues;
}

TEST(FpuRtl, EveryPairOfSpecialOperandsMatchesTheModel) {
  FpuBench bench(baseSeed());
  const auto& sv = specialValues();
  uint64_t n = 0;
  for (int op = 0; op < Fpu::kNumOps; ++op) {
    const Op o = static_cast<Op>(op);
    const int variants = o == Op::Cmp ? Fpu::kNumCmps
                         : (o == Op::F2S || o == Op::F2U || o == Op::S2F || o == Op::U2F) ? 4 : 1;
    for (int var = 0; var < variants; ++var) {
      for (uint32_t a : sv) {
        for (uint32_t b : sv) {
          Instr ins{o, static_cast<Rm>(o == Op::Cmp ? 0 : var), static_cast<Cmp>(o == Op::Cmp ? var : 0),
                    a, b, 0};
          if (o == Op::Fma) {
            for (uint32_t c : sv) {
              ins.c = c;
              bench.step(&ins);
              ++n;
            }
            continue;
          }
          if (!Fpu::isPipelined(o)) {
            while (bench.busy() || bench.dsPending()) bench.step(nullptr);
          }
          bench.step(&ins);
          ++n;
        }
      }
    }
  }
  bench.drain();
  std::cout << "[ FPU      ] " << n << " special-operand operations, " << bench.checks()
            << " results checked\n";
  EXPECT_EQ(bench.mismatches(), 0u);
  EXPECT_TRUE(bench.sim().ok());
}

// ---------------------------------------------------------------------------------------
// Random operands
// ---------------------------------------------------------------------------------------
class OperandGen {
 public:
  explicit OperandGen(Rng& rng) : rng_(rng) {}

  uint32_t special() {
    const auto& sv = specialValues();
    return sv[static_cast<size_t>(rng_.below(static_cast<int>(sv.size())))];
  }

  static uint32_t make(uint32_t sign, int exp, uint32_t mant) {
    return (sign << 31) | (static_cast<uint32_t>(exp & 0xFF) << 23) | (mant & 0x7FFFFF);
  }

  // Mantissas that make ties and carries: few bits, runs of ones, random.
  uint32_t mantissa() {
    switch (rng_.below(6)) {
      case 0: return 0;
      case 1: return 0x7FFFFF;
      case 2: return 1u << rng_.below(23);
      case 3: return (0x7FFFFFu >> rng_.below(23)) << rng_.below(4);
      case 4: return static_cast<uint32_t>(rng_.bits(23)) & ~((1u << rng_.below(23)) - 1);
      default: return static_cast<uint32_t>(rng_.bits(23));
    }
  }

  // An operand on its own.
  uint32_t operand() {
    const int k = rng_.below(100);
    const uint32_t s = static_cast<uint32_t>(rng_.bits(1));
    if (k < 30) return static_cast<uint32_t>(rng_.bits(32));
    if (k < 45) return special();
    if (k < 55) return make(s, rng_.range(1, 24), mantissa());      // tiny
    if (k < 65) return make(s, rng_.range(230, 254), mantissa());   // huge
    if (k < 72) return make(s, 0, static_cast<uint32_t>(rng_.bits(23)));  // subnormal
    if (k < 85) return make(s, rng_.range(100, 154), mantissa());  // ordinary, tie-prone
    return bits(static_cast<float>(rng_.range(-1000, 1000)) * 0.5f);  // small halves
  }

  // An operand related to ref: same or near exponent (cancellation, alignment by a few
  // places, ties), its negation, a neighbour.
  uint32_t related(uint32_t ref) {
    const int e = static_cast<int>((ref >> 23) & 0xFF);
    const uint32_t s = static_cast<uint32_t>(rng_.bits(1));
    switch (rng_.below(8)) {
      case 0: return ref ^ 0x80000000u;                           // -ref
      case 1: return (ref ^ 0x80000000u) + static_cast<uint32_t>(rng_.range(-3, 3));  // near -ref
      case 2: return ref + static_cast<uint32_t>(rng_.range(-2, 2));
      case 3: return make(s, std::clamp(e - rng_.range(0, 27), 0, 254), mantissa());
      case 4: return make(s, std::clamp(e + rng_.range(-3, 3), 0, 255), mantissa());
      case 5: return make(s, std::clamp(e - rng_.range(22, 26), 1, 254), mantissa());  // ties
      default: return operand();
    }
  }

  // b such that a * b lands near 2^target (biased target exponent).
  uint32_t scaledFor(uint32_t a, int target) {
    const int ea = static_cast<int>((a >> 23) & 0xFF);
    const int eb = std::clamp(target + 127 - ea + rng_.range(-1, 1), 1, 254);
    return make(static_cast<uint32_t>(rng_.bits(1)), eb, mantissa());
  }

  // An integer for s32/u32 -> f32: around the rounding boundaries.
  uint32_t integer() {
    switch (rng_.below(6)) {
      case 0: return static_cast<uint32_t>(rng_.bits(32));
      case 1: return static_cast<uint32_t>(rng_.bits(rng_.range(1, 32)));
      case 2: {  // a value with bits just below a tie position: 2^k + small
        const int k = rng_.range(24, 31);
        return (1u << k) + static_cast<uint32_t>(rng_.range(-3, 3)) * (1u << (k - 24)) +
               static_cast<uint32_t>(rng_.range(-1, 1));
      }
      case 3: {
        static const uint32_t kInts[] = {0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x80000001,
                                         0x01000001, 0x01000003, 0xFF000001, 0x00FFFFFF};
        return kInts[rng_.below(10)];
      }
      case 4: return static_cast<uint32_t>(-static_cast<int32_t>(rng_.bits(rng_.range(1, 31))));
      default: return (0xFFFFFFFFu >> rng_.below(32)) << rng_.below(8);
    }
  }

  // A float for f32 -> s32/u32: near 2^31, 2^32, -2^31, halves, random.
  uint32_t convertible() {
    const uint32_t s = static_cast<uint32_t>(rng_.bits(1));
    switch (rng_.below(5)) {
      case 0: return make(s, rng_.range(156, 160), mantissa());
      case 1: return bits(static_cast<float>(rng_.range(-100000, 100000)) * 0.25f);
      case 2: return make(s, rng_.range(120, 160), static_cast<uint32_t>(rng_.bits(23)));
      case 3: return special();
      default: return operand();
    }
  }

  Instr next(bool dsAllowed) {
    Instr i;
    for (;;) {
      const int k = rng_.below(100);
      if (k < 14) i.op = Op::Add;
      else if (k < 22) i.op = Op::Sub;
      else if (k < 34) i.op = Op::Mul;
      else if (k < 54) i.op = Op::Fma;
      else if (k < 58) i.op = Op::Min;
      else if (k < 62) i.op = Op::Max;
      else if (k < 63) i.op = Op::Abs;
      else if (k < 64) i.op = Op::Neg;
      else if (k < 74) i.op = Op::Cmp;
      else if (k < 79) i.op = Op::F2S;
      else if (k < 84) i.op = Op::F2U;
      else if (k < 88) i.op = Op::S2F;
      else if (k < 92) i.op = Op::U2F;
      else if (k < 96) i.op = Op::Div;
      else i.op = Op::Sqrt;
      if (dsAllowed || Fpu::isPipelined(i.op)) break;
    }
    i.rm = static_cast<Rm>(rng_.bits(2));
    i.cmp = static_cast<Cmp>(rng_.below(Fpu::kNumCmps));
    i.a = operand();
    i.b = related(i.a);
    i.c = operand();
    switch (i.op) {
      case Op::Mul:
        if (rng_.chance(30)) i.b = scaledFor(i.a, rng_.chance(50) ? 0 : (rng_.chance(50) ? 1 : 254));
        else if (rng_.chance(30)) i.b = operand();
        break;
      case Op::Fma: {
        if (rng_.chance(30)) i.b = operand();
        const int k = rng_.below(10);
        if (k < 3) {  // cancel the rounded product: exact zero or a tiny residue
          i.c = bits(-(f32(Fpu::flushIn(i.a)) * f32(Fpu::flushIn(i.b)))) +
                static_cast<uint32_t>(rng_.range(-2, 2));
        } else if (k < 5) {
          i.b = scaledFor(i.a, rng_.chance(50) ? 0 : rng_.range(1, 30));
          i.c = make(static_cast<uint32_t>(rng_.bits(1)), rng_.range(0, 30), mantissa());
        } else if (k < 7) {
          i.c = related(i.a);
        }
        break;
      }
      case Op::Div:
        if (rng_.chance(30)) i.b = operand();
        if (rng_.chance(15)) i.b = scaledFor(i.a, 254 - rng_.range(0, 2));
        break;
      case Op::F2S:
      case Op::F2U: i.a = convertible(); break;
      case Op::S2F:
      case Op::U2F: i.a = integer(); break;
      default: break;
    }
    return i;
  }

 private:
  Rng& rng_;
};

// Coverage of the interesting outcomes, judged on the model's result and the operands.
void sampleCoverage(Coverage& cov, const Instr& i) {
  const Fpu::Result r = Fpu::execute(i.op, i.rm, i.cmp, i.a, i.b, i.c);
  cov.hit(std::string("op.") + Fpu::name(i.op));
  const bool arith = i.op == Op::Add || i.op == Op::Sub || i.op == Op::Mul || i.op == Op::Fma ||
                     i.op == Op::Div || i.op == Op::Sqrt;
  const uint32_t a = Fpu::flushIn(i.a), b = Fpu::flushIn(i.b), c = Fpu::flushIn(i.c);
  const bool inNan = Fpu::isNan(a) || (i.op != Op::Sqrt && Fpu::isNan(b)) || (i.op == Op::Fma && Fpu::isNan(c));
  if (Fpu::isSubnormal(i.a) || Fpu::isSubnormal(i.b)) cov.hit("operand.subnormal");
  if ((i.a & 0x7FC00000u) == 0x7F800000u && Fpu::isNan(i.a)) cov.hit("operand.snan");
  if (!arith) {
    if ((i.op == Op::F2S || i.op == Op::F2U) && !Fpu::isNan(a) &&
        (r.value == 0x7FFFFFFFu || r.value == 0x80000000u || r.value == 0xFFFFFFFFu) &&
        std::fabs(f32(a)) >= 2147483520.0f) {
      cov.hit("f2i.saturated");
    }
    if (i.op == Op::S2F || i.op == Op::U2F) {
      const double exact = i.op == Op::S2F ? static_cast<double>(static_cast<int32_t>(i.a))
                                           : static_cast<double>(i.a);
      if (static_cast<double>(f32(r.value)) != exact) cov.hit("i2f.inexact");
    }
    return;
  }
  if (r.value == Fpu::kCanonicalNan && !inNan) cov.hit("result.invalid_nan");
  if ((r.value & 0x7FFFFFFFu) == 0x7F800000u && !Fpu::isNan(a) &&
      (a & 0x7F800000u) != 0x7F800000u && (b & 0x7F800000u) != 0x7F800000u &&
      (i.op != Op::Fma || (c & 0x7F800000u) != 0x7F800000u) && !(i.op == Op::Div && (b & 0x7FFFFFFFu) == 0)) {
    cov.hit("result.overflow");
  }
  if ((r.value & 0x7FFFFFFFu) == 0x00800000u) cov.hit("result.min_normal");
  // The host's result before the flush of subnormals.
  float raw = 0;
  switch (i.op) {
    case Op::Add: raw = f32(a) + f32(b); break;
    case Op::Sub: raw = f32(a) - f32(b); break;
    case Op::Mul: raw = f32(a) * f32(b); break;
    case Op::Fma: raw = std::fma(f32(a), f32(b), f32(c)); break;
    case Op::Div: raw = f32(a) / f32(b); break;
    default: raw = std::sqrt(f32(a)); break;
  }
  if (Fpu::isSubnormal(bits(raw))) cov.hit("result.subnormal_flushed");
  const bool nonzeroIn = (a & 0x7FFFFFFFu) && (b & 0x7FFFFFFFu);
  if (raw == 0.0f && nonzeroIn && (i.op == Op::Add || i.op == Op::Sub || i.op == Op::Fma) &&
      !(i.op == Op::Fma && (c & 0x7FFFFFFFu) == 0)) {
    cov.hit("result.exact_cancellation");
  }
}

const std::vector<std::string>& coverageBins() {
  static const std::vector<std::string> kBins = [] {
    std::vector<std::string> bins = {"operand.subnormal", "operand.snan", "f2i.saturated",
                                     "i2f.inexact", "result.invalid_nan", "result.overflow",
                                     "result.min_normal", "result.subnormal_flushed",
                                     "result.exact_cancellation"};
    for (int op = 0; op < Fpu::kNumOps; ++op) bins.push_back(std::string("op.") + Fpu::name(static_cast<Op>(op)));
    return bins;
  }();
  return kBins;
}

// Random operations issued back to back (a quarter of the cycles idle); a division or
// square root whenever the iterative unit is free and the draw says so.
void runRandom(uint64_t seed, uint64_t ops, const char* covName, int dsPercent) {
  SIMT_SEED_TRACE(seed);
  std::cout << "[ FPU      ] seed " << seed << " (0x" << std::hex << seed << std::dec << "), "
            << ops << " operations\n";
  Rng rng(seed);
  OperandGen gen(rng);
  FpuBench bench(seed);
  Coverage cov(covName);
  for (const auto& bin : coverageBins()) cov.define(bin);
  uint64_t issued = 0;
  while (issued < ops && bench.mismatches() == 0 && bench.sim().ok()) {
    if (rng.chance(25)) {
      bench.step(nullptr);
      continue;
    }
    const bool dsFree = !bench.busy() && !bench.dsPending() && rng.chance(dsPercent);
    const Instr ins = gen.next(dsFree);
    if ((issued & 7) == 0 || !Fpu::isPipelined(ins.op)) sampleCoverage(cov, ins);
    bench.step(&ins);
    ++issued;
  }
  bench.drain();
  std::cout << "[ FPU      ] " << bench.checks() << " results checked in " << bench.sim().cycle()
            << " cycles\n";
  EXPECT_EQ(bench.mismatches(), 0u);
  EXPECT_TRUE(bench.sim().ok());
  cov.requireAllHit();
}

TEST(FpuRtl, RandomOperandsMatchTheModelBitForBit) {
  for (uint64_t seed : testSeeds()) {
    runRandom(seed, 8000000ull * static_cast<uint64_t>(lengthScale()), "FpuRtl.Random", 100);
  }
}

// Division and square root back to back (each as soon as the unit is free), the pipeline
// issuing between them.
TEST(FpuRtl, RandomDivisionAndSquareRootMatchTheModel) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed ^ 0xD1D1);
    OperandGen gen(rng);
    FpuBench bench(seed);
    const uint64_t target = 250000ull * static_cast<uint64_t>(lengthScale());
    uint64_t ds = 0;
    std::cout << "[ FPU      ] seed " << seed << ", " << target << " divisions and square roots\n";
    while (ds < target && bench.mismatches() == 0 && bench.sim().ok()) {
      if (!bench.busy() && !bench.dsPending()) {
        Instr ins = gen.next(true);
        while (Fpu::isPipelined(ins.op)) ins = gen.next(true);
        bench.step(&ins);
        ++ds;
      } else {
        const Instr ins = gen.next(false);
        bench.step(rng.chance(50) ? &ins : nullptr);
      }
    }
    bench.drain();
    EXPECT_EQ(bench.mismatches(), 0u);
    EXPECT_TRUE(bench.sim().ok());
  }
}

// ---------------------------------------------------------------------------------------
// Timing and the assertions
// ---------------------------------------------------------------------------------------
TEST(FpuRtl, FixedLatencyOneOperationPerCycleAndDivisionAlongside) {
  FpuBench bench(baseSeed());
  // The bench checks valid_o exactly Latency cycles after each issue, ds_valid_o exactly
  // DivSqrtLatency after, busy_o in between, and nothing else on the outputs.
  const Instr div{Op::Div, Rm::Rne, Cmp::Eq, kOne, kThree, 0};
  bench.step(&div);
  for (int i = 0; i < 40; ++i) {
    const Instr add{Op::Add, Rm::Rne, Cmp::Eq, static_cast<uint32_t>(kOne + i), kTwo, 0};
    const Instr cmp{Op::Cmp, Rm::Rne, Cmp::Lt, static_cast<uint32_t>(i), 20, 0};
    bench.step(i % 2 ? &add : &cmp);
  }
  bench.drain();
  EXPECT_EQ(bench.checks(), 41u);
  EXPECT_EQ(bench.mismatches(), 0u);
}

TEST(FpuRtl, ResetDropsOperationsInFlight) {
  FpuBench bench(baseSeed());
  const Instr add{Op::Add, Rm::Rne, Cmp::Eq, kOne, kOne, 0};
  auto& sim = bench.sim();
  sim->valid_i = 1;
  sim->op_i = static_cast<uint8_t>(Op::Add);
  sim->a_i = add.a;
  sim->b_i = add.b;
  sim.tick();
  sim->op_i = static_cast<uint8_t>(Op::Sqrt);
  sim.tick();
  sim->valid_i = 0;
  sim.reset(1);
  for (int i = 0; i < 30; ++i) {
    EXPECT_FALSE(sim->valid_o) << "cycle " << i;
    EXPECT_FALSE(sim->ds_valid_o) << "cycle " << i;
    EXPECT_FALSE(sim->busy_o) << "cycle " << i;
    sim.tick();
  }
}

TEST(FpuRtl, DivisionWhileBusyFailsAnAssertion) {
  FpuBench bench(baseSeed());
  auto& sim = bench.sim();
  sim->valid_i = 1;
  sim->op_i = static_cast<uint8_t>(Op::Div);
  sim->a_i = kOne;
  sim->b_i = kThree;
  sim.tick();
  EXPECT_TRUE(sim->busy_o);
  EXPECT_TRUE(sim.ok());
  sim->op_i = static_cast<uint8_t>(Op::Sqrt);
  EXPECT_NONFATAL_FAILURE(sim.tick(), "RTL assertion failed in simt_fpu");
  EXPECT_FALSE(sim.ok());
}

}  // namespace
}  // namespace simt::tb
