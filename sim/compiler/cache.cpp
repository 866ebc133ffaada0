#include "compiler/cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace simt::compiler {

uint64_t fnv1a64(const std::string& bytes, uint64_t h) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

namespace {

bool readFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

// The compiler's identity: size and modification time of the running executable.
std::string compilerIdentity() {
  struct stat st {};
  if (::stat("/proc/self/exe", &st) != 0) return "unknown";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << std::hex << v;
  return os.str();
}

void makeDirs(const std::string& dir) {
  for (size_t p = 1; p <= dir.size(); ++p) {
    if (p == dir.size() || dir[p] == '/') ::mkdir(dir.substr(0, p).c_str(), 0755);
  }
}

nlohmann::json toJson(const CompiledKernel& k) {
  nlohmann::json j;
  j["name"] = k.name;
  j["variant"] = k.variant;
  j["assembly"] = k.assembly;
  j["hiddenBase"] = k.hiddenBase;
  j["hiddenWords"] = k.hiddenWords;
  j["staticLocalBytes"] = k.staticLocalBytes;
  j["frameBytes"] = k.frameBytes;
  j["structurized"] = k.structurized;
  j["diagnostics"] = k.diagnostics;
  j["sources"] = k.sources;
  for (const auto& a : k.args) {
    j["args"].push_back({{"name", a.name}, {"type", a.typeName}, {"kind", static_cast<int>(a.kind)}, {"float", a.isFloat},
                         {"word", a.word}, {"words", a.words}});
  }
  for (const auto& r : k.references) {
    j["references"].push_back({r.arg, r.reads, r.writes, r.bytes, r.offset, r.line});
  }
  j["referencesComplete"] = k.referencesComplete;
  j["aliasFacts"] = k.aliasFacts;
  j["aliasStats"] = {k.unrolledLoops, k.vectorAccesses};
  const auto& s = k.stats;
  j["stats"] = {s.instructions, s.virtualRegisters, s.spilledRegisters, s.spillLoads, s.spillStores,
                s.divergentBranches, s.uniformBranches, s.reconvergenceTokens, s.yields, s.unnestedBranches};
  return j;
}

CompiledKernel fromJson(const nlohmann::json& j) {
  CompiledKernel k;
  k.name = j.at("name");
  k.variant = j.at("variant");
  k.assembly = j.at("assembly");
  k.hiddenBase = j.at("hiddenBase");
  k.hiddenWords = j.at("hiddenWords");
  k.staticLocalBytes = j.at("staticLocalBytes");
  k.frameBytes = j.at("frameBytes");
  k.structurized = j.at("structurized");
  k.diagnostics = j.at("diagnostics");
  k.sources = j.at("sources").get<std::vector<std::string>>();
  if (j.contains("args")) {
    for (const auto& a : j.at("args")) {
      ArgInfo ai;
      ai.name = a.at("name");
      ai.typeName = a.at("type");
      ai.kind = static_cast<ArgKind>(a.at("kind").get<int>());
      ai.isFloat = a.at("float");
      ai.word = a.at("word");
      ai.words = a.at("words");
      k.args.push_back(ai);
    }
  }
  if (j.contains("references")) {
    for (const auto& r : j.at("references")) {
      MemoryReference m;
      m.arg = r.at(0);
      m.reads = r.at(1);
      m.writes = r.at(2);
      m.bytes = r.at(3);
      m.offset = r.at(4);
      m.line = r.at(5);
      k.references.push_back(m);
    }
  }
  k.referencesComplete = j.at("referencesComplete");
  k.aliasFacts = j.at("aliasFacts");
  k.unrolledLoops = j.at("aliasStats").at(0);
  k.vectorAccesses = j.at("aliasStats").at(1);
  const auto& s = j.at("stats");
  auto& t = k.stats;
  t.instructions = s.at(0);
  t.virtualRegisters = s.at(1);
  t.spilledRegisters = s.at(2);
  t.spillLoads = s.at(3);
  t.spillStores = s.at(4);
  t.divergentBranches = s.at(5);
  t.uniformBranches = s.at(6);
  t.reconvergenceTokens = s.at(7);
  t.yields = s.at(8);
  t.unnestedBranches = s.at(9);
  return k;
}

}  // namespace

KernelCache::KernelCache(std::string dir) : dir_(std::move(dir)) {}

std::string KernelCache::defaultDir() {
  if (const char* d = std::getenv("SIMT_CACHE_DIR")) return std::string(d) == "off" ? "" : d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/simt/kernels";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/simt/kernels";
  return "";
}

bool KernelCache::valid(const Entry& e) const {
  for (const auto& [path, hash] : e.sources) {
    std::string text;
    if (!readFile(path, text) || fnv1a64(text) != hash) return false;
  }
  return !e.sources.empty();
}

CompiledKernel KernelCache::compile(const std::string& path, const CompileOptions& opt, bool* hit) {
  const auto t0 = std::chrono::steady_clock::now();
  std::string text;
  readFile(path, text);
  std::ostringstream key;
  key << compilerIdentity() << '\n' << path << '\n' << opt.kernel << '\n' << opt.maxRegisters << '\n'
      << opt.assumeLinearRange << opt.structurize << opt.subroutines << '\n';
  if (opt.alias.permitsOptimisation()) key << "alias " << opt.alias.key() << '\n';
  for (const auto& d : opt.defines) key << "-D" << d << '\n';
  for (const auto& i : opt.includeDirs) key << "-I" << i << '\n';
  key << text;
  const uint64_t h = fnv1a64(key.str());
  const std::string file = dir_.empty() ? "" : dir_ + "/" + hex(h) + ".json";
  auto found = [&](CompiledKernel k) {
    ++hits_;
    if (hit) *hit = true;
    k.stats.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return k;
  };
  if (auto it = memory_.find(h); it != memory_.end() && valid(it->second)) return found(it->second.kernel);
  if (!file.empty()) {
    std::string stored;
    if (readFile(file, stored)) {
      try {
        const auto j = nlohmann::json::parse(stored);
        Entry e;
        for (const auto& s : j.at("sources")) e.sources[s.at(0)] = s.at(1).get<uint64_t>();
        e.kernel = fromJson(j.at("kernel"));
        if (valid(e)) {
          memory_[h] = e;
          return found(e.kernel);
        }
      } catch (const std::exception&) {
        // an unreadable entry is a miss
      }
    }
  }
  ++misses_;
  if (hit) *hit = false;
  CompiledKernel k = compileFile(path, opt);
  Entry e;
  e.kernel = k;
  for (const auto& s : k.sources) {
    std::string content;
    if (readFile(s, content)) e.sources[s] = fnv1a64(content);
  }
  memory_[h] = e;
  if (!file.empty() && !e.sources.empty()) {
    makeDirs(dir_);
    nlohmann::json j;
    for (const auto& [p, hh] : e.sources) j["sources"].push_back({p, hh});
    j["kernel"] = toJson(k);
    const std::string tmp = file + ".tmp" + std::to_string(::getpid());
    std::ofstream(tmp) << j.dump();
    std::rename(tmp.c_str(), file.c_str());  // atomic: concurrent runs never see half an entry
  }
  return k;
}

}  // namespace simt::compiler
