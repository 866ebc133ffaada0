// The textual forms of an OpenCL launch (KERNELS.md section 2): --arg SPEC, INIT, --global and
// --local. Free of the compiler and of LLVM, so a host program for another OpenCL
// implementation (tb/compiler/pocl_ref) reads the same specs into the same buffers.
#include "runtime/cl_args.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

namespace simt::runtime {

const char* elemTypeName(ElemType t) {
  switch (t) {
    case ElemType::I32:
      return "i32";
    case ElemType::U32:
      return "u32";
    case ElemType::F32:
      return "f32";
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
      if (used == text.size() && v >= -(1ll << 31) && v <= 0xffffffffll)
        return static_cast<uint32_t>(v);
    }
  } catch (const std::exception&) {
  }
  throw LaunchError(what + ": '" + text + "' is not a " + elemTypeName(type) + " value");
}

// A long (i64: -2^63..2^63-1) or ulong (u64: 0..2^64-1) value: decimal or 0x hex.
uint64_t parseValue64(const std::string& text, bool isSigned, const std::string& what) {
  size_t used = 0;
  try {
    if (!text.empty() && !std::isspace(static_cast<unsigned char>(text[0]))) {
      if (isSigned) {
        const long long v = std::stoll(text, &used, 0);
        if (used == text.size()) return static_cast<uint64_t>(v);
      } else if (text[0] != '-' && text[0] != '+') {
        const unsigned long long v = std::stoull(text, &used, 0);
        if (used == text.size()) return v;
      }
    }
  } catch (const std::exception&) {  // out of range or no number
  }
  throw LaunchError(what + ": '" + text + "' is not a" + (isSigned ? "n i64 (long)" : " u64 (ulong)") + " value");
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
    for (uint32_t i = 0; i < n; ++i)
      w[i] = type == ElemType::F32 ? floatBits(static_cast<float>(i)) : i;
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
      throw LaunchError(what + ": " + std::to_string(items.size()) + " values for " +
                        std::to_string(n) + " elements");
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
      if (i >= n)
        throw LaunchError(what + ": more than " + std::to_string(n) + " numbers in " + rest);
      w[i++] = parseValue(tok, type, what);
    }
    if (i != n)
      throw LaunchError(what + ": " + std::to_string(i) + " numbers in " + rest + " for " +
                        std::to_string(n) + " elements");
    return w;
  }
  throw LaunchError(what + ": expected zero, iota, const:V, list:V,..., rand:SEED or file:PATH");
}

KernelArg parseArg(const std::string& spec, std::vector<Buffer>& buffers) {
  KernelArg a;
  a.spec = spec;
  const std::string what = "--arg '" + spec + "'";
  const auto colon = spec.find(':');
  if (colon == std::string::npos)
    throw LaunchError(what + ": expected i32:V, u32:V, i64:V, u64:V, f32:V, buf:..., view:... or local:BYTES");
  const std::string kind = spec.substr(0, colon);
  const std::string rest = spec.substr(colon + 1);
  if (kind == "i32" || kind == "u32" || kind == "f32") {
    a.kind = KernelArg::Scalar;
    a.isFloat = kind == "f32";
    a.value = parseValue(rest,
                         kind == "f32"   ? ElemType::F32
                         : kind == "u32" ? ElemType::U32
                                         : ElemType::I32,
                         what);
    return a;
  }
  if (kind == "i64" || kind == "u64") {  // a long or ulong argument: two param words
    a.kind = KernelArg::Scalar;
    a.is64 = true;
    const uint64_t v = parseValue64(rest, kind == "i64", what);
    a.value = static_cast<uint32_t>(v);
    a.high = static_cast<uint32_t>(v >> 32);
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
    if (parts.size() != 2 || parts[0].empty())
      throw LaunchError(what + ": expected view:NAME:OFFSET");
    a.kind = KernelArg::View;
    a.buffer = parts[0];
    a.offset = parseCount(parts[1], what);
    const Buffer* b = nullptr;
    for (const auto& x : buffers) {
      if (x.name == a.buffer) b = &x;
    }
    if (!b) throw LaunchError(what + ": no earlier buffer named '" + a.buffer + "'");
    if (a.offset > b->words.size()) {
      throw LaunchError(what + ": offset " + std::to_string(a.offset) + " is past the end of '" +
                        a.buffer + "' (" + std::to_string(b->words.size()) + " elements)");
    }
    return a;
  }
  if (kind == "buf") {
    const auto eq = rest.find('=');
    const std::string head = rest.substr(0, eq);
    const std::string init = eq == std::string::npos ? "zero" : rest.substr(eq + 1);
    const auto parts = split(head, ':');
    if (parts.size() < 2 || parts.size() > 3 || parts[0].empty())
      throw LaunchError(what + ": expected buf:NAME:N[:TYPE][=INIT]");
    Buffer b;
    b.name = parts[0];
    for (char c : b.name) {
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
        throw LaunchError(what + ": bad buffer name '" + b.name + "'");
    }
    const uint32_t n = parseCount(parts[1], what);
    if (n == 0) throw LaunchError(what + ": a buffer needs at least one element");
    if (parts.size() == 3) {
      if (parts[2] == "i32")
        b.type = ElemType::I32;
      else if (parts[2] == "u32")
        b.type = ElemType::U32;
      else if (parts[2] == "f32")
        b.type = ElemType::F32;
      else
        throw LaunchError(what + ": TYPE must be i32, u32 or f32, not '" + parts[2] + "'");
    }
    for (const auto& x : buffers) {
      if (x.name == b.name)
        throw LaunchError(what + ": a buffer named '" + b.name + "' exists already");
    }
    b.words = initialContents(init, b.type, n);
    a.kind = KernelArg::BufferArg;
    a.buffer = b.name;
    buffers.push_back(std::move(b));
    return a;
  }
  throw LaunchError(what + ": unknown kind '" + kind + "' (i32, u32, i64, u64, f32, buf, view, local)");
}

