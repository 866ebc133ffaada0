#include "model/sm/lsu.h"

#include "model/mem/line_memory.h"

namespace simt::model {

using isa::Op;

namespace {
int lowest(uint32_t m) { return __builtin_ctz(m); }
}  // namespace

bool SmLsu::MemRequest::operator==(const MemRequest& o) const {
  if (write != o.write || amo != o.amo || addr != o.addr || be != o.be || lanes != o.lanes) return false;
  if (amo == 8 && cmp != o.cmp) return false;
  for (size_t w = 0; w < wdata.size() && w < o.wdata.size(); ++w) {
    if (((be >> (4 * w)) & 0xFu) && (write || amo) && wdata[w] != o.wdata[w]) return false;
  }
  return true;
}

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

uint32_t SmLsu::groupOf(uint32_t m) const {
  if (cfg_.numLanes >= 32) return 0xFFFFFFFFu;
  const uint32_t lanes = (1u << cfg_.numLanes) - 1;
  return lanes << (static_cast<uint32_t>(lowest(m)) & ~static_cast<uint32_t>(cfg_.numLanes - 1));
}

void SmLsu::clearShared(int cta, int words) {
  for (int i = 0; i < words; ++i) shared_[index(cta, i)] = 0;
}

// Every executing lane's address, in ascending lane order: the first bad one faults, and
// then nothing is performed.
bool SmLsu::check(const Instruction& in, const WarpRegs& regs, Result& res) const {
  const Access acc = accessOf(in.op);
  const uint64_t size = acc.shared ? cfg_.sharedBytes : cfg_.globalBytes;
  for (int l = 0; l < 32; ++l) {
    if (!((in.exec >> l) & 1u)) continue;
    const uint32_t a = (in.immB ? 0u : regs[in.ra][static_cast<size_t>(l)]) + in.imm;
    const bool misaligned = acc.v4 ? (a & 15u) != 0 : (a & 3u) != 0;
    const bool outOfRange = static_cast<uint64_t>(a) + (acc.v4 ? 16 : 4) > size;
    if (!misaligned && !outOfRange) continue;
    res.fault = acc.shared ? (misaligned ? Fault::SharedAlign : Fault::SharedRange)
                           : (misaligned ? Fault::GlobalAlign : Fault::GlobalRange);
    res.faultLane = l;
    // v4 past the end: the first element that does not fit.
    res.faultAddr = (misaligned || a + 4ull > size) ? a : a + (static_cast<uint32_t>(size - a) & ~3u);
    return false;
  }
  return true;
}

SmLsu::Result SmLsu::execute(const Instruction& in, WarpRegs& regs) {
  Result res;
  const Access acc = accessOf(in.op);
  if (!acc.memory || !check(in, regs, res)) return res;
  if (acc.shared) executeShared(in, regs, res);
  else executeGlobal(in, regs, res);
  return res;
}

void SmLsu::executeGlobal(const Instruction& in, WarpRegs& regs, Result& res) {
  const Access acc = accessOf(in.op);
  // Operands as the unit reads them, before any of this instruction's loads write (the RTL
  // reads a group once, before its requests).
  const auto base = regs[in.ra];
  const auto opb = regs[in.rb];
  const auto opc = regs[in.sub];
  const uint32_t lineWords = cfg_.lineBytes / 4;
  const uint8_t amo = !acc.atom ? 0 : acc.cas ? 8 : static_cast<uint8_t>(in.sub + 1);
  auto addr = [&](int l) { return (in.immB ? 0u : base[static_cast<size_t>(l)]) + in.imm; };
  auto line = [&](int l) { return addr(l) & ~(cfg_.lineBytes - 1); };
  // Group by group (the RTL's lanes): one request per line of the group's threads; a v4
  // access's carries all four elements of its lanes (a load writes rd..rd+3, a store's data
  // is rb..rb+3: the RTL gathers them).
  const int elems = acc.v4 ? 4 : 1;
  auto word = [&](int l, int e) {
    const uint32_t w = acc.v4 ? ((addr(l) >> 2) & ~3u) | static_cast<uint32_t>(e) : addr(l) >> 2;
    return w & (lineWords - 1);
  };
  // A store's or atomic's word of element e (cas: the swap value).
  auto data = [&](int l, int e) {
    const auto& r = acc.v4 ? regs[static_cast<size_t>((in.rb + e) & 31)] : acc.cas ? opc : opb;
    return r[static_cast<size_t>(l)];
  };
  uint32_t left = in.exec;
  while (left) {
    uint32_t pend = left & groupOf(left);
    left &= ~pend;
    while (pend) {
      const int leader = lowest(pend);
      const uint32_t group = groupOf(pend);
      MemRequest rq;
      rq.write = acc.store;
      rq.amo = amo;
      rq.addr = line(leader);
      rq.wdata.assign(lineWords, 0);
      rq.cmp = opb[static_cast<size_t>(leader)];
      for (int l = leader; l < 32; ++l) {
        if (!((pend & group) >> l & 1u) || line(l) != rq.addr || (acc.atom && l != leader)) continue;
        rq.lanes |= 1u << l;
        for (int e = 0; e < elems; ++e) {
          rq.be |= 0xFull << (4 * word(l, e));
          rq.wdata[word(l, e)] = data(l, e);
        }
      }
      pend &= ~rq.lanes;
      // Performed in issue order.
      const uint32_t first = rq.addr / 4;
      for (int l = 0; l < 32; ++l) {
        if (!((rq.lanes >> l) & 1u)) continue;
        for (int e = 0; e < elems; ++e) {
          uint32_t& w = global_[first + word(l, e)];
          if (acc.store) {
            w = rq.wdata[word(l, e)];
            continue;
          }
          const uint32_t old = w;
          if (acc.atom) w = LineMemory::amoApply(amo, old, rq.wdata[word(l, e)], rq.cmp);
          const int reg = (in.rd + e) & 31;
          regs[static_cast<size_t>(reg)][static_cast<size_t>(l)] = old;
          res.writes.push_back({l, reg, old});
        }
      }
      res.requests.push_back(std::move(rq));
    }
  }
}

void SmLsu::executeShared(const Instruction& in, WarpRegs& regs, Result& res) {
  const Access acc = accessOf(in.op);
  const auto base = regs[in.ra];
  const auto opb = regs[in.rb];
  const auto opc = regs[in.sub];
  auto idx = [&](int l) { return ((in.immB ? 0u : base[static_cast<size_t>(l)]) + in.imm) >> 2; };
  auto bank = [&](int l) { return idx(l) % static_cast<uint32_t>(cfg_.sharedBanks); };
  if (acc.atom) {  // one lane at a time, ascending
    const uint8_t amo = acc.cas ? 8 : static_cast<uint8_t>(in.sub + 1);
    for (int l = 0; l < 32; ++l) {
      if (!((in.exec >> l) & 1u)) continue;
      uint32_t& w = shared_[index(in.cta, static_cast<int>(idx(l)))];
      const uint32_t old = w;
      w = LineMemory::amoApply(amo, old, acc.cas ? opc[static_cast<size_t>(l)] : opb[static_cast<size_t>(l)],
                               opb[static_cast<size_t>(l)]);
      regs[in.rd][static_cast<size_t>(l)] = old;
      res.writes.push_back({l, in.rd, old});
    }
    return;
  }
  uint32_t pend = in.exec;
  uint32_t lastGroup = 0;
  while (pend) {
    // Rounds within the group of the lowest waiting thread.
    const uint32_t group = groupOf(pend);
    const uint32_t wait = pend & group;
    if (group != lastGroup) ++res.sharedGroups;
    lastGroup = group;
    uint32_t served = 0;
    for (int l = 0; l < 32; ++l) {
      if (!((wait >> l) & 1u)) continue;
      bool conflict = false;
      for (int k = 0; k < l; ++k) conflict |= ((wait >> k) & 1u) && bank(k) == bank(l) && idx(k) != idx(l);
      if (!conflict) served |= 1u << l;
    }
    for (int l = 0; l < 32; ++l) {  // ascending: the highest lane's store to a word is last
      if (!((served >> l) & 1u)) continue;
      uint32_t& w = shared_[index(in.cta, static_cast<int>(idx(l)))];
      if (acc.store) {
        w = opb[static_cast<size_t>(l)];
      } else {
        regs[in.rd][static_cast<size_t>(l)] = w;
        res.writes.push_back({l, in.rd, w});
      }
    }
    pend &= ~served;
    ++res.sharedRounds;
  }
}

}  // namespace simt::model
