// The OpenCL host runtime (docs/compiler.md, "Runtime"): buffers, kernel arguments, the
// NDRange, and the launch image (param words with the hidden launch block, global memory
// with the buffers and the private frames) that the ISA model, the verilated core and the
// co-simulation run. The shape OpenCL host code has: create buffers, set arguments,
// enqueue an NDRange, read buffers back. KERNELS.md section 2 fixes the textual forms.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "compiler/cache.h"
#include "compiler/compiler.h"
#include "model/sm/sm_model.h"
#include "runtime/alias_check.h"
#include "runtime/cl_args.h"

namespace simt::runtime {

// Limits of the machine the launch must fit (the core's, sim/rtl/sm_rtl.h).
struct DeviceLimits {
  int maxThreadsPerGroup = 256;
  uint32_t sharedBytes = 4096;
  uint32_t paramWords = 64;
};

struct LaunchImage {
  assembler::Kernel kernel;                  // code, data image, params, launch, shared bytes
  std::map<std::string, uint32_t> bufferAddr;  // byte address of every buffer
};

// Checks the arguments against the kernel's parameters and lays out memory. Throws
// LaunchError.
LaunchImage buildLaunch(const compiler::CompiledKernel& ck, const NDRange& range, const std::vector<KernelArg>& args,
                        const std::vector<Buffer>& buffers, const DeviceLimits& limits);

// The buffers' contents after a run.
std::vector<Buffer> readBack(const LaunchImage& img, const std::vector<Buffer>& buffers,
                             const std::vector<uint32_t>& global);

// What runs an image: the ISA model, the verilated core or both in lockstep.
using Engine = std::function<model::RunResult(const assembler::Kernel&, const model::RunConfig&)>;
Engine modelEngine();

struct LaunchResult {
  model::RunResult run;
  std::vector<Buffer> buffers;
};

// Builds, runs and reads back.
LaunchResult launch(const compiler::CompiledKernel& ck, const NDRange& range, const std::vector<KernelArg>& args,
                    const std::vector<Buffer>& buffers, const model::RunConfig& cfg, const Engine& engine,
                    const DeviceLimits& limits = {});

// ---- The host API in OpenCL's shape: a device holds buffers and builds kernels (through
// the compile cache); a kernel holds its arguments; enqueue runs an NDRange and leaves the
// buffers' new contents in the device.
class Kernel {
 public:
  explicit Kernel(compiler::CompiledKernel ck, bool cached = false, std::string path = "",
                  compiler::CompileOptions opt = {})
      : ck_(std::move(ck)), cached_(cached), path_(std::move(path)), opt_(std::move(opt)) {
    args_.resize(ck_.args.size());
  }
  const compiler::CompiledKernel& compiled() const { return ck_; }
  // Where the kernel came from (a recompilation at launch needs them; "" : none possible).
  const std::string& path() const { return path_; }
  const compiler::CompileOptions& options() const { return opt_; }
  bool fromCache() const { return cached_; }
  void setArg(size_t index, KernelArg a);           // throws LaunchError for a bad index
  void setArgs(std::vector<KernelArg> args) { args_ = std::move(args); }
  const std::vector<KernelArg>& args() const { return args_; }

  static KernelArg scalar(uint32_t v);
  static KernelArg buffer(const std::string& name);
  static KernelArg view(const std::string& name, uint32_t offset);
  static KernelArg local(uint32_t bytes);

 private:
  compiler::CompiledKernel ck_;
  bool cached_ = false;
  std::string path_;
  compiler::CompileOptions opt_;
  std::vector<KernelArg> args_;
};

class Device {
 public:
  Device(Engine engine, model::RunConfig cfg = {}, DeviceLimits limits = {},
         const std::string& cacheDir = compiler::KernelCache::defaultDir())
      : engine_(std::move(engine)), cfg_(cfg), limits_(limits), cache_(cacheDir) {}

  Kernel build(const std::string& path, const compiler::CompileOptions& opt = {});  // throws CompileError
  Buffer& createBuffer(const std::string& name, ElemType type, std::vector<uint32_t> contents);
  // A --arg SPEC: buf: creates the buffer here; the argument refers to it.
  KernelArg argFromSpec(const std::string& spec) { return parseArg(spec, buffers_); }
  const Buffer& buffer(const std::string& name) const;
  const std::vector<Buffer>& buffers() const { return buffers_; }
  const DeviceLimits& limits() const { return limits_; }

  // Seed 004: check the arguments' regions at every launch and run a variant recompiled for
  // what the check found (on by default; off runs the conservative compilation).
  void setAliasOptimisation(bool on) { aliasOpt_ = on; }
  bool aliasOptimisation() const { return aliasOpt_; }

  struct AliasOutcome {
    bool checked = false;       // the check ran (alias optimisation on, kernel from a file)
    AliasCheck check;
    bool recompiled = false;    // the alias-optimised variant ran
    bool variantCached = false; // it came from the kernel cache
    double compileMs = 0;       // compiling (or finding) the variant
    compiler::CompiledKernel variant;  // the variant that ran (if recompiled)
    std::string note;           // why the conservative compilation ran, if it did
  };
  struct Run {
    model::RunResult result;
    int workGroups = 0, workGroupSize = 0;
    uint32_t localBytes = 0;
    AliasOutcome alias;
  };
  // Runs the kernel over the range; the buffers hold their new contents afterwards.
  Run enqueue(const Kernel& k, const NDRange& range);

 private:
  Engine engine_;
  model::RunConfig cfg_;
  DeviceLimits limits_;
  compiler::KernelCache cache_;
  bool aliasOpt_ = true;
  std::vector<Buffer> buffers_;
};

}  // namespace simt::runtime
