#include "asm/isa.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace simt::isa {

uint64_t Instr::encode() const {
  uint64_t w = 0;
  w |= static_cast<uint64_t>(static_cast<uint8_t>(op) & 0x7F);
  w |= static_cast<uint64_t>(immB ? 1 : 0) << 7;
  w |= static_cast<uint64_t>(guardPred & 0x7) << 8;
  w |= static_cast<uint64_t>(guardNeg ? 1 : 0) << 11;
  w |= static_cast<uint64_t>(rd & 0x1F) << 12;
  w |= static_cast<uint64_t>(ra & 0x1F) << 17;
  w |= static_cast<uint64_t>(rb & 0x1F) << 22;
  w |= static_cast<uint64_t>(sub & 0x1F) << 27;
  w |= static_cast<uint64_t>(imm) << 32;
  return w;
}

Instr Instr::decode(uint64_t w) {
  Instr in;
  in.op = static_cast<Op>(w & 0x7F);
  in.immB = (w >> 7) & 1u;
  in.guardPred = static_cast<uint8_t>((w >> 8) & 0x7);
  in.guardNeg = (w >> 11) & 1u;
  in.rd = static_cast<uint8_t>((w >> 12) & 0x1F);
  in.ra = static_cast<uint8_t>((w >> 17) & 0x1F);
  in.rb = static_cast<uint8_t>((w >> 22) & 0x1F);
  in.sub = static_cast<uint8_t>((w >> 27) & 0x1F);
  in.imm = static_cast<uint32_t>(w >> 32);
  return in;
}

bool isValidOpcode(uint8_t raw) {
  return raw < static_cast<uint8_t>(Op::Count) ||
         (raw >= static_cast<uint8_t>(Op::FAdd) && raw < static_cast<uint8_t>(Op::FpEnd));
}

bool isFp(Op op) { return op >= Op::FAdd && op < Op::FpEnd; }

const char* opName(Op op) {
  if (isFp(op)) {
    static const char* const kFp[] = {"fadd", "fsub", "fmul", "ffma", "fmin", "fmax", "fabs", "fneg",
                                      "fsetp", "fcvt.s32.f32", "fcvt.u32.f32", "fcvt.f32.s32",
                                      "fcvt.f32.u32", "fdiv", "fsqrt"};
    static_assert(sizeof(kFp) / sizeof(kFp[0]) ==
                      static_cast<size_t>(Op::FpEnd) - static_cast<size_t>(Op::FAdd),
                  "one name per FP opcode");
    return kFp[static_cast<size_t>(op) - static_cast<size_t>(Op::FAdd)];
  }
  static const char* const kNames[] = {
      "add", "sub", "mul", "and", "or", "xor", "shl", "shr", "sra", "min", "max", "minu", "maxu",
      "mov", "mov", "not", "selp", "setp", "pand", "por", "pxor", "pnot",
      "ld.global", "st.global", "ld.shared", "st.shared", "ld.param", "ld.global.v4",
      "st.global.v4", "atom.global", "atom.shared", "atom.global.cas", "atom.shared.cas",
      "membar",
      "ssy", "sync", "pbrk", "brk", "pcont", "cont", "bra", "brx", "jmp", "jmx", "cal", "ret",
      "exit", "yield",
      "bar.sync", "bar.top.ocs", "bar.bot.ocs", "bar.top.ucs", "bar.bot.ucs", "bar.reset",
      "s_subvector_start", "s_subvector_end", "s_subvector_loop_begin", "s_subvector_loop_end",
      "nop", "trap"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(Op::Count),
                "one name per opcode");
  const auto i = static_cast<size_t>(op);
  return i < static_cast<size_t>(Op::Count) ? kNames[i] : "?";
}

const char* cmpName(Cmp c) {
  static const char* const kNames[] = {"eq", "ne", "lt", "le", "gt", "ge", "ltu", "leu", "gtu", "geu"};
  return static_cast<size_t>(c) < 10 ? kNames[static_cast<size_t>(c)] : "?";
}

