#include "compiler/range_expr.h"

#include <algorithm>
#include <cctype>

namespace simt::compiler {

namespace {

using Op = RangeExpr::Op;

struct Name {
  Op op;
  const char* text;
};
// Leaves with a dimension (gid0), then operators.
constexpr Name kLeaves[] = {{Op::GlobalId, "gid"}, {Op::LocalId, "lid"}, {Op::GroupId, "grp"},
                            {Op::GlobalSize, "gsz"}, {Op::LocalSize, "lsz"}, {Op::NumGroups, "ngr"},
                            {Op::GlobalOffset, "goff"}};
constexpr Name kOps[] = {{Op::Add, "+"}, {Op::Mul, "*"}, {Op::UDiv, "/u"}, {Op::SMax, "smax"},
                         {Op::SMin, "smin"}, {Op::UMax, "umax"}, {Op::UMin, "umin"},
                         {Op::ZExt, "zext"}, {Op::SExt, "sext"}, {Op::Trunc, "trunc"},
                         {Op::Rec, "rec"}};

// Magnitudes beyond this are not followed (they mean an expression the launch cannot reach).
constexpr __int128 kLimit = static_cast<__int128>(1) << 100;

__int128 pow2(int w) { return static_cast<__int128>(1) << w; }

Interval checked(__int128 lo, __int128 hi) {
  if (lo < -kLimit || hi > kLimit) return Interval::unknown();
  return Interval::of(lo, hi);
}

// Shifts [lo, hi] by a multiple of 2^w into [base, base + 2^w), if it fits there whole.
Interval normalise(Interval iv, int w, __int128 base) {
  if (!iv.known || iv.hi - iv.lo >= pow2(w)) return Interval::unknown();
  const __int128 m = pow2(w);
  __int128 k = (iv.lo - base) / m;
  if ((iv.lo - base) % m < 0) --k;  // floor division
  const __int128 lo = iv.lo - k * m, hi = iv.hi - k * m;
  if (hi >= base + m) return Interval::unknown();
  return Interval::of(lo, hi);
}

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}
  RangeExpr parseAll() {
    RangeExpr e = parseOne();
    skip();
    if (p_ != s_.size()) fail("trailing text");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("range expression '" + s_ + "': " + what + " at offset " + std::to_string(p_));
  }
  void skip() {
    while (p_ < s_.size() && s_[p_] == ' ') ++p_;
  }
  std::string token() {
    skip();
    const size_t b = p_;
    while (p_ < s_.size() && s_[p_] != ' ' && s_[p_] != '(' && s_[p_] != ')') ++p_;
    if (b == p_) fail("expected a term");
    return s_.substr(b, p_ - b);
  }
  static int64_t number(const std::string& t, bool& ok) {
    ok = !t.empty();
    size_t i = t[0] == '-' ? 1 : 0;
    ok &= i < t.size();
    int64_t v = 0;
    for (; ok && i < t.size(); ++i) {
      ok = std::isdigit(static_cast<unsigned char>(t[i])) && v < (int64_t{1} << 58);
      v = v * 10 + (t[i] - '0');
    }
    return t[0] == '-' ? -v : v;
  }
  // "name:W" -> name, width
  std::string splitWidth(const std::string& t, int& width) {
    width = 32;
    const auto c = t.find(':');
    if (c == std::string::npos) return t;
    bool ok = false;
    const int64_t w = number(t.substr(c + 1), ok);
    if (!ok || w < 1 || w > 64) fail("bad width in '" + t + "'");
    width = static_cast<int>(w);
    return t.substr(0, c);
  }
  RangeExpr parseOne() {
    skip();
    if (p_ < s_.size() && s_[p_] == '(') {
      ++p_;
      int width = 32;
      const std::string name = splitWidth(token(), width);
      const Name* n = std::find_if(std::begin(kOps), std::end(kOps), [&](const Name& k) { return name == k.text; });
      if (n == std::end(kOps)) fail("unknown operator '" + name + "'");
      std::vector<RangeExpr> ops;
      for (skip(); p_ < s_.size() && s_[p_] != ')'; skip()) ops.push_back(parseOne());
      if (p_ >= s_.size()) fail("missing ')'");
      ++p_;
      const size_t want = n->op == Op::Rec ? 3 : n->op == Op::UDiv ? 2 : (n->op == Op::ZExt || n->op == Op::SExt ||
                                                                           n->op == Op::Trunc) ? 1 : 0;
      if (want ? ops.size() != want : ops.size() < 2) fail("wrong number of operands of '" + name + "'");
      return RangeExpr::node(n->op, std::move(ops), width);
    }
    int width = 32;
    const std::string t = splitWidth(token(), width);
    bool ok = false;
    const int64_t v = number(t, ok);
    if (ok) return RangeExpr::constant(v, width);
    if (t == "dim") return RangeExpr::leaf(Op::WorkDim, 0, width);
    if (t.size() >= 2 && t[0] == 'a') {
      const int64_t i = number(t.substr(1), ok);
      if (ok && i >= 0) return RangeExpr::leaf(Op::Arg, i, width);
    }
    for (const Name& l : kLeaves) {
      const std::string pre = l.text;
      if (t.size() == pre.size() + 1 && t.compare(0, pre.size(), pre) == 0 && t.back() >= '0' && t.back() <= '2') {
        return RangeExpr::leaf(l.op, t.back() - '0', width);
      }
    }
    fail("unknown term '" + t + "'");
  }
  const std::string& s_;
  size_t p_ = 0;
};

