#include "model/sm/lsu.h"

namespace simt::model {

using isa::Op;

SmLsu::SmLsu(const Config& cfg)
    : cfg_(cfg),
      global_(cfg.globalBytes / 4, 0),
      shared_(static_cast<size_t>(cfg.numCtas) * static_cast<size_t>(cfg.sharedWords), 0) {}

SmLsu::Access SmLsu::accessOf(Op op) {
  Access a;
  a.shared = op == Op::LdShared || op == Op::StShared || op == Op::AtomShared || op == Op::AtomSharedCas;
  a.v4 = op == Op::LdGlobalV4 || op == Op::StGlobalV4;
  a.store = op == Op::StGlobal || op == Op::StShared || op == Op::StGlobalV4;
  a.cas = op == Op::AtomGlobalCas || op == Op::AtomSharedCas;
  a.atom = a.cas || op == Op::AtomGlobal || op == Op::AtomShared;
  a.memory = a.shared || a.v4 || a.store || a.atom || op == Op::LdGlobal;
  return a;
}

void SmLsu::clearShared(int cta, int words) {
  for (int i = 0; i < words; ++i) shared_[index(cta, i)] = 0;
}

SmLsu::Result SmLsu::execute(const Instruction& in, WarpRegs& regs) {
  Result res;
  const auto [memory, shared, v4, store, atom, cas] = accessOf(in.op);
  if (!memory) return res;
  const int elems = v4 ? 4 : 1;
  // Operands as the unit latched them in EXEC (a store's data, an atomic's operand and cas's
  // swap value), before any of this instruction's loads write the registers.
  const auto base = regs[in.ra];
  const auto opb = regs[in.rb];
  const auto opc = regs[in.sub];

  for (int l = 0; l < 32; ++l) {
    if (!((in.exec >> l) & 1u)) continue;
    for (int e = 0; e < elems; ++e) {
      const uint32_t addr = (in.immB ? 0u : base[static_cast<size_t>(l)]) + in.imm + 4u * static_cast<uint32_t>(e);
      // The range check is on the 33-bit sum addr + 4 (no wrap), as in the RTL.
      const uint64_t end = static_cast<uint64_t>(addr) + 4;
      bool misaligned = false, outOfRange = false;
      if (shared) {
        misaligned = (addr & 3u) != 0;
        outOfRange = end > cfg_.sharedBytes;
      } else {
        misaligned = (v4 && e == 0) ? (addr & 15u) != 0 : (addr & 3u) != 0;
        outOfRange = end > cfg_.globalBytes;
      }
      if (misaligned || outOfRange) {
        res.fault = shared ? (misaligned ? Fault::SharedAlign : Fault::SharedRange)
                           : (misaligned ? Fault::GlobalAlign : Fault::GlobalRange);
        res.faultLane = l;
        res.faultAddr = addr;
        return res;
      }
      const int reg = (in.rd + e) & 31;
      if (shared) {
        uint32_t& w = shared_[index(in.cta, static_cast<int>(addr / 4))];
        const uint32_t old = w;
        if (store) {
          w = opb[static_cast<size_t>(l)];
        } else {
          if (atom) {
            w = cas ? (old == opb[static_cast<size_t>(l)] ? opc[static_cast<size_t>(l)] : old)
                    : isa::atomicResult(static_cast<isa::AtomOp>(in.sub), old, opb[static_cast<size_t>(l)]);
          }
          regs[static_cast<size_t>(reg)][static_cast<size_t>(l)] = old;
          res.writes.push_back({l, reg, old});
        }
        continue;
      }
      uint32_t& w = global_[addr / 4];
      if (store) {
        // v4: each element's data register, read when the element is served.
        const uint32_t data = v4 ? regs[static_cast<size_t>((in.rb + e) & 31)][static_cast<size_t>(l)]
                                 : opb[static_cast<size_t>(l)];
        res.requests.push_back({true, addr, data});
        w = data;
        continue;
      }
      const uint32_t old = w;
      res.requests.push_back({false, addr, opb[static_cast<size_t>(l)]});
      regs[static_cast<size_t>(reg)][static_cast<size_t>(l)] = old;
      res.writes.push_back({l, reg, old});
      if (atom) {
        w = cas ? (old == opb[static_cast<size_t>(l)] ? opc[static_cast<size_t>(l)] : old)
                : isa::atomicResult(static_cast<isa::AtomOp>(in.sub), old, opb[static_cast<size_t>(l)]);
        res.requests.push_back({true, addr, w});
      }
    }
  }
  return res;
}

}  // namespace simt::model
