#include "runtime/cl_runtime.h"

#include <chrono>
#include <cstdint>
#include <optional>

namespace simt::runtime {

LaunchImage buildLaunch(const compiler::CompiledKernel& ck, const NDRange& range, const std::vector<KernelArg>& args,
                        const std::vector<Buffer>& buffers, const DeviceLimits& limits) {
  using compiler::ArgKind;
  if (args.size() != ck.args.size()) {
    std::string sig;
    for (const auto& a : ck.args) sig += (sig.empty() ? "" : ", ") + a.typeName + " " + a.name;
    throw LaunchError("kernel '" + ck.name + "' takes " + std::to_string(ck.args.size()) + " argument(s) (" + sig +
                      "), " + std::to_string(args.size()) + " --arg given");
  }
  LaunchImage img;
  try {
    img.kernel = assembler::assemble(ck.assembly, ck.name + ".cl.s");
  } catch (const assembler::AsmError& e) {
    throw LaunchError(std::string("internal compiler error: the generated assembly does not assemble: ") + e.what());
  }
  assembler::Kernel& k = img.kernel;
  // Global memory: the kernel's __constant data, the buffers (16-byte aligned), the frames.
  auto align16 = [&]() {
    while (k.data.size() % 4) k.data.push_back(0);
  };
  align16();
  for (const auto& b : buffers) {
    img.bufferAddr[b.name] = static_cast<uint32_t>(4 * k.data.size());
    k.dataLabels[b.name] = {static_cast<uint32_t>(4 * k.data.size()), static_cast<uint32_t>(b.words.size())};
    k.data.insert(k.data.end(), b.words.begin(), b.words.end());
    align16();
  }
  uint32_t groups[3], total = 1, threads = 1;
  for (int d = 0; d < 3; ++d) {
    groups[d] = range.global[d] / range.local[d];
    total *= range.global[d];
    threads *= range.local[d];
  }
  const uint32_t privateBase = static_cast<uint32_t>(4 * k.data.size());
  const uint64_t privateBytes = uint64_t{ck.frameBytes} * total;
  if (privateBytes + 4 * k.data.size() > (uint64_t{1} << 28)) {
    throw LaunchError("kernel '" + ck.name + "' needs " + std::to_string(ck.frameBytes) + " bytes of private memory per work-item, " +
                      std::to_string(privateBytes >> 20) + " MiB for " + std::to_string(total) +
                      " work-items: more than the 256 MiB of global memory the simulator gives a launch");
  }
  if (ck.frameBytes > 0) k.data.resize(k.data.size() + privateBytes / 4, 0);
  // Params: one word per argument (two for long/ulong: low, high), then the hidden block.
  uint32_t localTop = (ck.staticLocalBytes + 15u) & ~15u;
  k.params.assign(static_cast<size_t>(ck.hiddenBase + ck.hiddenWords), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const auto& p = ck.args[i];
    const auto& a = args[i];
    const size_t w = static_cast<size_t>(p.word);
    const std::string where = "--arg " + std::to_string(i + 1) + " ('" + a.spec + "') for parameter '" +
                              p.typeName + " " + p.name + "'";
    switch (p.kind) {
      case ArgKind::GlobalPtr:
      case ArgKind::ConstantPtr:
        if (a.kind != KernelArg::BufferArg && a.kind != KernelArg::View) throw LaunchError(where + ": expected buf: or view:");
        k.params[w] = img.bufferAddr.at(a.buffer) + 4 * a.offset;
        break;
      case ArgKind::LocalPtr:
        if (a.kind != KernelArg::Local) throw LaunchError(where + ": expected local:BYTES");
        k.params[w] = localTop;
        localTop += (a.localBytes + 15u) & ~15u;
        break;
      case ArgKind::Scalar:
        if (a.kind != KernelArg::Scalar) throw LaunchError(where + ": expected a scalar (i32:V, u32:V, i64:V, u64:V or f32:V)");
        if (a.isFloat != p.isFloat || a.is64 != (p.words == 2)) {
          throw LaunchError(where + (p.isFloat ? ": expected f32:V" : p.words == 2 ? ": expected i64:V or u64:V" : ": expected i32:V or u32:V"));
        }
        k.params[w] = a.value;
        if (a.is64) k.params[w + 1] = a.high;
        break;
    }
  }
  const int h = ck.hiddenBase;
  namespace hd = compiler::hidden;
  k.params[static_cast<size_t>(h + hd::kWorkDim)] = static_cast<uint32_t>(range.dims);
  for (int d = 0; d < 3; ++d) {
    k.params[static_cast<size_t>(h + hd::kGlobalSize + d)] = range.global[d];
    k.params[static_cast<size_t>(h + hd::kLocalSize + d)] = range.local[d];
    k.params[static_cast<size_t>(h + hd::kNumGroups + d)] = groups[d];
    k.params[static_cast<size_t>(h + hd::kGlobalOffset + d)] = range.offset[d];
  }
  k.params[static_cast<size_t>(h + hd::kPrivateBase)] = privateBase;
  k.params[static_cast<size_t>(h + hd::kLinear)] = isLinear(range) ? 1 : 0;
  if (ck.hiddenWords >= hd::kWordsWithIds) {
    // The prologue's divisions (docs/compiler.md, "Launch ABI"): %tid / local size x, whose
    // quotient is below local y * z, then / local size y; %ctaid / groups x, then / groups y.
    const uint64_t local = uint64_t{range.local[1]} * range.local[2], tail = uint64_t{groups[1]} * groups[2];
    const struct {
      int word;
      uint32_t divisor;
      uint64_t maxDividend;
      const char* what;
    } divisions[4] = {{hd::kIdLocal, range.local[0], uint64_t{threads} - 1, "local id"},
                      {hd::kIdLocal + 2, range.local[1], local - 1, "local id"},
                      {hd::kIdGroup, groups[0], groups[0] * tail - 1, "group id"},
                      {hd::kIdGroup + 2, groups[1], tail - 1, "group id"}};
    for (const auto& dv : divisions) {
      std::optional<hd::IdDivision> m;
      if (dv.maxDividend <= UINT32_MAX) m = hd::idDivision(dv.divisor, static_cast<uint32_t>(dv.maxDividend));
      if (!m) {
        throw LaunchError("kernel '" + ck.name + "': the work-item " + dv.what + " prologue cannot divide " +
                          std::to_string(dv.maxDividend + 1) + " linear ids by " + std::to_string(dv.divisor) +
                          " exactly with a 32-bit multiply (at most 32,768 work-groups in a 2-D or 3-D range are "
                          "always possible)");
      }
      k.params[static_cast<size_t>(h + dv.word)] = m->multiplier;
      k.params[static_cast<size_t>(h + dv.word + 1)] = m->shift;
    }
  }
  if (ck.variant == "linear" && !isLinear(range)) {
    throw LaunchError("kernel '" + ck.name + "' was compiled for a linear range; this one is not");
  }
  if (k.params.size() > limits.paramWords) {
    throw LaunchError("kernel '" + ck.name + "' needs " + std::to_string(k.params.size()) + " param words, the core has " +
                      std::to_string(limits.paramWords));
  }
  if (localTop > limits.sharedBytes) {
    throw LaunchError("kernel '" + ck.name + "' needs " + std::to_string(localTop) + " bytes of local memory per work-group, the core has " +
                      std::to_string(limits.sharedBytes));
  }
  k.sharedBytes = localTop;
  k.ctas = static_cast<int>(groups[0] * groups[1] * groups[2]);
  k.threads = static_cast<int>(threads);
  k.launchGiven = true;
  return img;
}

std::vector<Buffer> readBack(const LaunchImage& img, const std::vector<Buffer>& buffers, const std::vector<uint32_t>& global) {
  std::vector<Buffer> out = buffers;
  for (auto& b : out) {
    const uint32_t w0 = img.bufferAddr.at(b.name) / 4;
    for (size_t i = 0; i < b.words.size(); ++i) b.words[i] = w0 + i < global.size() ? global[w0 + i] : 0;
  }
  return out;
}

Engine modelEngine() {
  return [](const assembler::Kernel& k, const model::RunConfig& cfg) {
    model::SmModel sm(k, cfg);
    return sm.run();
  };
}

LaunchResult launch(const compiler::CompiledKernel& ck, const NDRange& range, const std::vector<KernelArg>& args,
                    const std::vector<Buffer>& buffers, const model::RunConfig& cfg, const Engine& engine,
                    const DeviceLimits& limits) {
  const LaunchImage img = buildLaunch(ck, range, args, buffers, limits);
  LaunchResult r;
  r.run = engine(img.kernel, cfg);
  r.buffers = readBack(img, buffers, r.run.global);
  return r;
}

void Kernel::setArg(size_t index, KernelArg a) {
  if (index >= args_.size()) {
    throw LaunchError("kernel '" + ck_.name + "' has " + std::to_string(args_.size()) + " parameters, no argument " +
                      std::to_string(index + 1));
  }
  args_[index] = std::move(a);
}

KernelArg Kernel::scalar(uint32_t v) {
  KernelArg a;
  a.kind = KernelArg::Scalar;
  a.value = v;
  a.spec = "u32:" + std::to_string(v);
  return a;
}

KernelArg Kernel::buffer(const std::string& name) {
  KernelArg a;
  a.kind = KernelArg::BufferArg;
  a.buffer = name;
  a.spec = "buffer " + name;
  return a;
}

KernelArg Kernel::view(const std::string& name, uint32_t offset) {
  KernelArg a;
  a.kind = KernelArg::View;
  a.buffer = name;
  a.offset = offset;
  a.spec = "view:" + name + ":" + std::to_string(offset);
  return a;
}

KernelArg Kernel::local(uint32_t bytes) {
  KernelArg a;
  a.kind = KernelArg::Local;
  a.localBytes = bytes;
  a.spec = "local:" + std::to_string(bytes);
  return a;
}

Kernel Device::build(const std::string& path, const compiler::CompileOptions& opt) {
  bool hit = false;
  compiler::CompiledKernel ck = cache_.compile(path, opt, &hit);
  return Kernel(std::move(ck), hit, path, opt);
}

Buffer& Device::createBuffer(const std::string& name, ElemType type, std::vector<uint32_t> contents) {
  for (const auto& b : buffers_) {
    if (b.name == name) throw LaunchError("a buffer named '" + name + "' exists already");
  }
  buffers_.push_back(Buffer{name, type, std::move(contents)});
  return buffers_.back();
}

const Buffer& Device::buffer(const std::string& name) const {
  for (const auto& b : buffers_) {
    if (b.name == name) return b;
  }
  throw LaunchError("no buffer named '" + name + "'");
}

Device::Run Device::enqueue(const Kernel& k, const NDRange& range) {
  for (const auto& a : k.args()) {
    if ((a.kind == KernelArg::BufferArg || a.kind == KernelArg::View)) buffer(a.buffer);  // exists
  }
  LaunchImage img = buildLaunch(k.compiled(), range, k.args(), buffers_, limits_);
  Run r;
  if (aliasOpt_ && !k.path().empty()) {
    AliasOutcome& ao = r.alias;
    ao.checked = true;
    ao.check = checkAliasing(k.compiled(), img, k.args(), buffers_, range);
    if (ao.check.facts.permitsOptimisation()) {
      compiler::CompileOptions opt = k.options();
      opt.alias = ao.check.facts;
      const auto t0 = std::chrono::steady_clock::now();
      try {
        ao.variant = cache_.compile(k.path(), opt, &ao.variantCached);
        LaunchImage vimg = buildLaunch(ao.variant, range, k.args(), buffers_, limits_);
        // The facts hold for the buffers' addresses: the variant must lay memory out alike.
        if (vimg.bufferAddr == img.bufferAddr) {
          img = std::move(vimg);
          ao.recompiled = true;
        } else {
          ao.note = "the variant lays out memory differently: conservative compilation ran";
        }
      } catch (const std::exception& e) {  // never fails a launch the conservative code can run
        ao.note = std::string("the alias-optimised variant failed (conservative compilation ran): ") + e.what();
      }
      ao.compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    } else {
      ao.note = ao.check.reason;
    }
  }
  r.result = engine_(img.kernel, cfg_);
  buffers_ = readBack(img, buffers_, r.result.global);
  r.workGroups = img.kernel.ctas;
  r.workGroupSize = img.kernel.threads;
  r.localBytes = img.kernel.sharedBytes;
  return r;
}

}  // namespace simt::runtime
