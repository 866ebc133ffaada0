// The OpenCL C kernel compiler (docs/compiler.md): Clang 16 parses OpenCL C 1.2 for 32-bit
// SPIR and LLVM 16 optimises it; this library lowers the LLVM IR of one kernel to simt
// assembly (ISA.md), which the project's assembler (sim/asm) turns into code.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace simt::compiler {

// A compile error, already formatted as FILE:LINE:COL: error: MESSAGE (Clang's diagnostics
// pass through unchanged; a construct the lowering refuses names its source line).
class CompileError : public std::runtime_error {
 public:
  explicit CompileError(const std::string& what) : std::runtime_error(what) {}
};

// What the runtime learnt at launch about the kernel's pointer arguments (seed 004's
// metadata, turned into what the optimiser can use; docs/compiler.md, "Alias metadata").
// A variant compiled from facts is correct only for launches with the same facts: the runtime
// recomputes them every launch and the kernel cache keys variants by key().
struct AliasFacts {
  std::vector<int> noalias;  // pointer arguments whose region no other conflicting one touches
  struct Distance {
    int a = 0, b = 0;     // pointer arguments a < b whose regions overlap (not the same region)
    int64_t bytes = 0;    // pointer b - pointer a
  };
  std::vector<Distance> distances;
  std::vector<std::pair<int, int>> alignment;    // pointer argument, its byte alignment (4, 8, 16)
  std::vector<std::pair<int, int>> lowZeroBits;  // scalar argument, its known low zero bits (1..4)
  // The seed's condition for recompiling: some pair of references is not the same region and
  // the relation gives the optimiser something (disjoint, or a known distance).
  bool permitsOptimisation() const { return !noalias.empty() || !distances.empty(); }
  std::string key() const;  // canonical text, e.g. "noalias 0 2; distance 0 1 +4; align 0:16"
  // The text key() writes (simt cc --alias-facts); throws CompileError naming what is wrong.
  static AliasFacts parse(const std::string& text);
};

struct CompileOptions {
  std::string kernel;                    // empty: the file's only kernel (error if several)
  std::vector<std::string> defines;      // NAME or NAME=VALUE (-D)
  std::vector<std::string> includeDirs;  // -I, searched after FILE.cl's own directory
  int maxRegisters = 31;                 // tests: fewer allocatable registers force spilling
  // The launch will be linear (hidden::kLinear set): the "linear" variant, whose work-item
  // ids are the special registers with no run-time check. simt run sets it when it holds.
  bool assumeLinearRange = false;
  // Run LLVM's StructurizeCFG when some divergent branches could not get a reconvergence
  // token of their own (they then reconverge at their post-dominator; code grows).
  bool structurize = false;
  // Functions marked __attribute__((noinline)) become subroutines (`cal`/`ret`, arguments
  // and result through their frames, callee-saved registers); the rest is inlined.
  bool subroutines = false;
  // Compile the alias-optimised variant (seed 004) for these facts: noalias arguments, loops
  // unrolled by four, loads grouped before stores, adjacent accesses vectorised. Ignored
  // unless facts.permitsOptimisation().
  AliasFacts alias;
};

// How the runtime passes one kernel parameter (one param word each; a long or ulong two).
enum class ArgKind { GlobalPtr, ConstantPtr, LocalPtr, Scalar };
const char* argKindName(ArgKind k);

struct ArgInfo {
  std::string name;      // from the source (may be empty)
  std::string typeName;  // OpenCL type as written, e.g. "int*", "uint"
  ArgKind kind = ArgKind::Scalar;
  bool isFloat = false;  // scalar float
  int word = 0;          // its first param word
  int words = 1;         // 2 for long and ulong: the low word, then the high word
};

