#include "asm/assembler.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "asm/isa.h"

namespace simt::assembler {

using isa::Instr;
using isa::Op;

namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string stripComment(const std::string& line) {
  size_t cut = line.size();
  for (const char* m : {";", "//", "#"}) cut = std::min(cut, line.find(m));
  return line.substr(0, cut);
}

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}
bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), isIdentChar);
}

std::vector<std::string> splitOperands(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
  return out;
}

// One source line after label extraction.
struct Line {
  int number = 0;
  std::string text;                 // original text (for the listing)
  std::vector<std::string> labels;  // labels defined on this line
  std::string body;                 // directive or instruction, comment stripped
};

class Assembler {
 public:
  Assembler(const std::string& source, const std::string& file) : file_(file) {
    k_.file = file;
    std::istringstream in(source);
    std::string raw;
    int n = 0;
    while (std::getline(in, raw)) {
      ++n;
      Line l;
      l.number = n;
      l.text = trim(raw);
      std::string s = trim(stripComment(raw));
      // Leading labels: name:
      for (;;) {
        size_t i = 0;
        while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' ||
                                s[i] == '$' || s[i] == '.')) {
          ++i;
        }
        if (i > 0 && i < s.size() && s[i] == ':' && s[0] != '.') {
          l.labels.push_back(s.substr(0, i));
          s = trim(s.substr(i + 1));
        } else {
          break;
        }
      }
      l.body = s;
      lines_.push_back(l);
    }
  }

  Kernel run() {
    pass1();
    pass2();
    return k_;
  }

 private:
  [[noreturn]] void fail(int line, const std::string& msg) const { throw AsmError(file_, line, msg); }

  // ---- pass 1: sections, labels, sizes ------------------------------------------------
  void pass1() {
    bool text = true;
    uint32_t pc = 0, dataBytes = 0;
    for (const Line& l : lines_) {
      cur_ = l.number;
      const std::string body = l.body;
      const std::string head = lower(firstWord(body));
      if (head == ".data") text = false;
      if (head == ".text") text = true;
      for (const std::string& lab : l.labels) {
        if (!isIdentifier(lab)) fail(l.number, "bad label name '" + lab + "'");
        if (labelsSeen_.count(lab)) fail(l.number, "duplicate label '" + lab + "'");
        labelsSeen_.insert(lab);
        if (text) {
          k_.codeLabels[lab] = pc;
        } else {
          DataLabel d;
          d.byteAddr = dataBytes;
          k_.dataLabels[lab] = d;
          if (!labelsOnThisAddr(dataBytes)) pendingData_.clear();
          pendingData_.push_back(lab);
        }
      }
      if (body.empty()) continue;
      if (body[0] == '.') {
        if (head == ".word" || head == ".float" || head == ".zero") {
          if (text) fail(l.number, "data directive '" + head + "' outside .data");
          uint32_t bytes = 0;
          if (head == ".word" || head == ".float") {
            bytes = 4 * static_cast<uint32_t>(splitOperands(rest(body)).size());
            if (bytes == 0) fail(l.number, head + " needs at least one value");
          } else {
            const int64_t n = parseNumber(rest(body), l.number, ".zero size");
            if (n < 0 || n % 4 != 0) fail(l.number, ".zero size must be a non-negative multiple of 4");
            bytes = static_cast<uint32_t>(n);
          }
          // A label covers its data up to the next label.
          for (const std::string& lab : pendingData_) k_.dataLabels[lab].words += bytes / 4;
          dataBytes += bytes;
        }
        continue;
      }
      if (!text) fail(l.number, "instruction in the .data section");
      ++pc;
    }
    dataWords_ = dataBytes / 4;
  }

  bool labelsOnThisAddr(uint32_t addr) const {
    return !pendingData_.empty() && k_.dataLabels.at(pendingData_.back()).byteAddr == addr;
  }

  // ---- pass 2: directives and instructions --------------------------------------------
  void pass2() {
    bool text = true;
    k_.data.assign(dataWords_, 0);
    uint32_t dataWord = 0;
    for (const Line& l : lines_) {
      cur_ = l.number;
      if (l.body.empty()) continue;
      const std::string head = lower(firstWord(l.body));
      if (l.body[0] == '.') {
        directive(l, head, text, dataWord);
        continue;
      }
      Instr in = instruction(l.body);
      k_.code.push_back(in.encode());
      k_.codeLine.push_back(l.number);
      k_.codeSource.push_back(l.body);
    }
    if (k_.code.empty()) fail(static_cast<int>(lines_.size()), "no instructions in .text");
  }

  void directive(const Line& l, const std::string& head, bool& text, uint32_t& dataWord) {
    const std::string args = rest(l.body);
    if (head == ".text") {
      text = true;
    } else if (head == ".data") {
      text = false;
    } else if (head == ".kernel") {
      if (!isIdentifier(args)) fail(l.number, ".kernel needs a name");
      k_.name = args;
    } else if (head == ".launch") {
      std::istringstream is(args);
      std::string kv;
      bool any = false;
      while (is >> kv) {
        const size_t eq = kv.find('=');
        if (eq == std::string::npos) fail(l.number, "bad .launch argument '" + kv + "' (ctas=N threads=N)");
        const std::string key = lower(kv.substr(0, eq));
        const int64_t v = parseNumber(kv.substr(eq + 1), l.number, key);
        if (v < 1 || v > 1 << 20) fail(l.number, ".launch " + key + " out of range");
        if (key == "ctas") k_.ctas = static_cast<int>(v);
        else if (key == "threads") k_.threads = static_cast<int>(v);
        else fail(l.number, "unknown .launch argument '" + key + "'");
        any = true;
      }
      if (!any) fail(l.number, ".launch needs ctas=N and/or threads=N");
      k_.launchGiven = true;
    } else if (head == ".shared") {
      const int64_t n = parseNumber(args, l.number, ".shared size");
      if (n < 0 || n > (1 << 24)) fail(l.number, ".shared size out of range");
      k_.sharedBytes = static_cast<uint32_t>(n);
    } else if (head == ".param") {
      for (const std::string& v : splitOperands(args)) {
        if (v.empty()) fail(l.number, "empty .param value");
        k_.params.push_back(value32(v, l.number));
      }
    } else if (head == ".word") {
      for (const std::string& v : splitOperands(args)) {
        if (v.empty()) fail(l.number, "empty .word value");
        k_.data.at(dataWord++) = value32(v, l.number);
      }
    } else if (head == ".float") {
      for (const std::string& v : splitOperands(args)) {
        if (v.empty()) fail(l.number, "empty .float value");
        k_.data.at(dataWord++) = floatImm(v);
      }
    } else if (head == ".zero") {
      dataWord += static_cast<uint32_t>(parseNumber(args, l.number, ".zero size") / 4);
    } else {
      fail(l.number, "unknown directive '" + head + "'");
    }
    (void)text;
  }

  // ---- operands --------------------------------------------------------------------------
  static std::string firstWord(const std::string& s) {
    size_t i = 0;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(0, i);
  }
  static std::string rest(const std::string& s) {
    size_t i = 0;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return trim(s.substr(i));
  }

  int64_t parseNumber(const std::string& tok, int line, const std::string& what) const {
    const std::string s = trim(tok);
    if (s.empty()) fail(line, "missing " + what);
    size_t i = 0;
    bool neg = false;
    if (s[0] == '-' || s[0] == '+') {
      neg = s[0] == '-';
      i = 1;
    }
    int base = 10;
    if (s.size() > i + 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
      base = 16;
      i += 2;
    }
    if (i >= s.size()) fail(line, "bad number '" + s + "'");
    int64_t v = 0;
    for (; i < s.size(); ++i) {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
      int d;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
      else fail(line, "bad number '" + s + "'");
      v = v * base + d;
      if (v > (int64_t{1} << 40)) fail(line, "immediate out of range: '" + s + "'");
    }
    return neg ? -v : v;
  }

  bool isNumber(const std::string& s) const {
    const std::string t = trim(s);
    if (t.empty()) return false;
    const size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
    return i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]));
  }

  // A label's value: data labels are byte addresses, code labels instruction indices.
  std::optional<int64_t> labelValue(const std::string& name) const {
    if (auto it = k_.dataLabels.find(name); it != k_.dataLabels.end()) return it->second.byteAddr;
    if (auto it = k_.codeLabels.find(name); it != k_.codeLabels.end()) return it->second;
    return std::nullopt;
  }

  // number | label | label+number | label-number
  int64_t expr(const std::string& tok, int line) const {
    const std::string s = trim(tok);
    if (isNumber(s)) return parseNumber(s, line, "immediate");
    size_t op = s.find_first_of("+-", 1);
    const std::string name = trim(s.substr(0, op));
    if (!isIdentifier(name)) fail(line, "bad operand '" + s + "'");
    auto v = labelValue(name);
    if (!v) fail(line, "undefined label '" + name + "'");
    if (op == std::string::npos) return *v;
    const int64_t off = parseNumber(s.substr(op + 1), line, "offset");
    return s[op] == '+' ? *v + off : *v - off;
  }

  uint32_t value32(const std::string& tok, int line) const {
    const int64_t v = expr(tok, line);
    if (v < -(int64_t{1} << 31) || v > 0xFFFFFFFFll) {
      fail(line, "immediate out of range (32 bits): '" + trim(tok) + "'");
    }
    return static_cast<uint32_t>(v);
  }

  uint8_t regOf(const std::string& tok) const {
    const std::string s = lower(trim(tok));
    if (s.size() < 2 || s[0] != 'r' || !std::all_of(s.begin() + 1, s.end(), ::isdigit)) {
      fail(cur_, "expected a register r0..r31, got '" + trim(tok) + "'");
    }
    const int n = std::stoi(s.substr(1));
    if (n > 31) fail(cur_, "register out of range: '" + trim(tok) + "'");
    return static_cast<uint8_t>(n);
  }
  bool looksLikeReg(const std::string& tok) const {
    const std::string s = lower(trim(tok));
    return s.size() >= 2 && s[0] == 'r' && std::all_of(s.begin() + 1, s.end(), ::isdigit);
  }
  uint8_t predOf(const std::string& tok, bool allowPt = true) const {
    const std::string s = lower(trim(tok));
    if (s == "pt" && allowPt) return isa::kPt;
    if (s.size() == 2 && s[0] == 'p' && s[1] >= '0' && s[1] <= '6') return static_cast<uint8_t>(s[1] - '0');
    fail(cur_, "expected a predicate p0..p6" + std::string(allowPt ? " or pt" : "") + ", got '" +
                   trim(tok) + "'");
  }

  // [rA], [rA+imm], [rA-imm], [imm]
  void memOperand(const std::string& tok, Instr& in) const {
    const std::string s = trim(tok);
    if (s.size() < 3 || s.front() != '[' || s.back() != ']') {
      fail(cur_, "expected a memory operand [rA+imm], got '" + s + "'");
    }
    const std::string inner = trim(s.substr(1, s.size() - 2));
    size_t op = inner.find_first_of("+-", 1);
    const std::string base = trim(inner.substr(0, op));
    if (looksLikeReg(base)) {
      in.ra = regOf(base);
      in.immB = false;
      if (op == std::string::npos) {
        in.imm = 0;
      } else {
        const int64_t off = expr(inner.substr(op + 1), cur_);
        const int64_t v = inner[op] == '+' ? off : -off;
        if (v < -(int64_t{1} << 31) || v > 0x7FFFFFFFll) fail(cur_, "memory offset out of range");
        in.imm = static_cast<uint32_t>(v);
      }
    } else {
      in.immB = true;
      in.imm = value32(inner, cur_);
    }
  }

  void expectCount(const std::vector<std::string>& ops, size_t n, const std::string& mnem) const {
    if (ops.size() != n) {
      fail(cur_, "'" + mnem + "' takes " + std::to_string(n) + " operand" + (n == 1 ? "" : "s") +
                     ", got " + std::to_string(ops.size()));
    }
  }

  void srcB(const std::string& tok, Instr& in) const {
    if (looksLikeReg(tok)) {
      in.rb = regOf(tok);
      in.immB = false;
    } else {
      in.immB = true;
      in.imm = value32(tok, cur_);
    }
  }

  // A float immediate (docs/isa.md): a decimal number (integers too: `2` is 2.0), `inf`,
  // `-inf`, `nan` (the canonical 0x7fc00000), or `0x` and up to 8 hex digits: the binary32
  // bits themselves.
  uint32_t floatImm(const std::string& tok) const {
    const std::string s = lower(trim(tok));
    if (s.empty()) fail(cur_, "missing float immediate");
    if (s == "inf" || s == "+inf") return 0x7F800000u;
    if (s == "-inf") return 0xFF800000u;
    if (s == "nan" || s == "+nan") return 0x7FC00000u;
    if (s.size() > 2 && s[0] == '0' && s[1] == 'x') {
      if (s.size() > 10 || !std::all_of(s.begin() + 2, s.end(), ::isxdigit)) {
        fail(cur_, "bad float immediate '" + trim(tok) + "' (hex gives the 32 bits: 0x3fc00000)");
      }
      return static_cast<uint32_t>(std::stoul(s.substr(2), nullptr, 16));
    }
    // [+-] digits [. digits] [e [+-] digits]: what strtof reads, without hex or inf/nan words.
    size_t i = 0, mant = 0, expDigits = 0;
    bool nonzero = false, bad = false;
    if (s[i] == '+' || s[i] == '-') ++i;
    for (; i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.'); ++i) {
      if (s[i] != '.') {
        ++mant;
        nonzero |= s[i] != '0';
      }
    }
    if (std::count(s.begin(), s.end(), '.') > 1) bad = true;
    if (i < s.size() && s[i] == 'e') {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) ++expDigits;
      bad |= expDigits == 0;
    }
    if (bad || mant == 0 || i != s.size()) {
      fail(cur_, "expected a register or a float immediate (1.5, -2e-3, inf, nan, 0x3fc00000), got '" +
                     trim(tok) + "'");
    }
    errno = 0;
    const float f = std::strtof(s.c_str(), nullptr);
    if (std::isinf(f)) fail(cur_, "float immediate out of range (beyond 3.4028235e38): '" + trim(tok) + "'");
    if (f == 0.0f && nonzero) fail(cur_, "float immediate underflows to zero: '" + trim(tok) + "'");
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }

  void fsrcB(const std::string& tok, Instr& in) const {
    if (looksLikeReg(tok)) {
      in.rb = regOf(tok);
      in.immB = false;
    } else {
      in.immB = true;
      in.imm = floatImm(tok);
    }
  }

  // FP32 instructions (docs/isa.md); nullopt when the mnemonic is not one.
  std::optional<Instr> fpInstruction(const std::string& mnem, const std::vector<std::string>& parts,
                                     const std::vector<std::string>& ops) const {
    const std::string& base = parts[0];
    Instr in;
    auto noMods = [&]() {
      if (parts.size() != 1) fail(cur_, "unexpected modifier in '" + mnem + "'");
    };
    static const std::pair<const char*, Op> kBinary[] = {{"fadd", Op::FAdd}, {"fsub", Op::FSub},
                                                         {"fmul", Op::FMul}, {"fmin", Op::FMin},
                                                         {"fmax", Op::FMax}, {"fdiv", Op::FDiv}};
    for (const auto& [name, op] : kBinary) {
      if (base != name) continue;
      noMods();
      expectCount(ops, 3, mnem);
      in.op = op;
      in.rd = regOf(ops[0]);
      in.ra = regOf(ops[1]);
      fsrcB(ops[2], in);
      return in;
    }
    if (base == "ffma") {
      noMods();
      expectCount(ops, 4, mnem);
      in.op = Op::FFma;
      in.rd = regOf(ops[0]);
      in.ra = regOf(ops[1]);
      fsrcB(ops[2], in);
      in.sub = regOf(ops[3]);
      return in;
    }
    if (base == "fabs" || base == "fneg" || base == "fsqrt") {
      noMods();
      expectCount(ops, 2, mnem);
      in.op = base == "fabs" ? Op::FAbs : base == "fneg" ? Op::FNeg : Op::FSqrt;
      in.rd = regOf(ops[0]);
      in.ra = regOf(ops[1]);
      return in;
    }
    if (base == "fsetp") {
      if (parts.size() != 2) {
        fail(cur_, "fsetp needs a comparison: fsetp.eq/ne/lt/le/gt/ge (ordered), "
                   "equ/neu/ltu/leu/gtu/geu (unordered), num, nan");
      }
      bool found = false;
      for (int i = 0; i < static_cast<int>(isa::FCmp::Count); ++i) {
        if (parts[1] == isa::fcmpName(static_cast<isa::FCmp>(i))) {
          in.sub = static_cast<uint8_t>(i);
          found = true;
        }
      }
      if (!found) fail(cur_, "unknown float comparison '" + parts[1] + "'");
      expectCount(ops, 3, mnem);
      in.op = Op::FSetp;
      in.rd = predOf(ops[0], false);
      in.ra = regOf(ops[1]);
      fsrcB(ops[2], in);
      return in;
    }
    if (base == "fcvt") {
      if (parts.size() < 3 || parts.size() > 4) {
        fail(cur_, "fcvt needs types: fcvt.s32.f32, fcvt.u32.f32, fcvt.f32.s32 or fcvt.f32.u32 "
                   "(then .rn/.rz/.rm/.rp)");
      }
      const std::string conv = parts[1] + "." + parts[2];
      if (conv == "s32.f32") in.op = Op::FCvtS32F32;
      else if (conv == "u32.f32") in.op = Op::FCvtU32F32;
      else if (conv == "f32.s32") in.op = Op::FCvtF32S32;
      else if (conv == "f32.u32") in.op = Op::FCvtF32U32;
      else fail(cur_, "unknown conversion 'fcvt." + conv + "' (s32.f32, u32.f32, f32.s32, f32.u32)");
      const bool toInt = in.op == Op::FCvtS32F32 || in.op == Op::FCvtU32F32;
      in.sub = static_cast<uint8_t>(toInt ? isa::FRm::Rz : isa::FRm::Rn);  // C's cast, exact-ish
      if (parts.size() == 4) {
        bool found = false;
        for (int i = 0; i < static_cast<int>(isa::FRm::Count); ++i) {
          if (parts[3] == isa::frmName(static_cast<isa::FRm>(i))) {
            in.sub = static_cast<uint8_t>(i);
            found = true;
          }
        }
        if (!found) fail(cur_, "unknown rounding mode '." + parts[3] + "' (rn, rz, rm, rp)");
      }
      expectCount(ops, 2, mnem);
      in.rd = regOf(ops[0]);
      in.ra = regOf(ops[1]);
      return in;
    }
    return std::nullopt;
  }

  uint32_t codeTarget(const std::string& tok) const {
    const int64_t v = expr(tok, cur_);
    if (v < 0 || v > 0x3FFFFF) fail(cur_, "branch target out of range: '" + trim(tok) + "'");
    return static_cast<uint32_t>(v);
  }

  // ---- instructions ------------------------------------------------------------------------
  Instr instruction(const std::string& text) const {
    Instr in;
    std::string s = trim(text);
    if (!s.empty() && s[0] == '@') {
      const std::string g = firstWord(s);
      std::string p = g.substr(1);
      if (!p.empty() && p[0] == '!') {
        in.guardNeg = true;
        p = p.substr(1);
      }
      in.guardPred = predOf(p);
      s = rest(s);
      if (s.empty()) fail(cur_, "guard without an instruction");
    }
    const std::string mnem = lower(firstWord(s));
    const std::vector<std::string> ops = splitOperands(rest(s));
    std::vector<std::string> parts;
    {
      std::string cur;
      for (char c : mnem) {
        if (c == '.') {
          parts.push_back(cur);
          cur.clear();
        } else {
          cur += c;
        }
      }
      parts.push_back(cur);
    }
    const std::string& base = parts[0];
    auto noMods = [&]() {
      if (parts.size() != 1) fail(cur_, "unexpected modifier in '" + mnem + "'");
    };

    static const std::pair<const char*, Op> kArith[] = {
        {"add", Op::Add}, {"sub", Op::Sub}, {"mul", Op::Mul}, {"and", Op::And}, {"or", Op::Or},
        {"xor", Op::Xor}, {"shl", Op::Shl}, {"shr", Op::Shr}, {"sra", Op::Sra}, {"min", Op::Min},
        {"max", Op::Max}, {"minu", Op::Minu}, {"maxu", Op::Maxu}};
    for (const auto& [name, op] : kArith) {
      if (base == name) {
        noMods();
        expectCount(ops, 3, mnem);
        in.op = op;
        in.rd = regOf(ops[0]);
        in.ra = regOf(ops[1]);
        srcB(ops[2], in);
        return in;
      }
    }
    if (base == "mov") {
      noMods();
      expectCount(ops, 2, mnem);
      in.rd = regOf(ops[0]);
      const std::string src = lower(ops[1]);
      if (!src.empty() && src[0] == '%') {
        in.op = Op::MovSreg;
        for (int i = 0; i < static_cast<int>(isa::Sreg::Count); ++i) {
          if (src == isa::sregName(static_cast<isa::Sreg>(i))) in.sub = static_cast<uint8_t>(i);
        }
        if (src != isa::sregName(static_cast<isa::Sreg>(in.sub))) {
          fail(cur_, "unknown special register '" + ops[1] + "'");
        }
      } else if (looksLikeReg(src)) {
        in.op = Op::Mov;
        in.ra = regOf(src);
      } else {
        in.op = Op::Mov;
        in.immB = true;
        in.imm = value32(ops[1], cur_);
      }
      return in;
    }
    if (base == "not") {
      noMods();
      expectCount(ops, 2, mnem);
      in.op = Op::Not;
      in.rd = regOf(ops[0]);
      in.ra = regOf(ops[1]);
      return in;
    }
    if (base == "selp") {
      noMods();
      expectCount(ops, 4, mnem);
      in.op = Op::Selp;
      in.rd = regOf(ops[0]);
      in.ra = regOf(ops[1]);
      in.rb = regOf(ops[2]);
      in.sub = predOf(ops[3]);
      return in;
    }
    if (base == "setp") {
      if (parts.size() != 2) fail(cur_, "setp needs a comparison: setp.eq/ne/lt/le/gt/ge/ltu/leu/gtu/geu");
      in.op = Op::Setp;
      bool found = false;
      for (int i = 0; i < static_cast<int>(isa::Cmp::Count); ++i) {
        if (parts[1] == isa::cmpName(static_cast<isa::Cmp>(i))) {
          in.sub = static_cast<uint8_t>(i);
          found = true;
        }
      }
      if (!found) fail(cur_, "unknown comparison '" + parts[1] + "'");
      expectCount(ops, 3, mnem);
      in.rd = predOf(ops[0], false);
      in.ra = regOf(ops[1]);
      srcB(ops[2], in);
      return in;
    }
    if (base == "pand" || base == "por" || base == "pxor") {
      noMods();
      expectCount(ops, 3, mnem);
      in.op = base == "pand" ? Op::Pand : base == "por" ? Op::Por : Op::Pxor;
      in.rd = predOf(ops[0], false);
      in.ra = predOf(ops[1]);
      in.rb = predOf(ops[2]);
      return in;
    }
    if (base == "pnot") {
      noMods();
      expectCount(ops, 2, mnem);
      in.op = Op::Pnot;
      in.rd = predOf(ops[0], false);
      in.ra = predOf(ops[1]);
      return in;
    }
    if (base == "ld" || base == "st") {
      const bool ld = base == "ld";
      if (parts.size() < 2) fail(cur_, "'" + mnem + "' needs a space: .global, .shared or .param");
      const std::string space = parts[1];
      const bool v4 = parts.size() == 3 && parts[2] == "v4";
      if (parts.size() > 3 || (parts.size() == 3 && !v4)) fail(cur_, "unknown modifier in '" + mnem + "'");
      if (v4 && space != "global") fail(cur_, ".v4 is only for global memory");
      expectCount(ops, 2, mnem);
      if (space == "param") {
        if (!ld) fail(cur_, "param memory is read-only");
        in.op = Op::LdParam;
        in.rd = regOf(ops[0]);
        const std::string m = trim(ops[1]);
        if (m.size() < 3 || m.front() != '[' || m.back() != ']') fail(cur_, "ld.param takes [imm]");
        in.immB = true;
        in.imm = value32(m.substr(1, m.size() - 2), cur_);
        return in;
      }
      if (space != "global" && space != "shared") fail(cur_, "unknown memory space '" + space + "'");
      const bool global = space == "global";
      if (ld) {
        in.op = v4 ? Op::LdGlobalV4 : global ? Op::LdGlobal : Op::LdShared;
        in.rd = regOf(ops[0]);
        memOperand(ops[1], in);
        if (v4 && in.rd > 28) fail(cur_, ".v4 needs rd..rd+3 within r0..r31");
      } else {
        in.op = v4 ? Op::StGlobalV4 : global ? Op::StGlobal : Op::StShared;
        memOperand(ops[0], in);
        in.rb = regOf(ops[1]);
        if (v4 && in.rb > 28) fail(cur_, ".v4 needs rs..rs+3 within r0..r31");
      }
      return in;
    }
    if (base == "atom") {
      if (parts.size() != 3) fail(cur_, "atomics are atom.global.OP or atom.shared.OP");
      const bool global = parts[1] == "global";
      if (!global && parts[1] != "shared") fail(cur_, "unknown memory space '" + parts[1] + "'");
      if (parts[2] == "cas") {
        expectCount(ops, 4, mnem);
        in.op = global ? Op::AtomGlobalCas : Op::AtomSharedCas;
        in.rd = regOf(ops[0]);
        memOperand(ops[1], in);
        in.rb = regOf(ops[2]);
        in.sub = regOf(ops[3]);
        return in;
      }
      in.op = global ? Op::AtomGlobal : Op::AtomShared;
      bool found = false;
      for (int i = 0; i < static_cast<int>(isa::AtomOp::Count); ++i) {
        if (parts[2] == isa::atomName(static_cast<isa::AtomOp>(i))) {
          in.sub = static_cast<uint8_t>(i);
          found = true;
        }
      }
      if (!found) fail(cur_, "unknown atomic operation '" + parts[2] + "'");
      expectCount(ops, 3, mnem);
      in.rd = regOf(ops[0]);
      memOperand(ops[1], in);
      in.rb = regOf(ops[2]);
      return in;
    }
    if (base == "ssy" || base == "pbrk" || base == "pcont" || base == "bra" || base == "jmp" ||
        base == "cal" || base == "s_subvector_loop_begin" || base == "s_subvector_loop_end") {
      noMods();
      expectCount(ops, 1, mnem);
      in.op = base == "ssy"    ? Op::Ssy
              : base == "pbrk" ? Op::Pbrk
              : base == "pcont" ? Op::Pcont
              : base == "bra"  ? Op::Bra
              : base == "jmp"  ? Op::Jmp
              : base == "cal"  ? Op::Cal
              : base == "s_subvector_loop_begin" ? Op::SubvectorLoopBegin
                                                 : Op::SubvectorLoopEnd;
      in.imm = codeTarget(ops[0]);
      return in;
    }
    if (base == "sync" || base == "brk" || base == "cont") {
      noMods();
      in.op = base == "sync" ? Op::Sync : base == "brk" ? Op::Brk : Op::Cont;
      if (ops.size() > 1) fail(cur_, "'" + mnem + "' takes at most one label");
      if (ops.size() == 1) {
        in.immB = true;  // has a fallback label
        in.imm = codeTarget(ops[0]);
      }
      return in;
    }
    if (base == "brx" || base == "jmx") {
      noMods();
      expectCount(ops, 1, mnem);
      in.op = base == "brx" ? Op::Brx : Op::Jmx;
      in.ra = regOf(ops[0]);
      return in;
    }
    if (base == "yield") {
      in.op = Op::Yield;
      expectCount(ops, 0, mnem);
      if (parts.size() == 2) {
        if (parts[1] == "p") {
          in.sub = 31;
        } else {
          const int64_t n = parseNumber(parts[1], cur_, "yield period");
          if (n < 1 || n > 256 || (n & (n - 1)) != 0) {
            fail(cur_, "yield.N needs N a power of two from 1 to 256");
          }
          int log = 0;
          while ((1 << log) < n) ++log;
          in.sub = static_cast<uint8_t>(log + 1);
        }
      } else if (parts.size() > 2) {
        fail(cur_, "unexpected modifier in '" + mnem + "'");
      }
      return in;
    }
    if (base == "bar") {
      Instr b = barrier(parts, ops, mnem);
      b.guardPred = in.guardPred;  // the guard selects the participating threads
      b.guardNeg = in.guardNeg;
      return b;
    }
    if (auto fp = fpInstruction(mnem, parts, ops)) {
      fp->guardPred = in.guardPred;
      fp->guardNeg = in.guardNeg;
      return *fp;
    }
    static const std::pair<const char*, Op> kPlain[] = {
        {"ret", Op::Ret}, {"exit", Op::Exit}, {"membar", Op::Membar}, {"nop", Op::Nop},
        {"trap", Op::Trap}, {"s_subvector_start", Op::SubvectorStart},
        {"s_subvector_end", Op::SubvectorEnd}};
    for (const auto& [name, op] : kPlain) {
      if (base == name) {
        noMods();
        expectCount(ops, 0, mnem);
        in.op = op;
        return in;
      }
    }
    fail(cur_, "unknown opcode '" + mnem + "'");
  }

  Instr barrier(const std::vector<std::string>& parts, const std::vector<std::string>& ops,
                const std::string& mnem) const {
    Instr in;
    if (parts.size() < 2) fail(cur_, "'bar' needs a kind: bar.sync, bar.top.ocs, ... bar.reset");
    size_t next = 2;
    const std::string kind = parts[1];
    bool top = false, bot = false;
    if (kind == "sync") {
      in.op = Op::BarSync;
    } else if (kind == "reset") {
      in.op = Op::BarReset;
    } else if (kind == "top" || kind == "bot") {
      if (parts.size() < 3 || (parts[2] != "ocs" && parts[2] != "ucs")) {
        fail(cur_, "'" + mnem + "' needs .ocs or .ucs");
      }
      top = kind == "top";
      bot = !top;
      const bool ordered = parts[2] == "ocs";
      in.op = top ? (ordered ? Op::BarTopOcs : Op::BarTopUcs) : (ordered ? Op::BarBotOcs : Op::BarBotUcs);
      next = 3;
    } else {
      fail(cur_, "unknown barrier kind 'bar." + kind + "'");
    }
    std::set<std::string> mods;
    for (size_t i = next; i < parts.size(); ++i) {
      const std::string& m = parts[i];
      if (mods.count(m)) fail(cur_, "repeated modifier ." + m);
      mods.insert(m);
      if (m == "ex" && top) in.sub |= isa::barflag::kEx;
      else if (m == "nb" && bot) in.sub |= isa::barflag::kNb;
      else if (m == "imp" && (top || in.op == Op::BarSync)) in.sub |= isa::barflag::kImp;
      else if (m == "pass" && in.op == Op::BarSync) in.sub |= isa::barflag::kPass;
      else if (m == "join" && (top || in.op == Op::BarSync)) { /* the default */ }
      else fail(cur_, "modifier ." + m + " is not allowed on '" + mnem + "'");
    }
    if (mods.count("pass") && mods.count("join")) fail(cur_, ".pass and .join exclude each other");
    if ((in.sub & isa::barflag::kPass) && !(in.sub & isa::barflag::kImp)) {
      fail(cur_, ".pass applies to impatient barriers (.imp)");
    }
    const bool imp = in.sub & isa::barflag::kImp;
    const bool countAllowed = in.op == Op::BarSync || top;
    const size_t maxOps = imp ? 4 : countAllowed ? 2 : 1;
    const size_t minOps = imp ? 4 : 1;
    if (ops.size() < minOps || ops.size() > maxOps) {
      fail(cur_, imp ? "'" + mnem + "' takes ID, COUNT, MIN, TIMEOUT"
                     : countAllowed ? "'" + mnem + "' takes ID[, COUNT]" : "'" + mnem + "' takes ID");
    }
    const int64_t id = expr(ops[0], cur_);
    if (id < 0 || id > 15) fail(cur_, "barrier id out of range 0..15: '" + ops[0] + "'");
    in.rd = static_cast<uint8_t>(id);
    if (ops.size() >= 2) {
      in.sub |= isa::barflag::kHasCount;
      if (looksLikeReg(ops[1])) {
        in.ra = regOf(ops[1]);
      } else {
        const int64_t c = expr(ops[1], cur_);
        if (c < 1 || c > isa::kMaxBarCount) fail(cur_, "barrier COUNT out of range 1..4095");
        in.immB = true;
        in.imm |= static_cast<uint32_t>(c);
      }
    }
    if (imp) {
      const int64_t mn = expr(ops[2], cur_), to = expr(ops[3], cur_);
      if (mn < 0 || mn > isa::kMaxBarMin) fail(cur_, "impatient MIN out of range 0..1023");
      if (to < 0 || to > isa::kMaxBarTimeout) fail(cur_, "impatient TIMEOUT out of range 0..32767");
      in.imm |= static_cast<uint32_t>(mn) << 12;
      in.imm |= (static_cast<uint32_t>(to) & 0x3FF) << 22;
      in.rb = static_cast<uint8_t>(to >> 10);
    }
    return in;
  }

  std::string file_;
  Kernel k_;
  std::vector<Line> lines_;
  std::set<std::string> labelsSeen_;
  std::vector<std::string> pendingData_;
  uint32_t dataWords_ = 0;
  int cur_ = 0;
};

}  // namespace