const char* fcmpName(FCmp c) {
  static const char* const kNames[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                       "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  return static_cast<size_t>(c) < 14 ? kNames[static_cast<size_t>(c)] : "?";
}

const char* frmName(FRm m) {
  static const char* const kNames[] = {"rn", "rz", "rm", "rp"};
  return static_cast<size_t>(m) < 4 ? kNames[static_cast<size_t>(m)] : "?";
}

std::string floatImmText(uint32_t bits) {
  if (bits == 0x7FC00000u) return "nan";
  if (bits == 0x7F800000u) return "inf";
  if (bits == 0xFF800000u) return "-inf";
  if ((bits & 0x7F800000u) == 0x7F800000u) {  // another NaN: its bits
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", bits);
    return hex;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  if (f == std::trunc(f) && std::fabs(f) < 16777216.0f && !(f == 0.0f && (bits >> 31))) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(f));  // 10.0, not 1e+01
    return buf;
  }
  for (int digits = 1; digits <= 9; ++digits) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(f));
    const float back = std::strtof(buf, nullptr);
    uint32_t b;
    std::memcpy(&b, &back, 4);
    if (b == bits) {
      std::string t = buf;
      // A float literal never reads as an integer: 2 -> 2.0 (the assembler takes decimal
      // integers as floats too, but the disassembly says which it is).
      if (t.find_first_of(".einn") == std::string::npos) t += ".0";
      return t;
    }
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08x", bits);
  return hex;
}

const char* atomName(AtomOp a) {
  static const char* const kNames[] = {"add", "min", "max", "and", "or", "xor", "exch"};
  return static_cast<size_t>(a) < 7 ? kNames[static_cast<size_t>(a)] : "?";
}

const char* sregName(Sreg s) {
  static const char* const kNames[] = {"%tid", "%ntid", "%ctaid", "%nctaid",
                                       "%laneid", "%warpid", "%gtid", "%clock"};
  return static_cast<size_t>(s) < 8 ? kNames[static_cast<size_t>(s)] : "?";
}

bool isControl(Op op) {
  switch (op) {
    case Op::Ssy: case Op::Sync: case Op::Pbrk: case Op::Brk: case Op::Pcont: case Op::Cont:
    case Op::Bra: case Op::Brx: case Op::Jmp: case Op::Jmx: case Op::Cal: case Op::Ret:
    case Op::Exit: case Op::Yield: case Op::BarSync: case Op::BarTopOcs: case Op::BarBotOcs:
    case Op::BarTopUcs: case Op::BarBotUcs: case Op::BarReset: case Op::Trap:
      return true;
    default:
      return false;
  }
}

namespace {

std::string reg(int r) { return "r" + std::to_string(r); }
std::string pred(int p) { return p == kPt ? "pt" : "p" + std::to_string(p); }
std::string simm(uint32_t v) { return std::to_string(static_cast<int32_t>(v)); }

std::string memOperand(const Instr& in) {
  if (in.immB) return "[" + simm(in.imm) + "]";
  const auto off = static_cast<int32_t>(in.imm);
  if (off == 0) return "[" + reg(in.ra) + "]";
  if (off < 0) return "[" + reg(in.ra) + "-" + std::to_string(-static_cast<int64_t>(off)) + "]";
  return "[" + reg(in.ra) + "+" + std::to_string(off) + "]";
}

std::string srcB(const Instr& in) { return in.immB ? simm(in.imm) : reg(in.rb); }
std::string fsrcB(const Instr& in) { return in.immB ? floatImmText(in.imm) : reg(in.rb); }

}  // namespace