// The parameter words the runtime writes (docs/compiler.md, "Launch ABI"): the kernel's
// arguments in order, one word each (two for long/ulong, ArgInfo::words), then the hidden
// block at word hiddenBase.
namespace hidden {
constexpr int kWorkDim = 0;
constexpr int kGlobalSize = 1;   // 3 words, x y z
constexpr int kLocalSize = 4;    // 3 words
constexpr int kNumGroups = 7;    // 3 words
constexpr int kGlobalOffset = 10;  // 3 words
constexpr int kPrivateBase = 13;   // byte address of the per-thread private frames
constexpr int kLinear = 14;        // 1 when the range is 1-D in effect (sizes 1 beyond x) with
                                   // offset 0: local/group/global id x are %tid/%ctaid/%gtid
constexpr int kWords = 15;         // the block every kernel gets
// The id division words, only for kernels whose prologue decomposes the linear ids (a kernel
// that needs none, or the linear variant, stays at kWords: the FPGA top has 16 param words).
// Four divisions: kIdLocal (%tid / local size x, then that quotient / local size y) and
// kIdGroup (%ctaid / groups x, then / groups y); each is a multiplier and a shift,
// q = (n * multiplier) >> shift, exact for every dividend of the launch (idDivision below).
constexpr int kIdLocal = 15;       // 4 words: multiplier x, shift x, multiplier y, shift y
constexpr int kIdGroup = 19;       // 4 words, the same for the group ids
constexpr int kWordsWithIds = 23;

// The multiplier and shift with floor(n * multiplier / 2^shift) == n / divisor for every n
// in [0, maxDividend] and n * multiplier < 2^32 (a 32-bit `mul` then `shr`); none when no
// shift of 0..31 gives both. Always found when maxDividend < 2^15 (docs/compiler.md,
// "Launch ABI").
struct IdDivision {
  uint32_t multiplier = 0, shift = 0;
};
std::optional<IdDivision> idDivision(uint32_t divisor, uint32_t maxDividend);
}  // namespace hidden

// One memory reference of the kernel through a pointer argument, with the byte range it can
// touch as a function of the launch (seed 004's access metadata; docs/compiler.md, "Alias
// metadata"). The runtime evaluates `offset` at launch (compiler/range_expr.h).
struct MemoryReference {
  int arg = -1;           // the __global or __constant pointer argument it goes through
  bool reads = false, writes = false;
  uint32_t bytes = 4;     // bytes per access; 0: unknown
  std::string offset;     // byte offset from the argument (RangeExpr text); "" unknown
  int line = 0;           // OpenCL source line (0: none)
};

struct CompileStats {
  int instructions = 0;     // emitted instructions
  int virtualRegisters = 0;
  int spilledRegisters = 0; // live ranges given a frame slot
  int spillLoads = 0, spillStores = 0;  // static spill instructions
  int divergentBranches = 0, uniformBranches = 0, reconvergenceTokens = 0, yields = 0;
  int unnestedBranches = 0;  // divergent branches reconverging at an enclosing token only
  double milliseconds = 0;
};

struct CompiledKernel {
  std::string name;
  std::string variant;   // "default" or "linear" (CompileOptions::assumeLinearRange)
  bool structurized = false;  // StructurizeCFG ran (CompileOptions::structurize)
  std::string assembly;  // simt assembly text: .kernel, .text code, .data for __constant data
  std::vector<ArgInfo> args;
  int hiddenBase = 0;           // param word of the hidden block (the arguments' words)
  int hiddenWords = hidden::kWords;  // its length: kWordsWithIds when the prologue divides ids
  uint32_t staticLocalBytes = 0;  // __local variables declared in the kernel (shared memory from 0)
  uint32_t frameBytes = 0;        // private memory per work-item (private arrays, spills)
  CompileStats stats;
  std::string diagnostics;  // Clang's warnings, if any
  std::vector<MemoryReference> references;  // every global/constant memory reference
  // false: some reference goes through a pointer the analysis cannot trace to an argument
  // (loaded from memory, made from an integer): any buffer may then be touched anywhere.
  bool referencesComplete = true;
  std::string aliasFacts;  // the facts this variant was compiled for ("": conservative)
  int unrolledLoops = 0, vectorAccesses = 0;  // what the alias-optimised variant did
  std::vector<std::string> sources;  // FILE.cl and the headers it included (the cache checks them)
};

// Compile one kernel of FILE.cl. Throws CompileError.
CompiledKernel compileFile(const std::string& path, const CompileOptions& opt);

}  // namespace simt::compiler
