// The engines the compiler's tests run kernels on (the ISA model, the verilated core, both in
// lockstep), a launch from `--arg` specs, a buffer's words after a run, a test's seed, a
// float's bits and a float result's error in ulp: shared by tb/compiler's test files.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cosim/cosim.h"
#include "rtl/sm_rtl.h"
#include "runtime/cl_runtime.h"

namespace simt::cltest {

enum class Eng { Model, Rtl, Cosim };

inline const char* engName(Eng e) { return e == Eng::Model ? "model" : e == Eng::Rtl ? "rtl" : "cosim"; }

inline runtime::Engine engineFor(Eng e) {
  switch (e) {
    case Eng::Model: return runtime::modelEngine();
    case Eng::Rtl:
      return [](const assembler::Kernel& k, const model::RunConfig& c) {
        rtl::SmRtl core(k, c);
        return core.run();
      };
    case Eng::Cosim:
      return [](const assembler::Kernel& k, const model::RunConfig& c) {
        cosim::Cosim both(k, c);
        return both.run();
      };
  }
  return runtime::modelEngine();
}

// A launch of ck over global/local (`simt run`'s forms) with `--arg`-style specs, on engine e.
inline runtime::LaunchResult launchSpecs(const compiler::CompiledKernel& ck, const std::string& global,
                                         const std::string& local, const std::vector<std::string>& specs, Eng e,
                                         uint64_t maxCycles = 20'000'000) {
  std::vector<runtime::Buffer> buffers;
  std::vector<runtime::KernelArg> args;
  for (const auto& a : specs) args.push_back(runtime::parseArg(a, buffers));
  runtime::DeviceLimits limits;
  model::RunConfig cfg;
  cfg.maxCycles = maxCycles;
  return runtime::launch(ck, runtime::parseRange(global, local, limits.maxThreadsPerGroup), args, buffers, cfg,
                         engineFor(e), limits);
}

// The words of buffer `name` (a test failure if there is none).
inline std::vector<uint32_t> bufferWords(const std::vector<runtime::Buffer>& buffers, const std::string& name) {
  for (const auto& b : buffers) {
    if (b.name == name) return b.words;
  }
  ADD_FAILURE() << "no buffer " << name;
  return {};
}

// A random test's seed: SIMT_SEED when set (replay), else the test's own fixed default.
inline uint64_t seedFromEnv(uint64_t fallback) {
  const char* v = std::getenv("SIMT_SEED");
  return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

// A float's bits and the float of some bits.
inline uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// The error of a float result in ulp of the exact value `want` (double), or -1 where the
// comparison does not apply: `want` not finite, in the flushed range below 2^-126 (the FPU
// flushes subnormals), or beyond float's range.
inline double ulpError(float got, double want) {
  const double a = std::fabs(want);
  if (!std::isfinite(want) || a < std::ldexp(1.0, -126) || a >= std::ldexp(1.0, 128)) return -1;
  int e = 0;
  std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1)
  return std::fabs(static_cast<double>(got) - want) / std::ldexp(1.0, e - 24);
}

}  // namespace simt::cltest