Interval ids(const std::array<Interval, 3>& v, int64_t d) {
  return d >= 0 && d < 3 ? v[static_cast<size_t>(d)] : Interval::unknown();
}
Interval word(uint32_t v) { return Interval::exact(v); }

}  // namespace

RangeExpr RangeExpr::constant(int64_t v, int width) {
  RangeExpr e;
  e.op = Op::Const;
  e.value = v;
  e.width = width;
  return e;
}

RangeExpr RangeExpr::leaf(Op op, int64_t index, int width) {
  RangeExpr e;
  e.op = op;
  e.value = index;
  e.width = width;
  return e;
}

RangeExpr RangeExpr::node(Op op, std::vector<RangeExpr> operands, int width) {
  RangeExpr e;
  e.op = op;
  e.ops = std::move(operands);
  e.width = width;
  return e;
}

std::string RangeExpr::print() const {
  const std::string w = width == 32 ? "" : ":" + std::to_string(width);
  switch (op) {
    case Op::Const: return std::to_string(value) + w;
    case Op::Arg: return "a" + std::to_string(value) + w;
    case Op::WorkDim: return "dim" + w;
    default: break;
  }
  for (const Name& l : kLeaves) {
    if (l.op == op) return l.text + std::to_string(value) + w;
  }
  std::string s = "(";
  for (const Name& n : kOps) {
    if (n.op == op) s += n.text;
  }
  s += w;
  for (const auto& o : ops) s += " " + o.print();
  return s + ")";
}

RangeExpr RangeExpr::parse(const std::string& text) { return Parser(text).parseAll(); }

bool RangeExpr::usesWorkItemIds() const { return maxIdDimension() >= 0; }

int RangeExpr::maxIdDimension() const {
  int d = -1;
  if (op == Op::GlobalId || op == Op::LocalId || op == Op::GroupId) d = static_cast<int>(value);
  for (const auto& o : ops) d = std::max(d, o.maxIdDimension());
  return d;
}

Interval asUnsigned(Interval iv, int width) { return normalise(iv, width, 0); }
Interval asSigned(Interval iv, int width) { return normalise(iv, width, -pow2(width - 1)); }

