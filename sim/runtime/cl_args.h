// The textual forms of an OpenCL launch (KERNELS.md section 2): buffers and their INIT,
// kernel arguments (--arg SPEC), the NDRange (--global, --local). No compiler, no LLVM:
// `simt run FILE.cl` (through cl_runtime.h) and the PoCL reference host program
// (tb/compiler/pocl_ref) read the same specs into the same bytes.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace simt::runtime {

// A usage error (bad --arg, range, sizes): the CLI prints it and exits 1.
class LaunchError : public std::runtime_error {
 public:
  explicit LaunchError(const std::string& what) : std::runtime_error(what) {}
};

enum class ElemType { I32, U32, F32 };
const char* elemTypeName(ElemType t);

struct Buffer {
  std::string name;
  ElemType type = ElemType::I32;
  std::vector<uint32_t> words;  // element bits
};

// SplitMix64 (KERNELS.md: add 0x9E3779B97F4A7C15, then two multiply-xorshift rounds).
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : s_(seed) {}
  uint64_t next();

 private:
  uint64_t s_;
};

// INIT forms: zero, iota, const:V, list:V,..., rand:SEED, file:PATH. Throws LaunchError.
std::vector<uint32_t> initialContents(const std::string& init, ElemType type, uint32_t n);

struct KernelArg {
  enum Kind { Scalar, BufferArg, View, Local } kind = Scalar;
  std::string spec;      // as given
  uint32_t value = 0;    // Scalar: the word (f32: its bits; i64/u64: the low word)
  bool isFloat = false;  // Scalar given as f32
  bool is64 = false;     // Scalar given as i64:V or u64:V (a long/ulong parameter, two words)
  uint32_t high = 0;     // is64: the high word
  std::string buffer;    // BufferArg/View
  uint32_t offset = 0;   // View: element offset
  uint32_t localBytes = 0;
};

// One --arg SPEC; a buf: spec appends its buffer to `buffers` (names must be unique).
KernelArg parseArg(const std::string& spec, std::vector<Buffer>& buffers);

struct NDRange {
  int dims = 1;
  std::array<uint32_t, 3> global{1, 1, 1}, local{1, 1, 1};
  // clEnqueueNDRangeKernel's global_work_offset: the first global id in each dimension
  // (get_global_offset); the global ids run from offset to offset + global - 1.
  std::array<uint32_t, 3> offset{0, 0, 0};
};

// --global G[,G[,G]], --local L[,L[,L]] (empty: the runtime chooses, docs/compiler.md) and
// --global-offset O[,O[,O]] (empty: 0; as many values as --global has sizes).
NDRange parseRange(const std::string& global, const std::string& local, int maxThreadsPerGroup,
                   const std::string& offset = "");

// Whether a range is one-dimensional in effect with no offset (the hidden "linear" flag,
// docs/compiler.md).
bool isLinear(const NDRange& r);

}  // namespace simt::runtime
