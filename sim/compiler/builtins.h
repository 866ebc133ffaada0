// OpenCL built-ins as Clang declares them for SPIR: Itanium-mangled external functions
// (_Z13get_global_idj). This names them and reads the parameter types the lowering needs.
#pragma once

#include <string>
#include <vector>

namespace simt::compiler {

struct BuiltinName {
  std::string name;                 // "get_global_id", "atomic_add", "simt_yield"
  std::vector<std::string> params;  // mangled parameter types: "i", "j", "PU3AS1Vi", ...
  bool mangled = false;
};

BuiltinName demangle(const std::string& symbol);

// For a mangled pointer parameter: its address space (0 when none), and the pointee's
// type code ('i' int, 'j' uint, ...).
int pointerAddressSpace(const std::string& param);
char pointeeType(const std::string& param);

}  // namespace simt::compiler
