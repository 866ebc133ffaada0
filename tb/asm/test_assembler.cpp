// The assembler and disassembler: every instruction form of ISA.md assembles, every encoding
// round-trips through its disassembly, directives and labels resolve, and each class of
// error is reported as FILE:LINE: error: MESSAGE.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "asm/assembler.h"
#include "asm/isa.h"
#include "common/harness.h"

namespace simt::tb {
namespace {

using assembler::AsmError;
using assembler::assemble;
using isa::Instr;
using isa::Op;

// One line per instruction form of ISA.md (labels resolve to code index or data address).
const char* const kEveryForm = R"(
.kernel every_form
.launch ctas=3 threads=64
.shared 128
.param 7, buf, -1
.data
buf:  .word 1, 2, 0x10, -5
more: .zero 16
.text
top:
  add r1, r2, r3
  sub r1, r2, -7
  mul r4, r5, 0x100
  and r1, r2, r3
  or r1, r2, 1
  xor r1, r2, r3
  shl r1, r2, 33
  shr r1, r2, r3
  sra r1, r2, 4
  min r1, r2, r3
  max r1, r2, r3
  minu r1, r2, 9
  maxu r31, r30, r29
  mov r1, r2
  mov r1, 42
  mov r1, buf
  mov r1, top
  mov r1, %tid
  mov r1, %ntid
  mov r1, %ctaid
  mov r1, %nctaid
  mov r1, %laneid
  mov r1, %warpid
  mov r1, %gtid
  mov r1, %clock
  not r1, r2
  selp r1, r2, r3, p4
  setp.eq p0, r1, r2
  setp.ne p1, r1, 5
  setp.lt p2, r1, r2
  setp.le p3, r1, r2
  setp.gt p4, r1, r2
  setp.ge p5, r1, r2
  setp.ltu p6, r1, r2
  setp.leu p0, r1, r2
  setp.gtu p0, r1, r2
  setp.geu p0, r1, -1
  pand p0, p1, p2
  por p0, p1, pt
  pxor p0, p1, p2
  pnot p0, p1
  ld.global r1, [r2]
  ld.global r1, [r2+8]
  ld.global r1, [r2-4]
  ld.global r1, [buf]
  ld.global r1, [buf+4]
  ld.global r1, [r2+more+4]
  st.global [r2+4], r3
  ld.shared r1, [r2]
  st.shared [16], r3
  ld.param r1, [4]
  ld.global.v4 r4, [r2+16]
  st.global.v4 [r2], r8
  atom.global.add r1, [r2], r3
  atom.global.min r1, [r2], r3
  atom.global.max r1, [r2], r3
  atom.global.and r1, [r2], r3
  atom.global.or r1, [r2], r3
  atom.global.xor r1, [r2], r3
  atom.global.exch r1, [r2+4], r3
  atom.global.cas r1, [r2], r3, r4
  atom.shared.add r1, [r2], r3
  atom.shared.cas r1, [8], r3, r4
  membar
  ssy end
  @p0 bra top
  @!p1 bra end
  bra end
  brx r5
  jmp top
  jmx r6
  cal func
  pbrk end
  brk
  brk end
  pcont top
  cont
  cont top
  sync
  sync end
  yield
  yield.1
  yield.4
  yield.256
  yield.p
  @p2 yield
  bar.sync 0
  bar.sync 1, 64
  bar.sync 2, r7
  bar.sync.imp 2, 64, 8, 200
  bar.sync.imp.pass 3, 32, 0, 30000
  bar.sync.imp.join 4, r3, 16, 0
  bar.top.ocs 5
  bar.top.ocs 5, 32
  bar.top.ocs.ex 6, 32
  bar.top.ucs.ex.imp 7, 64, 4, 100
  bar.bot.ocs 5
  bar.bot.ocs.nb 5
  bar.top.ucs 8
  bar.bot.ucs 8
  bar.bot.ucs.nb 8
  bar.reset 15
  @p1 bar.sync 3
  @!p2 bar.top.ocs 4, 16
  s_subvector_start
  s_subvector_loop_begin top
  s_subvector_loop_end top
  s_subvector_end
  nop
  trap
  fadd r1, r2, r3
  fadd r1, r2, 1.5
  fsub r1, r2, -2e-3
  fmul r1, r2, 0x3f800000
  ffma r1, r2, r3, r4
  ffma r1, r2, 0.5, r31
  fmin r1, r2, r3
  fmax r1, r2, -inf
  fabs r1, r2
  fneg r1, r2
  fsetp.eq p0, r1, r2
  fsetp.ne p1, r1, 0
  fsetp.lt p2, r1, r2
  fsetp.le p3, r1, r2
  fsetp.gt p4, r1, r2
  fsetp.ge p5, r1, r2
  fsetp.equ p6, r1, r2
  fsetp.neu p0, r1, r2
  fsetp.ltu p0, r1, r2
  fsetp.leu p0, r1, r2
  fsetp.gtu p0, r1, r2
  fsetp.geu p0, r1, nan
  fsetp.num p0, r1, r1
  fsetp.nan p0, r1, r1
  fcvt.s32.f32 r1, r2
  fcvt.s32.f32.rn r1, r2
  fcvt.u32.f32.rm r1, r2
  fcvt.f32.s32 r1, r2
  fcvt.f32.u32.rp r1, r2
  fdiv r1, r2, r3
  fdiv r1, r2, 3
  fsqrt r1, r2
  @!p3 fadd r5, r6, inf
end:
  exit
func:
  ret
)";

TEST(Assembler, EveryFormAssemblesAndRoundTrips) {
  const auto k = assemble(kEveryForm, "every_form.s");
  EXPECT_EQ(k.name, "every_form");
  EXPECT_EQ(k.ctas, 3);
  EXPECT_EQ(k.threads, 64);
  EXPECT_EQ(k.sharedBytes, 128u);
  EXPECT_EQ(k.params, (std::vector<uint32_t>{7, 0, 0xFFFFFFFFu}));
  EXPECT_EQ(k.data, (std::vector<uint32_t>{1, 2, 0x10, 0xFFFFFFFBu, 0, 0, 0, 0}));
  EXPECT_EQ(k.dataLabels.at("more").byteAddr, 16u);
  EXPECT_EQ(k.dataLabels.at("more").words, 4u);
  EXPECT_EQ(k.dataLabels.at("buf").words, 4u);
  EXPECT_EQ(k.codeLabels.at("top"), 0u);
  // Every encoding disassembles to text that assembles to the same encoding.
  for (size_t i = 0; i < k.code.size(); ++i) {
    const std::string dis = isa::disassemble(Instr::decode(k.code[i]));
    const auto again = assemble(dis + "\n", "roundtrip.s");
    ASSERT_EQ(again.code.size(), 1u) << dis;
    EXPECT_EQ(again.code[0], k.code[i]) << "line " << k.codeLine[i] << ": " << k.codeSource[i]
                                        << " -> " << dis;
  }
  // Spot checks of the encoding.
  const Instr add = Instr::decode(k.code[0]);
  EXPECT_EQ(add.op, Op::Add);
  EXPECT_EQ(add.rd, 1);
  EXPECT_EQ(add.ra, 2);
  EXPECT_EQ(add.rb, 3);
  EXPECT_FALSE(add.immB);
  EXPECT_EQ(add.guardPred, isa::kPt);
  const Instr sub = Instr::decode(k.code[1]);
  EXPECT_TRUE(sub.immB);
  EXPECT_EQ(static_cast<int32_t>(sub.imm), -7);
}

TEST(Assembler, LabelsAndMemoryOperands) {
  const auto k = assemble(R"(
.data
x: .word 5
y: .word 6, 7
   .word 8        ; y covers its data up to the next label
z: .zero 8
.text
  ld.global r1, [y+4]
  mov r2, y
  @!p3 bra done
done: exit
)",
                          "labels.s");
  const Instr ld = Instr::decode(k.code[0]);
  EXPECT_TRUE(ld.immB);  // [imm]: no base register
  EXPECT_EQ(ld.imm, 8u);
  EXPECT_EQ(Instr::decode(k.code[1]).imm, 4u);
  const Instr bra = Instr::decode(k.code[2]);
  EXPECT_EQ(bra.imm, 3u);
  EXPECT_EQ(bra.guardPred, 3);
  EXPECT_TRUE(bra.guardNeg);
  EXPECT_EQ(k.codeLine[2], 10);
  EXPECT_EQ(k.dataLabels.at("y").words, 3u);
  EXPECT_EQ(k.dataLabels.at("z").byteAddr, 16u);
}

