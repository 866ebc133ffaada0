#include "model/divergence/divergence_unit.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace simt::model {

const char* reasonName(Reason r) {
  static const char* const kNames[] = {"NONE", "SYNC", "DIV",     "CALL", "BRK",
                                       "CONT", "YIELD", "BARRIER", "EXIT"};
  return kNames[static_cast<int>(r)];
}

Reason reasonOf(TokenType t) {
  switch (t) {
    case TokenType::Sync: return Reason::Sync;
    case TokenType::Div: return Reason::Div;
    case TokenType::Call: return Reason::Call;
    case TokenType::Brk: return Reason::Brk;
    case TokenType::Cont: return Reason::Cont;
    case TokenType::Yield: return Reason::Yield;
    case TokenType::Barrier: return Reason::Barrier;
    default: return Reason::None;
  }
}

TokenType tokenOf(Reason r) {
  switch (r) {
    case Reason::Sync: return TokenType::Sync;
    case Reason::Div: return TokenType::Div;
    case Reason::Call: return TokenType::Call;
    case Reason::Brk: return TokenType::Brk;
    case Reason::Cont: return TokenType::Cont;
    case Reason::Yield: return TokenType::Yield;
    case Reason::Barrier: return TokenType::Barrier;
    default: return TokenType::None;
  }
}

namespace {
int lowestBit(uint64_t m) { return __builtin_ctzll(m); }
}  // namespace

DivergenceUnit::DivergenceUnit(const Config& cfg)
    : cfg_(cfg),
      allMask_(cfg.warpSize >= 64 ? ~0ull : ((1ull << cfg.warpSize) - 1)),
      warps_(static_cast<size_t>(cfg.numWarps)),
      queue_(TokenDeque::Config{cfg.numWarps, cfg.queueDepth, cfg.warpSize > 32 ? 128 : 64}),
      lfsr_(cfg.lfsrSeed ? cfg.lfsrSeed : 1) {
  if (cfg.warpSize != 32 && cfg.warpSize != 64) {
    throw std::invalid_argument("DivergenceUnit: warp size 32 or 64");
  }
  for (int i = 0; i < cfg.numWarps; ++i) launch(i, 0, 0);
}

void DivergenceUnit::launch(int warp, uint64_t mask, uint32_t pc) {
  if (queue_.count(warp) != 0) throw std::logic_error("DivergenceUnit::launch: queue not empty");
  Warp& wp = w(warp);
  wp.pc = pc;
  wp.active = mask & allMask_;
  wp.yieldCount = 0;
  for (int t = 0; t < 64; ++t) {
    wp.reason[static_cast<size_t>(t)] = ((wp.active >> t) & 1u) ? Reason::None : Reason::Exit;
  }
}

uint64_t DivergenceUnit::threadsWithReason(int warp, Reason r) const {
  uint64_t m = 0;
  for (int t = 0; t < cfg_.warpSize; ++t) {
    if (w(warp).reason[static_cast<size_t>(t)] == r) m |= 1ull << t;
  }
  return m;
}

uint64_t DivergenceUnit::covered(int warp, TokenType type) const {
  // The type summary answers "none of this type" in one lookup; otherwise OR the masks of
  // the tokens of the type (the RTL scans them from the front).
  if ((queue_.types(warp) & summaryBit(type)) == 0 && summaryBit(type) != 0) return 0;
  uint64_t m = 0;
  for (const Token& t : queue_.entries(warp)) {
    if (t.type == type) m |= t.mask;
  }
  return m;
}

void DivergenceUnit::disable(int warp, uint64_t mask, Reason r) {
  Warp& wp = w(warp);
  for (int t = 0; t < cfg_.warpSize; ++t) {
    if ((mask >> t) & 1u) wp.reason[static_cast<size_t>(t)] = r;
  }
  wp.active &= ~mask;
}

bool DivergenceUnit::push(int warp, TokenDeque::End end, Token t, CtrlResult& res) {
  if (cfg_.mode == DivergenceMode::Stack) end = TokenDeque::End::Front;
  auto r = queue_.push(warp, end, t);
  if (r == TokenDeque::PushResult::Overflow) {
    // The exception goes to the runtime, which re-centres the entries; then the push is
    // replayed. A full queue cannot be re-centred: an unrecoverable overflow (a fault).
    ++res.overflows;
    if (!queue_.recentre(warp)) {
      res.ok = false;
      return false;
    }
    r = queue_.push(warp, end, t);
  }
  if (r != TokenDeque::PushResult::Accepted) {
    res.ok = false;
    return false;
  }
  ++res.pushes;
  res.pushedTypes |= static_cast<uint16_t>(1u << static_cast<unsigned>(t.type));
  return true;
}

