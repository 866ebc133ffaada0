// Compiled kernels cached by a hash of the source and the options (issue 20): in memory and
// in a directory, one JSON file per entry. An entry records the files the kernel was built
// from (FILE.cl and its headers) with their hashes and is used only while they all match;
// the compiler's own identity (this executable) is part of the key, so a rebuilt compiler
// never reads an older compiler's code.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "compiler/compiler.h"

namespace simt::compiler {

uint64_t fnv1a64(const std::string& bytes, uint64_t h = 0xcbf29ce484222325ull);

class KernelCache {
 public:
  // dir: where entries live ("" keeps them in memory only).
  explicit KernelCache(std::string dir);
  // $SIMT_CACHE_DIR, else $XDG_CACHE_HOME/simt/kernels, else $HOME/.cache/simt/kernels ("" if
  // none; SIMT_CACHE_DIR=off disables the directory).
  static std::string defaultDir();

  // compileFile through the cache; *hit says whether the kernel came from it.
  CompiledKernel compile(const std::string& path, const CompileOptions& opt, bool* hit = nullptr);
  int hits() const { return hits_; }
  int misses() const { return misses_; }

 private:
  struct Entry {
    std::map<std::string, uint64_t> sources;  // path -> content hash
    CompiledKernel kernel;
  };
  bool valid(const Entry& e) const;
  std::string dir_;
  std::map<uint64_t, Entry> memory_;
  int hits_ = 0, misses_ = 0;
};

}  // namespace simt::compiler
