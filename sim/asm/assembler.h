// The simtcore assembler: ISA.md's language to 64-bit instructions, a data image and the
// launch description. Errors are reported as FILE:LINE: error: MESSAGE (AsmError).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace simt::assembler {

class AsmError : public std::runtime_error {
 public:
  AsmError(const std::string& file, int line, const std::string& message)
      : std::runtime_error(file + ":" + std::to_string(line) + ": error: " + message),
        file_(file), line_(line), message_(message) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

struct DataLabel {
  uint32_t byteAddr = 0;
  uint32_t words = 0;  // size of the .word/.zero it labels (for --dump without :WORDS)
};

struct Kernel {
  std::string file;
  std::string name;                     // .kernel (optional)
  int ctas = 1, threads = 32;           // .launch defaults
  bool launchGiven = false;
  uint32_t sharedBytes = 0;             // .shared
  std::vector<uint32_t> params;         // .param words
  std::vector<uint32_t> data;           // global memory image from address 0, in words
  std::map<std::string, DataLabel> dataLabels;
  std::map<std::string, uint32_t> codeLabels;  // instruction index
  std::vector<uint64_t> code;
  std::vector<int> codeLine;            // source line of each instruction
  std::vector<std::string> codeSource;  // its source text
};

// Assemble one source. Throws AsmError at the first error.
Kernel assemble(const std::string& source, const std::string& fileName);
Kernel assembleFile(const std::string& path);

// Listing: address, encoding, disassembly and source of every instruction, then the data.
std::string listing(const Kernel& k);

}  // namespace simt::assembler
