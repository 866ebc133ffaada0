#include "model/fpu/fpu.h"

#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace simt::model {

namespace {

float toFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

uint32_t toBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The operand as the FPU sees it.
float in(uint32_t a) { return toFloat(Fpu::flushIn(a)); }

// The host's result with the FPU's output rules.
uint32_t out(float r) { return Fpu::flushOut(toBits(r)); }

int hostMode(Fpu::Rm rm) {
  switch (rm) {
    case Fpu::Rm::Rtz: return FE_TOWARDZERO;
    case Fpu::Rm::Rdn: return FE_DOWNWARD;
    case Fpu::Rm::Rup: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

// Runs f with the host's rounding mode set to rm. The operands go through volatile objects
// so the compiler cannot move the rounding operation across the mode changes.
template <class F>
auto withMode(Fpu::Rm rm, F f) {
  const int saved = std::fegetround();
  std::fesetround(hostMode(rm));
  auto r = f();
  std::fesetround(saved);
  return r;
}

// The float rounded to an integral value (as a double: exact) in mode rm.
double roundIntegral(float x, Fpu::Rm rm) {
  volatile double vx = static_cast<double>(x);
  return withMode(rm, [&] {
    volatile double r = std::nearbyint(vx);
    return static_cast<double>(r);
  });
}

}  // namespace

uint32_t Fpu::flushIn(uint32_t a) { return isSubnormal(a) ? (a & 0x80000000u) : a; }

uint32_t Fpu::flushOut(uint32_t r) {
  if (isNan(r)) return kCanonicalNan;
  return isSubnormal(r) ? (r & 0x80000000u) : r;
}

uint32_t Fpu::add(uint32_t a, uint32_t b) { return out(in(a) + in(b)); }
uint32_t Fpu::sub(uint32_t a, uint32_t b) { return out(in(a) - in(b)); }
uint32_t Fpu::mul(uint32_t a, uint32_t b) { return out(in(a) * in(b)); }
uint32_t Fpu::fma(uint32_t a, uint32_t b, uint32_t c) { return out(std::fma(in(a), in(b), in(c))); }
uint32_t Fpu::div(uint32_t a, uint32_t b) { return out(in(a) / in(b)); }
uint32_t Fpu::sqrt(uint32_t a) { return out(std::sqrt(in(a))); }

uint32_t Fpu::min(uint32_t a, uint32_t b) {
  const uint32_t x = flushIn(a), y = flushIn(b);
  if (isNan(x) && isNan(y)) return kCanonicalNan;
  if (isNan(x)) return y;
  if (isNan(y)) return x;
  const float fx = toFloat(x), fy = toFloat(y);
  if (fx == 0.0f && fy == 0.0f) return std::signbit(fx) ? x : y;  // -0 < +0
  return fx < fy ? x : y;
}

uint32_t Fpu::max(uint32_t a, uint32_t b) {
  const uint32_t x = flushIn(a), y = flushIn(b);
  if (isNan(x) && isNan(y)) return kCanonicalNan;
  if (isNan(x)) return y;
  if (isNan(y)) return x;
  const float fx = toFloat(x), fy = toFloat(y);
  if (fx == 0.0f && fy == 0.0f) return std::signbit(fx) ? y : x;
  return fx < fy ? y : x;
}

bool Fpu::compare(Cmp cmp, uint32_t a, uint32_t b) {
  const float x = in(a), y = in(b);
  const bool un = std::isunordered(x, y);
  switch (cmp) {
    case Cmp::Eq: return x == y;
    case Cmp::Ne: return !un && x != y;
    case Cmp::Lt: return x < y;
    case Cmp::Le: return x <= y;
    case Cmp::Gt: return x > y;
    case Cmp::Ge: return x >= y;
    case Cmp::Equ: return un || x == y;
    case Cmp::Neu: return x != y;  // true when unordered
    case Cmp::Ltu: return un || x < y;
    case Cmp::Leu: return un || x <= y;
    case Cmp::Gtu: return un || x > y;
    case Cmp::Geu: return un || x >= y;
    case Cmp::Num: return !un;
    case Cmp::Nan: return un;
  }
  return false;
}

uint32_t Fpu::f2s(uint32_t a, Rm rm) {
  const float x = in(a);
  if (std::isnan(x)) return 0;
  const double r = roundIntegral(x, rm);
  if (r > 2147483647.0) return 0x7FFFFFFFu;
  if (r < -2147483648.0) return 0x80000000u;
  return static_cast<uint32_t>(static_cast<int32_t>(r));
}

uint32_t Fpu::f2u(uint32_t a, Rm rm) {
  const float x = in(a);
  if (std::isnan(x)) return 0;
  const double r = roundIntegral(x, rm);
  if (r <= 0.0) return 0;
  if (r > 4294967295.0) return 0xFFFFFFFFu;
  return static_cast<uint32_t>(r);
}

uint32_t Fpu::s2f(uint32_t a, Rm rm) {
  volatile int32_t v = static_cast<int32_t>(a);
  return out(withMode(rm, [&] {
    volatile float f = static_cast<float>(v);
    return static_cast<float>(f);
  }));
}

uint32_t Fpu::u2f(uint32_t a, Rm rm) {
  volatile uint32_t v = a;
  return out(withMode(rm, [&] {
    volatile float f = static_cast<float>(v);
    return static_cast<float>(f);
  }));
}

Fpu::Result Fpu::execute(Op op, Rm rm, Cmp cmp, uint32_t a, uint32_t b, uint32_t c) {
  Result r;
  switch (op) {
    case Op::Add: r.value = add(a, b); break;
    case Op::Sub: r.value = sub(a, b); break;
    case Op::Mul: r.value = mul(a, b); break;
    case Op::Fma: r.value = fma(a, b, c); break;
    case Op::Min: r.value = min(a, b); break;
    case Op::Max: r.value = max(a, b); break;
    case Op::Abs: r.value = abs(a); break;
    case Op::Neg: r.value = neg(a); break;
    case Op::Cmp:
      r.pred = compare(cmp, a, b);
      r.value = r.pred ? 1u : 0u;
      break;
    case Op::F2S: r.value = f2s(a, rm); break;
    case Op::F2U: r.value = f2u(a, rm); break;
    case Op::S2F: r.value = s2f(a, rm); break;
    case Op::U2F: r.value = u2f(a, rm); break;
    case Op::Div: r.value = div(a, b); break;
    case Op::Sqrt: r.value = sqrt(a); break;
  }
  return r;
}

bool Fpu::hostIsIeee() {
  // 2^-126 * 0.5 is the subnormal 0x00400000 unless the host flushes; 1 + 2^-24 ties to 1.
  volatile float minNormal = toFloat(0x00800000u), half = 0.5f;
  volatile float one = 1.0f, tie = toFloat(0x33800000u);
  return std::fegetround() == FE_TONEAREST && toBits(minNormal * half) == 0x00400000u &&
         toBits(one + tie) == 0x3F800000u && toBits(toFloat(0x00000001u) + 0.0f) == 1u;
}

const char* Fpu::name(Op op) {
  static const char* const kNames[] = {"fadd", "fsub", "fmul", "ffma", "fmin",
                                       "fmax", "fabs", "fneg", "fsetp", "fcvt.s32.f32",
                                       "fcvt.u32.f32", "fcvt.f32.s32", "fcvt.f32.u32",
                                       "fdiv", "fsqrt"};
  const int i = static_cast<int>(op);
  return i < kNumOps ? kNames[i] : "?";
}

const char* Fpu::name(Rm rm) {
  static const char* const kNames[] = {"rn", "rz", "rm", "rp"};
  return kNames[static_cast<int>(rm) & 3];
}

const char* Fpu::name(Cmp cmp) {
  static const char* const kNames[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                       "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  const int i = static_cast<int>(cmp);
  return i < kNumCmps ? kNames[i] : "?";
}

std::string Fpu::describe(Op op, Rm rm, Cmp cmp, uint32_t a, uint32_t b, uint32_t c) {
  char buf[128];
  std::string n = name(op);
  if (op == Op::Cmp) n += std::string(".") + name(cmp);
  if (op == Op::F2S || op == Op::F2U || op == Op::S2F || op == Op::U2F) n += std::string(".") + name(rm);
  std::snprintf(buf, sizeof buf, "%s a=0x%08x b=0x%08x c=0x%08x", n.c_str(), a, b, c);
  return buf;
}

}  // namespace simt::model