// Random field values of every opcode: encode, disassemble, assemble, compare.
TEST(Assembler, RandomEncodingsRoundTrip) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    // Start from a valid instruction of a random form and randomise the fields it uses.
    const auto k = assemble(kEveryForm, "every_form.s");
    for (int i = 0; i < 20000 * lengthScale(); ++i) {
      Instr in = Instr::decode(k.code[static_cast<size_t>(rng.below(static_cast<int>(k.code.size())))]);
      if (in.guardPred != isa::kPt || rng.chance(30)) {
        in.guardPred = static_cast<uint8_t>(rng.below(8));
        in.guardNeg = rng.chance(50);
      }
      auto usedReg = [&](uint8_t& r) { if (r) r = static_cast<uint8_t>(rng.below(32)); };
      usedReg(in.rd);
      usedReg(in.ra);
      usedReg(in.rb);
      const Op op = in.op;
      const bool wide = op == Op::LdGlobalV4 || op == Op::StGlobalV4;
      if (wide) {
        in.rd = static_cast<uint8_t>(std::min<int>(in.rd, 28));
        in.rb = static_cast<uint8_t>(std::min<int>(in.rb, 28));
      }
      if (op == Op::Setp || op == Op::FSetp || op == Op::Pand || op == Op::Por || op == Op::Pxor || op == Op::Pnot) {
        in.rd = static_cast<uint8_t>(in.rd % 7);
      }
      if (op >= Op::BarSync && op <= Op::BarReset) in.rd = static_cast<uint8_t>(in.rd % 16);
      if (op == Op::Pand || op == Op::Por || op == Op::Pxor || op == Op::Pnot) {
        in.ra = static_cast<uint8_t>(in.ra % 8);
        in.rb = static_cast<uint8_t>(op == Op::Pnot ? 0 : in.rb % 8);
      }
      const bool immForm = in.immB && op != Op::Sync && op != Op::Brk && op != Op::Cont &&
                           op != Op::BarSync && op != Op::BarTopOcs && op != Op::BarTopUcs;
      const bool target = op == Op::Ssy || op == Op::Pbrk || op == Op::Pcont || op == Op::Bra ||
                          op == Op::Jmp || op == Op::Cal || op == Op::SubvectorLoopBegin ||
                          op == Op::SubvectorLoopEnd ||
                          ((op == Op::Sync || op == Op::Brk || op == Op::Cont) && in.immB);
      if (target) in.imm = static_cast<uint32_t>(rng.below(1 << 22));
      else if (immForm) in.imm = static_cast<uint32_t>(rng.bits64());
      const std::string dis = isa::disassemble(in);
      Instr want = in;
      const auto again = assemble(dis + "\n", "random.s");
      ASSERT_EQ(again.code.size(), 1u);
      ASSERT_EQ(again.code[0], want.encode()) << dis;
    }
  }
}