void DivergenceUnit::continueWith(int warp, std::vector<Group> groups, CtrlResult& res) {
  Warp& wp = w(warp);
  // Merge groups going to the same PC and drop empty ones.
  std::vector<Group> merged;
  for (const Group& g : groups) {
    if (g.mask == 0) continue;
    auto it = std::find_if(merged.begin(), merged.end(),
                           [&](const Group& m) { return m.pc == g.pc; });
    if (it != merged.end()) it->mask |= g.mask;
    else merged.push_back(g);
  }
  if (merged.empty()) {
    wp.active = 0;
    popLoop(warp, res);
    return;
  }
  // The group holding the lowest thread runs; the others wait in DIV tokens, pushed in
  // ascending order of their lowest thread (so the highest pops next). The RTL forms the
  // groups in that order, one per cycle.
  std::sort(merged.begin(), merged.end(),
            [](const Group& a, const Group& b) { return lowestBit(a.mask) < lowestBit(b.mask); });
  for (size_t i = 1; i < merged.size(); ++i) {
    disable(warp, merged[i].mask, Reason::Div);
    Token t;
    t.type = TokenType::Div;
    t.mask = merged[i].mask;
    t.addr = merged[i].pc;
    if (!push(warp, TokenDeque::End::Front, t, res)) return;
  }
  wp.active = merged[0].mask;
  for (int t = 0; t < cfg_.warpSize; ++t) {
    if ((wp.active >> t) & 1u) wp.reason[static_cast<size_t>(t)] = Reason::None;
  }
  wp.pc = merged[0].pc;
}

void DivergenceUnit::popLoop(int warp, CtrlResult& res) {
  Warp& wp = w(warp);
  while (wp.active == 0 && queue_.count(warp) > 0) {
    const Token t = *queue_.pop(warp);
    const uint64_t wake = t.mask & threadsWithReason(warp, reasonOf(t.type));
    const auto bit = static_cast<uint16_t>(1u << static_cast<unsigned>(t.type));
    if (wake == 0) {
      ++res.discards;  // none of its threads waits for this reason any more
      res.discardedTypes |= bit;
      continue;
    }
    ++res.pops;
    res.poppedTypes |= bit;
    for (int i = 0; i < cfg_.warpSize; ++i) {
      if ((wake >> i) & 1u) wp.reason[static_cast<size_t>(i)] = Reason::None;
    }
    wp.active = wake;
    wp.pc = t.addr;
  }
}

bool DivergenceUnit::yieldNow(Warp& wp, const CtrlInstr& ins) {
  if (cfg_.mode == DivergenceMode::Stack) return false;  // the baseline ignores yield
  if (ins.yieldRandom) {
    // 16-bit Galois LFSR (x^16 + x^14 + x^13 + x^11 + 1): yield when the low 4 bits are 0.
    const bool lsb = lfsr_ & 1u;
    lfsr_ = static_cast<uint16_t>(lfsr_ >> 1);
    if (lsb) lfsr_ ^= 0xB400u;
    return (lfsr_ & 0xFu) == 0;
  }
  if (ins.yieldEvery <= 1) return true;
  if (++wp.yieldCount >= static_cast<uint32_t>(ins.yieldEvery)) {
    wp.yieldCount = 0;
    return true;
  }
  return false;
}

