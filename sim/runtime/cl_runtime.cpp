#include "runtime/cl_runtime.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace simt::runtime {

const char* elemTypeName(ElemType t) {
  switch (t) {
    case ElemType::I32: return "i32";
    case ElemType::U32: return "u32";
    case ElemType::F32: return "f32";
  }
  return "?";
}

uint64_t SplitMix64::next() {
  s_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = s_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

namespace {

uint32_t floatBits(float f) {
  uint32_t u = 0;
  std::memcpy(&u, &f, 4);
  return u;
}

// A number of the element type, as text: decimal or 0x hex integers (negative allowed for
// i32, u32 modulo 2^32), floats for f32.
uint32_t parseValue(const std::string& text, ElemType type, const std::string& what) {
  size_t used = 0;
  try {
    if (type == ElemType::F32) {
      const float f = std::stof(text, &used);
      if (used == text.size()) return floatBits(f);
    } else {
      const long long v = std::stoll(text, &used, 0);
      if (used == text.size() && v >= -(1ll << 31) && v <= 0xffffffffll) return static_cast<uint32_t>(v);
    }
  } catch (const std::exception&) {
  }
  throw LaunchError(what + ": '" + text + "' is not a " + elemTypeName(type) + " value");
}

uint32_t parseCount(const std::string& text, const std::string& what) {
  size_t used = 0;
  try {
    const long long v = std::stoll(text, &used, 10);
    if (used == text.size() && v >= 0 && v <= (1ll << 26)) return static_cast<uint32_t>(v);
  } catch (const std::exception&) {
  }
  throw LaunchError(what + ": '" + text + "' is not a count");
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

}  // namespace

std::vector<uint32_t> initialContents(const std::string& init, ElemType type, uint32_t n) {
  std::vector<uint32_t> w(n, 0);
  const std::string what = "INIT '" + init + "'";
  const auto colon = init.find(':');
  const std::string kind = init.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : init.substr(colon + 1);
  if (init == "zero") return w;
  if (init == "iota") {
    for (uint32_t i = 0; i < n; ++i) w[i] = type == ElemType::F32 ? floatBits(static_cast<float>(i)) : i;
    return w;
  }
  if (kind == "const" && colon != std::string::npos) {
    const uint32_t v = parseValue(rest, type, what);
    for (auto& x : w) x = v;
    return w;
  }
  if (kind == "list" && colon != std::string::npos) {
    const auto items = split(rest, ',');
    if (items.size() != n) {
      throw LaunchError(what + ": " + std::to_string(items.size()) + " values for " + std::to_string(n) + " elements");
    }
    for (uint32_t i = 0; i < n; ++i) w[i] = parseValue(items[i], type, what);
    return w;
  }
  if (kind == "rand" && colon != std::string::npos) {
    size_t used = 0;
    unsigned long long seed = 0;
    try {
      seed = std::stoull(rest, &used, 0);
    } catch (const std::exception&) {
      used = 0;
    }
    if (rest.empty() || used != rest.size()) throw LaunchError(what + ": SEED must be a number");
    SplitMix64 rng(seed);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t lo = static_cast<uint32_t>(rng.next());
      w[i] = type == ElemType::F32 ? floatBits(static_cast<float>(lo >> 8) / 16777216.0f) : lo;
    }
    return w;
  }
  if (kind == "file" && colon != std::string::npos) {
    std::ifstream in(rest);
    if (!in) throw LaunchError(what + ": cannot read " + rest);
    std::string tok;
    uint32_t i = 0;
    while (in >> tok) {
      if (i >= n) throw LaunchError(what + ": more than " + std::to_string(n) + " numbers in " + rest);
      w[i++] = parseValue(tok, type, what);
    }
    if (i != n) throw LaunchError(what + ": " + std::to_string(i) + " numbers in " + rest + " for " + std::to_string(n) + " elements");
    return w;
  }
  throw LaunchError(what + ": expected zero, iota, const:V, list:V,..., rand:SEED or file:PATH");
}

KernelArg parseArg(const std::string& spec, std::vector<Buffer>& buffers) {
  KernelArg a;
  a.spec = spec;
  const std::string what = "--arg '" + spec + "'";
  const auto colon = spec.find(':');
  if (colon == std::string::npos) throw LaunchError(what + ": expected i32:V, u32:V, f32:V, buf:..., view:... or local:BYTES");
  const std::string kind = spec.substr(0, colon);
  const std::string rest = spec.substr(colon + 1);
  if (kind == "i32" || kind == "u32" || kind == "f32") {
    a.kind = KernelArg::Scalar;
    a.isFloat = kind == "f32";
    a.value = parseValue(rest, kind == "f32" ? ElemType::F32 : kind == "u32" ? ElemType::U32 : ElemType::I32, what);
    return a;
  }
  if (kind == "local") {
    a.kind = KernelArg::Local;
    a.localBytes = parseCount(rest, what);
    if (a.localBytes == 0) throw LaunchError(what + ": BYTES must be positive");
    return a;
  }
  if (kind == "view") {
    const auto parts = split(rest, ':');
    if (parts.size() != 2 || parts[0].empty()) throw LaunchError(what + ": expected view:NAME:OFFSET");
    a.kind = KernelArg::View;
    a.buffer = parts[0];
    a.offset = parseCount(parts[1], what);
    const Buffer* b = nullptr;
    for (const auto& x : buffers) {
      if (x.name == a.buffer) b = &x;
    }
    if (!b) throw LaunchError(what + ": no earlier buffer named '" + a.buffer + "'");
    if (a.offset > b->words.size()) {
      throw LaunchError(what + ": offset " + std::to_string(a.offset) + " is past the end of '" + a.buffer + "' (" +
                        std::to_string(b->words.size()) + " elements)");
    }
    return a;
  }
  if (kind == "buf") {
    const auto eq = rest.find('=');
    const std::string head = rest.substr(0, eq);
    const std::string init = eq == std::string::npos ? "zero" : rest.substr(eq + 1);
    const auto parts = split(head, ':');
    if (parts.size() < 2 || parts.size() > 3 || parts[0].empty()) throw LaunchError(what + ": expected buf:NAME:N[:TYPE][=INIT]");
    Buffer b;
    b.name = parts[0];
    for (char c : b.name) {
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) throw LaunchError(what + ": bad buffer name '" + b.name + "'");
    }
    const uint32_t n = parseCount(parts[1], what);
    if (n == 0) throw LaunchError(what + ": a buffer needs at least one element");
    if (parts.size() == 3) {
      if (parts[2] == "i32") b.type = ElemType::I32;
      else if (parts[2] == "u32") b.type = ElemType::U32;
      else if (parts[2] == "f32") b.type = ElemType::F32;
      else throw LaunchError(what + ": TYPE must be i32, u32 or f32, not '" + parts[2] + "'");
    }
    for (const auto& x : buffers) {
      if (x.name == b.name) throw LaunchError(what + ": a buffer named '" + b.name + "' exists already");
    }
    b.words = initialContents(init, b.type, n);
    a.kind = KernelArg::BufferArg;
    a.buffer = b.name;
    buffers.push_back(std::move(b));
    return a;
  }
  throw LaunchError(what + ": unknown kind '" + kind + "' (i32, u32, f32, buf, view, local)");
}

