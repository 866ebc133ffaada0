#include "compiler/mir.h"

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace simt::compiler {

namespace {

std::string opndText(const Opnd& o) {
  auto off = [](int64_t v) { return v > 0 ? "+" + std::to_string(v) : v < 0 ? std::to_string(v) : std::string(); };
  switch (o.kind) {
    case Opnd::None: return "";
    case Opnd::VReg: return "v" + std::to_string(o.reg);
    case Opnd::PReg: return "r" + std::to_string(o.reg);
    case Opnd::Imm:
      if (o.isFloat) {  // the bits: the assembler reads 0x... in a float operand as bits
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%08x", static_cast<unsigned>(o.imm & 0xffffffffu));
        return hex;
      }
      return std::to_string(o.imm);
    case Opnd::Label: return o.text + off(o.imm);
    case Opnd::Sreg: return o.text;
    case Opnd::Pred: return "p" + std::to_string(o.reg);
    case Opnd::Mem:
      if (!o.text.empty()) return "[" + o.text + off(o.imm) + "]";
      if (o.reg < 0) return "[" + std::to_string(o.imm) + "]";
      return "[" + std::string(o.baseIsVReg ? "v" : "r") + std::to_string(o.reg) + off(o.imm) + "]";
  }
  return "";
}

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

}  // namespace

bool MInst::isBranchLike() const {
  return op == "bra" || startsWith(op, "sync") || op == "exit" || op == "ret";
}

std::vector<Opnd> MInst::tuple() const {
  if (tupleRest.empty()) return {};
  std::vector<Opnd> t = {definesTuple() ? dst : srcs.back()};
  t.insert(t.end(), tupleRest.begin(), tupleRest.end());
  return t;
}

std::string printInst(const MInst& in) {
  std::ostringstream os;
  if (in.guard >= 0) os << "@" << (in.guardNeg ? "!" : "") << "p" << in.guard << " ";
  os << in.op;
  bool first = true;
  auto put = [&](const Opnd& o) {
    os << (first ? " " : ", ") << opndText(o);
    first = false;
  };
  if (in.dst.kind != Opnd::None) put(in.dst);
  for (const auto& s : in.srcs) put(s);
  return os.str();
}

int MFunction::blockIndex(const std::string& label) const {
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].label == label) return static_cast<int>(i);
  }
  throw std::logic_error("mir: no block " + label);
}

void MFunction::computeSuccessors() {
  for (size_t b = 0; b < blocks.size(); ++b) {
    auto& blk = blocks[b];
    blk.succs.clear();
    bool falls = true;
    for (const auto& in : blk.insts) {
      if ((in.op == "bra" || startsWith(in.op, "sync")) && !in.srcs.empty() && in.srcs[0].kind == Opnd::Label) {
        blk.succs.push_back(blockIndex(in.srcs[0].text));
      }
      if (in.guard < 0 && in.isBranchLike()) {
        falls = false;
        break;
      }
    }
    if (falls && b + 1 < blocks.size()) blk.succs.push_back(static_cast<int>(b + 1));
  }
}

std::string MFunction::print() const {
  std::ostringstream os;
  for (const auto& b : blocks) {
    os << b.label << ":\n";
    for (const auto& in : b.insts) {
      std::string t = "        " + printInst(in);
      if (!in.comment.empty() || in.line > 0) {
        if (t.size() < 48) t.resize(48, ' ');
        t += " ;";
        if (in.line > 0) t += " line " + std::to_string(in.line);
        if (!in.comment.empty()) t += " " + in.comment;
      }
      os << t << "\n";
    }
  }
  return os.str();
}

}  // namespace simt::compiler