CtrlResult DivergenceUnit::execute(int warp, const CtrlInstr& ins) {
  CtrlResult res;
  Warp& wp = w(warp);
  if (wp.active == 0) throw std::logic_error("DivergenceUnit::execute on a warp with no active threads");
  const uint64_t a = wp.active;
  const uint64_t g = a & ins.guard;  // the threads the instruction applies to
  const uint64_t rest = a & ~ins.guard;
  const uint32_t next = wp.pc + 1;
  auto token = [](TokenType type, uint64_t mask, uint32_t addr) {
    Token t;
    t.type = type;
    t.mask = mask;
    t.addr = addr;
    return t;
  };
  auto perThreadGroups = [&](uint64_t mask) {
    std::vector<Group> gs;
    for (int t = 0; t < cfg_.warpSize; ++t) {
      if ((mask >> t) & 1u) gs.push_back({1ull << t, ins.threadTarget.at(static_cast<size_t>(t))});
    }
    return gs;
  };

  switch (ins.op) {
    case CtrlOp::Next:
      continueWith(warp, {{a, next}}, res);
      break;
    case CtrlOp::Ssy:
    case CtrlOp::Pbrk:
    case CtrlOp::Pcont: {
      const TokenType type = ins.op == CtrlOp::Ssy    ? TokenType::Sync
                             : ins.op == CtrlOp::Pbrk ? TokenType::Brk
                                                      : TokenType::Cont;
      if (g && !push(warp, TokenDeque::End::Front, token(type, g, ins.target), res)) break;
      continueWith(warp, {{a, next}}, res);
      break;
    }
    case CtrlOp::Sync:
    case CtrlOp::Brk:
    case CtrlOp::Cont: {
      const Reason r = ins.op == CtrlOp::Sync ? Reason::Sync
                       : ins.op == CtrlOp::Brk ? Reason::Brk
                                               : Reason::Cont;
      const uint64_t cov = covered(warp, tokenOf(r));
      disable(warp, g & cov, r);  // covered threads wait for their token
      const uint64_t uncovered = g & ~cov;
      std::vector<Group> gs = {{rest, next}};
      if (uncovered && ins.hasTarget) {
        gs.push_back({uncovered, ins.target});  // seed 002's fallback address
        res.fellBack = true;
      } else {
        disable(warp, uncovered, r);  // no token will come: stranded (deadlock report)
      }
      continueWith(warp, gs, res);
      break;
    }
    case CtrlOp::Bra:
    case CtrlOp::Jmp:
      continueWith(warp, {{g, ins.target}, {rest, next}}, res);
      break;
    case CtrlOp::Brx:
    case CtrlOp::Jmx: {
      std::vector<Group> gs = perThreadGroups(g);
      gs.push_back({rest, next});
      continueWith(warp, gs, res);
      break;
    }
    case CtrlOp::Cal:
      if (g) {
        if (!push(warp, TokenDeque::End::Front, token(TokenType::Call, g, next), res)) break;
        res.linkMask = g;
        res.linkValue = next;
      }
      continueWith(warp, {{g, ins.target}, {rest, next}}, res);
      break;
    case CtrlOp::Ret: {
      const uint64_t cov = covered(warp, TokenType::Call);
      disable(warp, g & cov, Reason::Call);
      std::vector<Group> gs = perThreadGroups(g & ~cov);  // uncovered: jump to own r31
      gs.push_back({rest, next});
      continueWith(warp, gs, res);
      break;
    }
    case CtrlOp::Exit:
      disable(warp, g, Reason::Exit);
      continueWith(warp, {{rest, next}}, res);
      break;
    case CtrlOp::Yield:
      if (g && yieldNow(wp, ins)) {
        disable(warp, g, Reason::Yield);
        if (queue_.mergeMask(warp, TokenType::Yield, next, g)) {
          ++res.merges;
        } else if (!push(warp, TokenDeque::End::Back, token(TokenType::Yield, g, next), res)) {
          break;
        }
        continueWith(warp, {{rest, next}}, res);
      } else {
        continueWith(warp, {{a, next}}, res);
      }
      break;
  }
  return res;
}

CtrlResult DivergenceUnit::barrierSleep(int warp, uint64_t participants) {
  CtrlResult res;
  Warp& wp = w(warp);
  const uint64_t p = participants & wp.active;
  const uint64_t rest = wp.active & ~p;
  disable(warp, p, Reason::Barrier);
  continueWith(warp, {{rest, wp.pc + 1}}, res);
  return res;
}

CtrlResult DivergenceUnit::barrierWake(int warp, uint64_t mask, uint32_t resume) {
  CtrlResult res;
  Token t;
  t.type = TokenType::Barrier;
  t.mask = mask & threadsWithReason(warp, Reason::Barrier);
  t.addr = resume;
  if (t.mask == 0) return res;
  if (!push(warp, TokenDeque::End::Front, t, res)) return res;
  if (w(warp).active == 0) popLoop(warp, res);
  return res;
}

uint64_t DivergenceUnit::strandedThreads(int warp) const {
  uint64_t stranded = 0;
  for (int t = 0; t < cfg_.warpSize; ++t) {
    const Reason r = w(warp).reason[static_cast<size_t>(t)];
    if (r == Reason::None || r == Reason::Exit || r == Reason::Barrier) continue;
    bool hasToken = false;
    for (const Token& tok : queue_.entries(warp)) {
      if (tok.type == tokenOf(r) && ((tok.mask >> t) & 1u)) hasToken = true;
    }
    if (!hasToken) stranded |= 1ull << t;
  }
  return stranded;
}

WarpStatus DivergenceUnit::status(int warp) const {
  if (w(warp).active != 0) return WarpStatus::Running;
  if (strandedThreads(warp) != 0) return WarpStatus::Stranded;
  if (threadsWithReason(warp, Reason::Barrier) != 0) return WarpStatus::WaitingBarrier;
  if (queue_.count(warp) != 0) return WarpStatus::Stranded;  // tokens nobody can pop
  return WarpStatus::Done;
}

std::string DivergenceUnit::describe(int warp) const {
  std::ostringstream os;
  os << "warp " << warp << " pc=" << pc(warp) << " active=0x" << std::hex << active(warp)
     << std::dec << " queue=[";
  for (const Token& t : queue_.entries(warp)) os << t.str() << " ";
  os << "]";
  for (int r = 1; r <= static_cast<int>(Reason::Exit); ++r) {
    const uint64_t m = threadsWithReason(warp, static_cast<Reason>(r));
    if (m) os << " " << reasonName(static_cast<Reason>(r)) << "=0x" << std::hex << m << std::dec;
  }
  return os.str();
}

}  // namespace simt::model
