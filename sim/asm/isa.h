// The simtcore instruction encoding (64-bit), shared by the assembler, the disassembler, the
// ISA model and (later) the RTL decoder. Layout and choices: docs/isa.md.
//
//   [6:0]   opcode                      [16:12] rd / pd / barrier id
//   [7]     I: operand B is immediate   [21:17] ra / pa / base register
//           (memory: no base register;  [26:22] rb / pb / store data
//            sync/brk/cont: has label;  [31:27] sub: compare, atomic op, special
//            bar: COUNT immediate)               register, selp predicate, cas rc,
//   [10:8]  guard predicate (7 = pt)             yield kind, barrier flags
//   [11]    guard negated               [63:32] imm32
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace simt::isa {

enum class Op : uint8_t {
  // arithmetic and logic: rd, ra, rb|imm
  Add, Sub, Mul, And, Or, Xor, Shl, Shr, Sra, Min, Max, Minu, Maxu,
  Mov,      // rd, ra|imm|label
  MovSreg,  // rd, %sreg (sub = special register)
  Not,      // rd, ra
  Selp,     // rd, ra, rb, pN (sub = pN)
  // predicates
  Setp,     // pd, ra, rb|imm (sub = compare)
  Pand, Por, Pxor, Pnot,
  // memory: [ra+imm] or [imm] (I = no base)
  LdGlobal, StGlobal, LdShared, StShared, LdParam, LdGlobalV4, StGlobalV4,
  AtomGlobal, AtomShared,        // rd, [..], rb (sub = atomic op)
  AtomGlobalCas, AtomSharedCas,  // rd, [..], rb, rc (sub = rc)
  Membar,
  // control flow and divergence
  Ssy, Sync, Pbrk, Brk, Pcont, Cont, Bra, Brx, Jmp, Jmx, Cal, Ret, Exit, Yield,
  // barriers (rd = id)
  BarSync, BarTopOcs, BarBotOcs, BarTopUcs, BarBotUcs, BarReset,
  // variable wave size
  SubvectorStart, SubvectorEnd, SubvectorLoopBegin, SubvectorLoopEnd,
  // other
  Nop, Trap,
  Count,  // the integer and control opcodes are 0 .. Count-1
  // FP32 (docs/isa.md, docs/blocks/fpu.md): opcode 64 + model::Fpu::Op, so that the RTL's
  // decode passes opcode[3:0] to simt_fpu's op_i when opcode[6:4] = 3'b100.
  FAdd = 64,   // rd, ra, rb|fimm
  FSub, FMul,
  FFma,        // rd, ra, rb|fimm, rc (sub = rc)
  FMin, FMax,
  FAbs, FNeg,  // rd, ra
  FSetp,       // pd, ra, rb|fimm (sub = FCmp)
  FCvtS32F32, FCvtU32F32, FCvtF32S32, FCvtF32U32,  // rd, ra (sub = FRm)
  FDiv,        // rd, ra, rb|fimm
  FSqrt,       // rd, ra
  FpEnd        // FP opcodes are 64 .. FpEnd-1
};

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Ltu, Leu, Gtu, Geu, Count };
// fsetp comparisons (simt_fpu_pkg::cmp_e): eq..ge ordered (false if either is NaN), equ..geu
// unordered (true if either is NaN), num (neither is NaN), nan (either is NaN).
enum class FCmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan, Count };
// fcvt rounding modes (simt_fpu_pkg::rm_e).
enum class FRm : uint8_t { Rn, Rz, Rm, Rp, Count };
enum class AtomOp : uint8_t { Add, Min, Max, And, Or, Xor, Exch, Count };

// The word an atomic leaves in memory (ISA.md section 4): from the old word and the operand.
inline uint32_t atomicResult(AtomOp op, uint32_t old, uint32_t v) {
  const auto s = [](uint32_t x) { return static_cast<int32_t>(x); };
  switch (op) {
    case AtomOp::Add: return old + v;
    case AtomOp::Min: return s(old) < s(v) ? old : v;
    case AtomOp::Max: return s(old) > s(v) ? old : v;
    case AtomOp::And: return old & v;
    case AtomOp::Or: return old | v;
    case AtomOp::Xor: return old ^ v;
    case AtomOp::Exch: return v;
    default: return old;
  }
}
enum class Sreg : uint8_t { Tid, Ntid, Ctaid, Nctaid, Laneid, Warpid, Gtid, Clock, Count };

// Barrier flags in the sub field.
namespace barflag {
constexpr uint8_t kHasCount = 1u << 0;
constexpr uint8_t kEx = 1u << 1;    // .ex on bar.top.*
constexpr uint8_t kNb = 1u << 2;    // .nb on bar.bot.*
constexpr uint8_t kImp = 1u << 3;   // .imp MIN, TIMEOUT
constexpr uint8_t kPass = 1u << 4;  // .pass on bar.sync.imp
}  // namespace barflag
// Impatient barriers: COUNT imm[11:0], MIN imm[21:12], TIMEOUT {rb, imm[31:22]}.
constexpr uint32_t kMaxBarCount = 4095, kMaxBarMin = 1023, kMaxBarTimeout = 32767;
constexpr int kPt = 7;  // the constant-true predicate

struct Instr {
  Op op = Op::Nop;
  bool immB = false;
  uint8_t guardPred = kPt;
  bool guardNeg = false;
  uint8_t rd = 0, ra = 0, rb = 0, sub = 0;
  uint32_t imm = 0;

  uint64_t encode() const;
  static Instr decode(uint64_t word);
  bool operator==(const Instr& o) const { return encode() == o.encode(); }
};

const char* opName(Op op);        // mnemonic without modifiers, e.g. "ld.global"
const char* cmpName(Cmp c);
const char* atomName(AtomOp a);
const char* fcmpName(FCmp c);     // "equ"
const char* frmName(FRm m);       // "rz"
bool isFp(Op op);                 // an FP32 instruction (opcode 64 and above)
const char* sregName(Sreg s);     // "%tid"
bool isValidOpcode(uint8_t raw);

// A float immediate as the assembler reads it back to the same bits: the shortest decimal
// that does (1.5, -0, 1e-30, inf, -inf, nan for 0x7fc00000), else the bits in hex.
std::string floatImmText(uint32_t bits);

// Canonical assembly text of one instruction (labels shown as numbers).
std::string disassemble(const Instr& in);

// Whether an instruction ends the warp's straight-line flow for the divergence unit.
bool isControl(Op op);

}  // namespace simt::isa