std::string disassemble(const Instr& in) {
  std::ostringstream os;
  if (in.guardPred != kPt || in.guardNeg) {
    os << "@" << (in.guardNeg ? "!" : "") << pred(in.guardPred) << " ";
  }
  const Op op = in.op;
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::And: case Op::Or: case Op::Xor:
    case Op::Shl: case Op::Shr: case Op::Sra: case Op::Min: case Op::Max: case Op::Minu:
    case Op::Maxu:
      os << opName(op) << " " << reg(in.rd) << ", " << reg(in.ra) << ", " << srcB(in);
      break;
    case Op::Mov:
      os << "mov " << reg(in.rd) << ", " << (in.immB ? simm(in.imm) : reg(in.ra));
      break;
    case Op::MovSreg:
      os << "mov " << reg(in.rd) << ", " << sregName(static_cast<Sreg>(in.sub));
      break;
    case Op::Not: os << "not " << reg(in.rd) << ", " << reg(in.ra); break;
    case Op::Selp:
      os << "selp " << reg(in.rd) << ", " << reg(in.ra) << ", " << reg(in.rb) << ", "
         << pred(in.sub);
      break;
    case Op::Setp:
      os << "setp." << cmpName(static_cast<Cmp>(in.sub)) << " " << pred(in.rd) << ", "
         << reg(in.ra) << ", " << srcB(in);
      break;
    case Op::Pand: case Op::Por: case Op::Pxor:
      os << opName(op) << " " << pred(in.rd) << ", " << pred(in.ra) << ", " << pred(in.rb);
      break;
    case Op::Pnot: os << "pnot " << pred(in.rd) << ", " << pred(in.ra); break;
    case Op::LdGlobal: case Op::LdShared: case Op::LdGlobalV4:
      os << opName(op) << " " << reg(in.rd) << ", " << memOperand(in);
      break;
    case Op::LdParam: os << "ld.param " << reg(in.rd) << ", [" << simm(in.imm) << "]"; break;
    case Op::StGlobal: case Op::StShared: case Op::StGlobalV4:
      os << opName(op) << " " << memOperand(in) << ", " << reg(in.rb);
      break;
    case Op::AtomGlobal: case Op::AtomShared:
      os << opName(op) << "." << atomName(static_cast<AtomOp>(in.sub)) << " " << reg(in.rd)
         << ", " << memOperand(in) << ", " << reg(in.rb);
      break;
    case Op::AtomGlobalCas: case Op::AtomSharedCas:
      os << opName(op) << " " << reg(in.rd) << ", " << memOperand(in) << ", " << reg(in.rb)
         << ", " << reg(in.sub);
      break;
    case Op::Sync: case Op::Brk: case Op::Cont:
      os << opName(op);
      if (in.immB) os << " " << in.imm;
      break;
    case Op::Ssy: case Op::Pbrk: case Op::Pcont: case Op::Bra: case Op::Jmp: case Op::Cal:
    case Op::SubvectorLoopBegin: case Op::SubvectorLoopEnd:
      os << opName(op) << " " << in.imm;
      break;
    case Op::Brx: case Op::Jmx: os << opName(op) << " " << reg(in.ra); break;
    case Op::Yield:
      os << "yield";
      if (in.sub == 31) os << ".p";
      else if (in.sub > 0) os << "." << (1u << (in.sub - 1));
      break;
    case Op::BarSync: case Op::BarTopOcs: case Op::BarTopUcs: case Op::BarBotOcs:
    case Op::BarBotUcs: {
      os << opName(op);
      if (in.sub & barflag::kEx) os << ".ex";
      if (in.sub & barflag::kNb) os << ".nb";
      if (in.sub & barflag::kImp) os << ".imp";
      if (in.sub & barflag::kPass) os << ".pass";
      os << " " << static_cast<int>(in.rd);
      if (in.sub & barflag::kHasCount) {
        os << ", " << (in.immB ? std::to_string(in.imm & 0xFFF) : reg(in.ra));
      }
      if (in.sub & barflag::kImp) {
        os << ", " << ((in.imm >> 12) & 0x3FF) << ", " << ((static_cast<uint32_t>(in.rb) << 10) | (in.imm >> 22));
      }
      break;
    }
    case Op::BarReset: os << "bar.reset " << static_cast<int>(in.rd); break;
    case Op::FAdd: case Op::FSub: case Op::FMul: case Op::FMin: case Op::FMax: case Op::FDiv:
      os << opName(op) << " " << reg(in.rd) << ", " << reg(in.ra) << ", " << fsrcB(in);
      break;
    case Op::FFma:
      os << "ffma " << reg(in.rd) << ", " << reg(in.ra) << ", " << fsrcB(in) << ", " << reg(in.sub);
      break;
    case Op::FAbs: case Op::FNeg: case Op::FSqrt:
      os << opName(op) << " " << reg(in.rd) << ", " << reg(in.ra);
      break;
    case Op::FSetp:
      os << "fsetp." << fcmpName(static_cast<FCmp>(in.sub)) << " " << pred(in.rd) << ", " << reg(in.ra)
         << ", " << fsrcB(in);
      break;
    case Op::FCvtS32F32: case Op::FCvtU32F32: case Op::FCvtF32S32: case Op::FCvtF32U32:
      os << opName(op) << "." << frmName(static_cast<FRm>(in.sub)) << " " << reg(in.rd) << ", " << reg(in.ra);
      break;
    default: os << opName(op); break;
  }
  return os.str();
}

}  // namespace simt::isa