// The FP32 instructions: opcodes 64 + simt_fpu's op_e, the fields of docs/isa.md, float
// immediates read to the bits the host's strtof gives.
TEST(Assembler, FloatInstructionsAndImmediates) {
  const auto k = assemble(R"(
.data
f: .float 1.5, -0, inf, 1e-45, 0x7fc00001, 3
.text
  fadd r1, r2, 1.5
  ffma r3, r4, r5, r6
  fsetp.ltu p2, r7, -2.5e1
  fcvt.s32.f32 r1, r2
  fcvt.f32.u32 r1, r2
  fcvt.u32.f32.rp r1, r2
  fsqrt r9, r10
  fmul r1, r2, 2
  fmul r1, r2, 0x00000001
  fsub r1, r2, nan
  exit
)",
                          "fp.s");
  EXPECT_EQ(k.data, (std::vector<uint32_t>{0x3FC00000u, 0x80000000u, 0x7F800000u, 0x00000001u, 0x7FC00001u,
                                           0x40400000u}));
  const Instr fadd = Instr::decode(k.code[0]);
  EXPECT_EQ(k.code[0] & 0x7F, 64u);
  EXPECT_EQ(fadd.op, Op::FAdd);
  EXPECT_TRUE(fadd.immB);
  EXPECT_EQ(fadd.imm, 0x3FC00000u);
  const Instr ffma = Instr::decode(k.code[1]);
  EXPECT_EQ(k.code[1] & 0x7F, 67u);
  EXPECT_EQ(ffma.rd, 3);
  EXPECT_EQ(ffma.ra, 4);
  EXPECT_EQ(ffma.rb, 5);
  EXPECT_EQ(ffma.sub, 6);  // rc
  const Instr fsetp = Instr::decode(k.code[2]);
  EXPECT_EQ(k.code[2] & 0x7F, 72u);
  EXPECT_EQ(fsetp.rd, 2);
  EXPECT_EQ(fsetp.sub, static_cast<uint8_t>(isa::FCmp::Ltu));
  EXPECT_EQ(fsetp.sub, 8);
  EXPECT_EQ(fsetp.imm, 0xC1C80000u);
  EXPECT_EQ(k.code[3] & 0x7F, 73u);
  EXPECT_EQ(Instr::decode(k.code[3]).sub, 1);  // rz: the C cast
  EXPECT_EQ(k.code[4] & 0x7F, 76u);
  EXPECT_EQ(Instr::decode(k.code[4]).sub, 0);  // rn
  EXPECT_EQ(k.code[5] & 0x7F, 74u);
  EXPECT_EQ(Instr::decode(k.code[5]).sub, 3);  // rp
  EXPECT_EQ(k.code[6] & 0x7F, 78u);
  EXPECT_EQ(Instr::decode(k.code[7]).imm, 0x40000000u);  // a decimal integer is a float value
  EXPECT_EQ(Instr::decode(k.code[8]).imm, 1u);           // hex is the bits
  EXPECT_EQ(isa::disassemble(Instr::decode(k.code[0])), "fadd r1, r2, 1.5");
  EXPECT_EQ(isa::disassemble(Instr::decode(k.code[3])), "fcvt.s32.f32.rz r1, r2");
  EXPECT_EQ(isa::disassemble(Instr::decode(k.code[7])), "fmul r1, r2, 2.0");
  for (uint8_t op = 60; op < 64; ++op) EXPECT_FALSE(isa::isValidOpcode(op)) << int(op);
  for (uint8_t op = 64; op < 79; ++op) EXPECT_TRUE(isa::isValidOpcode(op)) << int(op);
  EXPECT_FALSE(isa::isValidOpcode(79));
}