NDRange parseRange(const std::string& global, const std::string& local, int maxThreadsPerGroup) {
  NDRange r;
  if (global.empty()) throw LaunchError("--global G[,G[,G]] is required for an OpenCL kernel");
  const auto g = split(global, ',');
  if (g.empty() || g.size() > 3) throw LaunchError("--global takes 1 to 3 sizes, not '" + global + "'");
  r.dims = static_cast<int>(g.size());
  for (size_t i = 0; i < g.size(); ++i) {
    r.global[i] = parseCount(g[i], "--global");
    if (r.global[i] == 0) throw LaunchError("--global: sizes must be positive");
  }
  if (!local.empty()) {
    const auto l = split(local, ',');
    if (l.size() != g.size()) throw LaunchError("--local needs as many sizes as --global (" + std::to_string(g.size()) + ")");
    for (size_t i = 0; i < l.size(); ++i) {
      r.local[i] = parseCount(l[i], "--local");
      if (r.local[i] == 0) throw LaunchError("--local: sizes must be positive");
      if (r.global[i] % r.local[i] != 0) {
        throw LaunchError("--global " + std::to_string(r.global[i]) + " is not a multiple of --local " +
                          std::to_string(r.local[i]) + " in dimension " + std::to_string(i));
      }
    }
  } else {
    // The runtime's choice: the largest divisor of the first size up to 64 threads (two
    // warps: several work-groups stay resident), 1 in the other dimensions.
    uint32_t best = 1;
    for (uint32_t d = 1; d <= std::min<uint32_t>(64, r.global[0]); ++d) {
      if (r.global[0] % d == 0) best = d;
    }
    r.local[0] = best;
  }
  const uint64_t threads = uint64_t{r.local[0]} * r.local[1] * r.local[2];
  if (threads > static_cast<uint64_t>(maxThreadsPerGroup)) {
    throw LaunchError("a work-group of " + std::to_string(threads) + " work-items is larger than the core holds (" +
                      std::to_string(maxThreadsPerGroup) + ")");
  }
  return r;
}