NDRange parseRange(const std::string& global, const std::string& local, int maxThreadsPerGroup,
                   const std::string& offset) {
  NDRange r;
  if (global.empty()) throw LaunchError("--global G[,G[,G]] is required for an OpenCL kernel");
  const auto g = split(global, ',');
  if (g.empty() || g.size() > 3)
    throw LaunchError("--global takes 1 to 3 sizes, not '" + global + "'");
  r.dims = static_cast<int>(g.size());
  for (size_t i = 0; i < g.size(); ++i) {
    r.global[i] = parseCount(g[i], "--global");
    if (r.global[i] == 0) throw LaunchError("--global: sizes must be positive");
  }
  if (!local.empty()) {
    const auto l = split(local, ',');
    if (l.size() != g.size())
      throw LaunchError("--local needs as many sizes as --global (" + std::to_string(g.size()) +
                        ")");
    for (size_t i = 0; i < l.size(); ++i) {
      r.local[i] = parseCount(l[i], "--local");
      if (r.local[i] == 0) throw LaunchError("--local: sizes must be positive");
      if (r.global[i] % r.local[i] != 0) {
        throw LaunchError("--global " + std::to_string(r.global[i]) +
                          " is not a multiple of --local " + std::to_string(r.local[i]) +
                          " in dimension " + std::to_string(i));
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
  if (!offset.empty()) {
    const auto o = split(offset, ',');
    if (o.size() != g.size())
      throw LaunchError("--global-offset needs as many values as --global has sizes (" + std::to_string(g.size()) +
                        ")");
    for (size_t i = 0; i < o.size(); ++i) {
      uint64_t v = ~0ull;  // the u64 form of --arg (decimal or 0x), then the range
      try {
        v = parseValue64(o[i], false, "--global-offset");
      } catch (const LaunchError&) {
      }
      if (v > 0xffffffffull) {
        throw LaunchError("--global-offset: '" + o[i] + "' is not an offset (0 to 2^32 - 1)");
      }
      r.offset[i] = static_cast<uint32_t>(v);
      // The ids are 32-bit (size_t on the device): the last one must fit.
      if (uint64_t{r.offset[i]} + r.global[i] - 1 > 0xffffffffull) {
        throw LaunchError("--global-offset " + std::to_string(r.offset[i]) + " + --global " +
                          std::to_string(r.global[i]) + " passes 2^32 in dimension " + std::to_string(i));
      }
    }
  }
  const uint64_t threads = uint64_t{r.local[0]} * r.local[1] * r.local[2];
  if (threads > static_cast<uint64_t>(maxThreadsPerGroup)) {
    throw LaunchError("a work-group of " + std::to_string(threads) +
                      " work-items is larger than the core holds (" +
                      std::to_string(maxThreadsPerGroup) + ")");
  }
  return r;
}

bool isLinear(const NDRange& r) {
  return r.local[1] * r.local[2] == 1 && r.global[1] * r.global[2] == 1 && r.offset == std::array<uint32_t, 3>{0, 0, 0};
}

}  // namespace simt::runtime
