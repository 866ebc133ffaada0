// Seed 004's check at launch (step 202; docs/compiler.md, "Alias metadata"): the compiled
// kernel's memory references (their byte offsets as expressions of the launch) evaluated with
// the actual arguments and NDRange give the region of global memory each pointer argument
// touches; every pair of arguments is then the same region, disjoint (with the gap between
// them) or partly overlapping (with the overlap's start, end and size). From the relations
// come the facts a recompilation may use (compiler::AliasFacts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "runtime/cl_args.h"

namespace simt::runtime {

struct LaunchImage;

// The bytes one pointer argument's references touch in this launch.
struct ArgRegion {
  int arg = -1;
  std::string buffer;        // the buffer it points into
  uint32_t pointer = 0;      // the argument's value (byte address)
  bool reads = false, writes = false;
  bool unknown = false;      // a reference without a range: the buffer's whole extent counts
  uint32_t start = 0, end = 0;  // [start, end); empty when start == end
  bool empty() const { return start >= end; }
};

struct PairRelation {
  enum class Kind { Same, Disjoint, Overlap };
  int a = 0, b = 0;  // argument indices, a < b
  Kind kind = Kind::Disjoint;
  bool conflict = false;         // at least one of the two writes
  bool sameBuffer = false;
  uint32_t gapBytes = 0;         // Disjoint: bytes between the two regions
  uint32_t overlapStart = 0, overlapEnd = 0;  // Overlap: [start, end)
  int64_t pointerDistance = 0;   // pointer b - pointer a
};
const char* relationName(PairRelation::Kind k);

struct AliasCheck {
  std::vector<ArgRegion> regions;  // the pointer arguments the kernel references
  std::vector<PairRelation> pairs;
  compiler::AliasFacts facts;      // empty unless a recompilation can use something
  std::string reason;              // why there is nothing to recompile for, if so
  long evaluations = 0;            // range evaluations (references x work-items)
  double microseconds = 0;
};

// Work-items whose ids an expression is evaluated for one at a time; beyond this the ids
// count as the intervals the NDRange gives them (sound, looser).
constexpr long kMaxEnumeratedWorkItems = 1 << 16;

AliasCheck checkAliasing(const compiler::CompiledKernel& ck, const LaunchImage& img, const std::vector<KernelArg>& args,
                         const std::vector<Buffer>& buffers, const NDRange& range);

}  // namespace simt::runtime
