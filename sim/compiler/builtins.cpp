#include "compiler/builtins.h"

#include <cctype>

namespace simt::compiler {

namespace {

// One mangled type starting at s[i]; returns it and advances i. Covers what OpenCL 1.2
// built-ins use on the integer path (builtin codes, P/K/V/U3ASn qualifiers, Dv vectors,
// S_ substitutions).
std::string oneType(const std::string& s, size_t& i) {
  const size_t start = i;
  while (i < s.size()) {
    const char c = s[i];
    if (c == 'P' || c == 'K' || c == 'V') {
      ++i;
      continue;
    }
    if (c == 'U') {  // vendor qualifier: U<len><name>
      ++i;
      size_t n = 0;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) n = n * 10 + static_cast<size_t>(s[i++] - '0');
      i += n;
      continue;
    }
    if (c == 'S') {  // substitution S_ or S<seq>_
      while (i < s.size() && s[i] != '_') ++i;
      ++i;
      break;
    }
    if (c == 'D' && i + 1 < s.size() && s[i + 1] == 'v') {  // Dv<n>_<type>
      i += 2;
      while (i < s.size() && s[i] != '_') ++i;
      ++i;
      continue;
    }
    ++i;  // a builtin type code
    break;
  }
  return s.substr(start, i - start);
}

}  // namespace

BuiltinName demangle(const std::string& symbol) {
  BuiltinName b;
  if (symbol.rfind("_Z", 0) != 0) {
    b.name = symbol;
    return b;
  }
  size_t i = 2, n = 0;
  while (i < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[i]))) n = n * 10 + static_cast<size_t>(symbol[i++] - '0');
  if (n == 0 || i + n > symbol.size()) {
    b.name = symbol;
    return b;
  }
  b.mangled = true;
  b.name = symbol.substr(i, n);
  i += n;
  while (i < symbol.size()) b.params.push_back(oneType(symbol, i));
  return b;
}

int pointerAddressSpace(const std::string& param) {
  const auto p = param.find("U3AS");
  if (p == std::string::npos || p + 4 >= param.size()) return 0;
  return param[p + 4] - '0';
}

char pointeeType(const std::string& param) { return param.empty() ? '?' : param.back(); }

}  // namespace simt::compiler
