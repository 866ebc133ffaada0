// The machine IR between LLVM IR and simt assembly: blocks of simt instructions whose
// register operands are virtual registers (before allocation) or physical ones (r30 frame
// pointer, r31 link, spill scratch). One instruction = one line of ISA.md assembly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simt::compiler {

struct Opnd {
  enum Kind { None, VReg, PReg, Imm, Label, Sreg, Pred, Mem } kind = None;
  int reg = -1;          // VReg/PReg number; Mem: base register (-1: none); Pred: pN
  bool baseIsVReg = false;  // Mem: whether reg is virtual
  int64_t imm = 0;       // Imm; Mem/Label: offset
  std::string text;      // Label name, Sreg name (%tid)
  std::string frameOf;   // Mem on r30: the function whose frame the offset is in ("" own)
  bool isFloat = false;  // Imm: a float immediate (binary32 bits, printed as hex bits)

  static Opnd vreg(int r) { Opnd o; o.kind = VReg; o.reg = r; return o; }
  static Opnd preg(int r) { Opnd o; o.kind = PReg; o.reg = r; return o; }
  static Opnd imm32(int64_t v) { Opnd o; o.kind = Imm; o.imm = v; return o; }
  static Opnd fimm(uint32_t bits) { Opnd o; o.kind = Imm; o.imm = bits; o.isFloat = true; return o; }
  static Opnd label(const std::string& l, int64_t off = 0) { Opnd o; o.kind = Label; o.text = l; o.imm = off; return o; }
  static Opnd sreg(const std::string& s) { Opnd o; o.kind = Sreg; o.text = s; return o; }
  static Opnd pred(int p) { Opnd o; o.kind = Pred; o.reg = p; return o; }
  // [base + off] with a virtual (or physical) base, [label + off], [off]
  static Opnd mem(int base, bool virt, int64_t off) { Opnd o; o.kind = Mem; o.reg = base; o.baseIsVReg = virt; o.imm = off; return o; }
  static Opnd memLabel(const std::string& l, int64_t off) { Opnd o; o.kind = Mem; o.text = l; o.imm = off; return o; }
  bool isReg() const { return kind == VReg || kind == PReg; }
};

struct MInst {
  std::string op;          // mnemonic with modifiers: "add", "setp.lt", "ld.global", "bra"
  Opnd dst;                // register or predicate written (None for stores, branches)
  std::vector<Opnd> srcs;  // in assembly order after dst
  int guard = -1;          // @pN (-1: unguarded)
  bool guardNeg = false;
  int line = 0;            // OpenCL source line (0: none)
  // A guarded phi copy on a branch's taken edge: the work-items it skips take the other edge;
  // if the destination is dead there, the copy is a full definition for liveness.
  bool edgeCopy = false;
  bool fullDef = false;  // set by the allocator's liveness refinement
  // A register tuple: ld.global.v4 writes dst and these three, st.global.v4 reads its stored
  // register (srcs[1]) and these three. The allocator places the four in consecutive
  // physical registers (docs/compiler.md, "Vector types and vector memory"); only the first
  // is printed, as the ISA names a tuple by its first register.
  std::vector<Opnd> tupleRest;
  std::string comment;

  bool definesTuple() const { return !tupleRest.empty() && dst.kind != Opnd::None; }
  // The tuple's four operands in order (empty when the instruction has none).
  std::vector<Opnd> tuple() const;

  bool isBranchLike() const;  // ends straight-line flow for liveness (bra, sync, exit, ...)
};

struct MBlock {
  std::string label;
  std::vector<MInst> insts;
  std::vector<int> succs;  // filled by computeSuccessors
};

struct MFunction {
  std::string name;
  std::vector<MBlock> blocks;  // layout order; blocks[0] is the entry
  int numVRegs = 0;
  int newVReg() { return numVRegs++; }
  int blockIndex(const std::string& label) const;
  // Control-flow successors of every block from its instructions: guarded or unguarded
  // bra/sync targets, fall-through unless the block ends in an unguarded bra, sync or exit.
  void computeSuccessors();
  std::string print() const;  // assembly text of the code (after allocation: no vregs)
};

std::string printInst(const MInst& in);

}  // namespace simt::compiler