TEST(Assembler, EveryFloatImmediateRoundTripsThroughItsText) {
  for (uint64_t seed : testSeeds()) {
    SIMT_SEED_TRACE(seed);
    Rng rng(seed);
    for (int i = 0; i < 20000 * lengthScale(); ++i) {
      uint32_t bits = static_cast<uint32_t>(rng.bits64());
      if (rng.chance(20)) bits &= 0x807FFFFFu;  // subnormals and zeros
      if (rng.chance(10)) bits |= 0x7F800000u;  // infinities and NaNs
      Instr in;
      in.op = Op::FAdd;
      in.rd = 1;
      in.ra = 2;
      in.immB = true;
      in.imm = bits;
      const std::string dis = isa::disassemble(in);
      const auto again = assemble(dis + "\n", "fimm.s");
      ASSERT_EQ(again.code[0], in.encode()) << dis;
    }
  }
}

// Each error class names file and line.
struct ErrorCase {
  const char* what;
  const char* source;
  int line;
  const char* message;
};

TEST(Assembler, ErrorsNameFileAndLine) {
  const ErrorCase cases[] = {
      {"unknown opcode", "nop\nfrobnicate r1\n", 2, "unknown opcode 'frobnicate'"},
      {"bad operand", "add r1, r2\n", 1, "'add' takes 3 operands, got 2"},
      {"bad register", "add r1, r2, r32\n", 1, "register out of range"},
      {"bad predicate", "setp.eq p7, r1, r2\n", 1, "expected a predicate"},
      {"immediate out of range", "mov r1, 0x100000000\n", 1, "immediate out of range"},
      {"barrier id", "bar.sync 16\n", 1, "barrier id out of range"},
      {"yield period", "yield.3\n", 1, "power of two"},
      {"undefined label", "bra nowhere\n", 1, "undefined label 'nowhere'"},
      {"duplicate label", "a: nop\na: exit\n", 2, "duplicate label 'a'"},
      {"bad directive", ".text\n.frob 3\nexit\n", 2, "unknown directive '.frob'"},
      {"data in text", ".word 3\n", 1, "outside .data"},
      {"zero size", ".data\nx: .zero 5\n.text\nexit\n", 2, "multiple of 4"},
      {"bad memory operand", "ld.global r1, r2\n", 1, "expected a memory operand"},
      {"bad modifier", "bar.bot.ocs.ex 1\n", 1, "not allowed"},
      {"pass without imp", "bar.sync.pass 1\n", 1, ".pass applies to impatient"},
      {"bad launch", ".launch warps=3\nexit\n", 1, "unknown .launch argument"},
      {"bad float immediate", "nop\nfadd r1, r2, 1.5x\n", 2, "expected a register or a float immediate"},
      {"float immediate overflow", "fmul r1, r2, 1e39\n", 1, "float immediate out of range"},
      {"float immediate underflow", "fmul r1, r2, 1e-50\n", 1, "underflows to zero"},
      {"float hex too long", "fmul r1, r2, 0x123456789\n", 1, "bad float immediate"},
      {"float in an integer op", "add r1, r2, 1.5\n", 1, "bad number"},
      {"fsetp without compare", "fsetp p0, r1, r2\n", 1, "fsetp needs a comparison"},
      {"fsetp bad compare", "fsetp.ltx p0, r1, r2\n", 1, "unknown float comparison 'ltx'"},
      {"fsetp into a register", "fsetp.lt r0, r1, r2\n", 1, "expected a predicate"},
      {"fcvt bad types", "fcvt.f32.f32 r1, r2\n", 1, "unknown conversion"},
      {"fcvt bad mode", "fcvt.s32.f32.rx r1, r2\n", 1, "unknown rounding mode"},
      {"ffma operands", "ffma r1, r2, r3\n", 1, "'ffma' takes 4 operands, got 3"},
      {"fsqrt immediate", "fsqrt r1, 2.0\n", 1, "expected a register"},
      {"fadd modifier", "fadd.rz r1, r2, r3\n", 1, "unexpected modifier"},
      {"bad .float", ".data\nx: .float 1.5, abc\n.text\nexit\n", 2, "float immediate"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    try {
      assemble(c.source, "bad.s");
      ADD_FAILURE() << "no error for " << c.what;
    } catch (const AsmError& e) {
      EXPECT_EQ(e.file(), "bad.s");
      EXPECT_EQ(e.line(), c.line);
      EXPECT_NE(e.message().find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("bad.s:" + std::to_string(c.line) + ": error: ", 0), 0u)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace simt::tb