Kernel assemble(const std::string& source, const std::string& fileName) {
  return Assembler(source, fileName).run();
}

Kernel assembleFile(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw AsmError(path, 0, "cannot open file");
  std::stringstream ss;
  ss << f.rdbuf();
  return assemble(ss.str(), path);
}

std::string listing(const Kernel& k) {
  std::ostringstream os;
  os << "; " << k.file << (k.name.empty() ? "" : "  kernel " + k.name) << "  launch ctas="
     << k.ctas << " threads=" << k.threads << "  shared=" << k.sharedBytes << " bytes\n";
  for (size_t i = 0; i < k.code.size(); ++i) {
    for (const auto& [name, addr] : k.codeLabels) {
      if (addr == i) os << name << ":\n";
    }
    char head[48];
    std::snprintf(head, sizeof head, "%6zu  %016llx  ", i, static_cast<unsigned long long>(k.code[i]));
    std::string dis = isa::disassemble(isa::Instr::decode(k.code[i]));
    dis.resize(std::max<size_t>(dis.size(), 36), ' ');
    os << head << dis << " ; line " << k.codeLine[i] << ": " << k.codeSource[i] << "\n";
  }
  if (!k.params.empty()) {
    os << "; params:";
    for (uint32_t p : k.params) os << " " << p;
    os << "\n";
  }
  for (const auto& [name, d] : k.dataLabels) {
    os << "; data " << name << " @" << d.byteAddr << " (" << d.words << " words)\n";
  }
  return os.str();
}

}  // namespace simt::assembler