bool isLinear(const NDRange& r) {
  return r.local[1] * r.local[2] == 1 && r.global[1] * r.global[2] == 1;  // offsets are 0
}

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
  // Params: one word per argument, then the hidden block.
  uint32_t localTop = (ck.staticLocalBytes + 15u) & ~15u;
  k.params.assign(static_cast<size_t>(ck.hiddenBase + compiler::hidden::kWords), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const auto& p = ck.args[i];
    const auto& a = args[i];
    const std::string where = "--arg " + std::to_string(i + 1) + " ('" + a.spec + "') for parameter '" +
                              p.typeName + " " + p.name + "'";
    switch (p.kind) {
      case ArgKind::GlobalPtr:
      case ArgKind::ConstantPtr:
        if (a.kind != KernelArg::BufferArg && a.kind != KernelArg::View) throw LaunchError(where + ": expected buf: or view:");
        k.params[i] = img.bufferAddr.at(a.buffer) + 4 * a.offset;
        break;
      case ArgKind::LocalPtr:
        if (a.kind != KernelArg::Local) throw LaunchError(where + ": expected local:BYTES");
        k.params[i] = localTop;
        localTop += (a.localBytes + 15u) & ~15u;
        break;
      case ArgKind::Scalar:
        if (a.kind != KernelArg::Scalar) throw LaunchError(where + ": expected a scalar (i32:V, u32:V or f32:V)");
        if (a.isFloat != p.isFloat) throw LaunchError(where + (p.isFloat ? ": expected f32:V" : ": expected i32:V or u32:V"));
        k.params[i] = a.value;
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
    k.params[static_cast<size_t>(h + hd::kGlobalOffset + d)] = 0;
  }
  k.params[static_cast<size_t>(h + hd::kPrivateBase)] = privateBase;
  k.params[static_cast<size_t>(h + hd::kLinear)] = isLinear(range) ? 1 : 0;
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
  return Kernel(std::move(ck), hit);
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
  const LaunchImage img = buildLaunch(k.compiled(), range, k.args(), buffers_, limits_);
  Run r;
  r.result = engine_(img.kernel, cfg_);
  buffers_ = readBack(img, buffers_, r.result.global);
  r.workGroups = img.kernel.ctas;
  r.workGroupSize = img.kernel.threads;
  r.localBytes = img.kernel.sharedBytes;
  return r;
}

}  // namespace simt::runtime