Interval evaluate(const RangeExpr& e, const LaunchValues& v) {
  const size_t d = static_cast<size_t>(std::clamp<int64_t>(e.value, 0, 2));
  switch (e.op) {
    case Op::Const: return Interval::exact(e.value);
    case Op::Arg:
      if (e.value < 0 || static_cast<size_t>(e.value) >= v.args.size()) return Interval::unknown();
      return asSigned(word(v.args[static_cast<size_t>(e.value)]), e.width);
    case Op::GlobalId: return ids(v.globalId, e.value);
    case Op::LocalId: return ids(v.localId, e.value);
    case Op::GroupId: return ids(v.groupId, e.value);
    case Op::GlobalSize: return word(v.globalSize[d]);
    case Op::LocalSize: return word(v.localSize[d]);
    case Op::NumGroups: return word(v.numGroups[d]);
    case Op::GlobalOffset: return word(v.globalOffset[d]);
    case Op::WorkDim: return word(v.workDim);
    default: break;
  }
  std::vector<Interval> in;
  for (const auto& o : e.ops) {
    in.push_back(evaluate(o, v));
    if (!in.back().known) return Interval::unknown();
  }
  const int w = e.width;
  // Operands of a comparison or a conversion as the representatives the operation means.
  auto all = [&](Interval (*conv)(Interval, int), int width) {
    for (auto& i : in) {
      i = conv(i, width);
      if (!i.known) return false;
    }
    return true;
  };
  switch (e.op) {
    case Op::Add: {
      Interval r = in[0];
      for (size_t i = 1; i < in.size() && r.known; ++i) r = checked(r.lo + in[i].lo, r.hi + in[i].hi);
      return r;
    }
    case Op::Mul: {
      Interval r = in[0];
      for (size_t i = 1; i < in.size() && r.known; ++i) {
        if (std::max(-r.lo, r.hi) > (__int128{1} << 60) || std::max(-in[i].lo, in[i].hi) > (__int128{1} << 60)) {
          return Interval::unknown();
        }
        const __int128 c[4] = {r.lo * in[i].lo, r.lo * in[i].hi, r.hi * in[i].lo, r.hi * in[i].hi};
        r = checked(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
      }
      return r;
    }
    case Op::UDiv:
      if (!all(asUnsigned, w) || in[1].lo == 0) return Interval::unknown();  // x/0: no bound
      return Interval::of(in[0].lo / in[1].hi, in[0].hi / in[1].lo);
    case Op::SMax:
    case Op::SMin:
    case Op::UMax:
    case Op::UMin: {
      const bool isSigned = e.op == Op::SMax || e.op == Op::SMin;
      if (!all(isSigned ? asSigned : asUnsigned, w)) return Interval::unknown();
      const bool isMax = e.op == Op::SMax || e.op == Op::UMax;
      Interval r = in[0];
      for (size_t i = 1; i < in.size(); ++i) {
        r = isMax ? Interval::of(std::max(r.lo, in[i].lo), std::max(r.hi, in[i].hi))
                  : Interval::of(std::min(r.lo, in[i].lo), std::min(r.hi, in[i].hi));
      }
      return r;
    }
    case Op::ZExt: return asUnsigned(in[0], e.ops[0].width);
    case Op::SExt: return asSigned(in[0], e.ops[0].width);
    case Op::Trunc: return in[0];  // a representative modulo 2^from is one modulo 2^to
    case Op::Rec: {
      const Interval btc = asUnsigned(in[2], e.ops[2].width);
      if (!btc.known) return Interval::unknown();
      // START + STEP * k, k in [0, btc.hi]
      if (btc.hi > (__int128{1} << 60) || std::max(-in[1].lo, in[1].hi) > (__int128{1} << 60)) {
        return Interval::unknown();
      }
      const __int128 c[2] = {in[1].lo * btc.hi, in[1].hi * btc.hi};
      const __int128 lo = std::min<__int128>({0, c[0], c[1]}), hi = std::max<__int128>({0, c[0], c[1]});
      return checked(in[0].lo + lo, in[0].hi + hi);
    }
    default: return Interval::unknown();
  }
}

}  // namespace simt::compiler
