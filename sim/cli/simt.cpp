// The simt command line: `simt asm FILE.s ...` assembles and prints listings.
// `simt run` (ISA.md section 5) arrives with the ISA model.
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "asm/assembler.h"

namespace po = boost::program_options;

namespace {

const char* const kUsage =
    "usage: simt <command> [options]\n"
    "commands:\n"
    "  asm FILE.s ...   assemble and print a listing (address, encoding, disassembly, source)\n"
    "  run FILE.s ...   run a kernel (not available yet in this build)\n"
    "  help             this text\n";

int cmdAsm(const std::vector<std::string>& args) {
  po::options_description desc("simt asm options");
  desc.add_options()("help,h", "show this help")("quiet,q", "check only, print no listing");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>(), "source files");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "simt asm: " << e.what() << "\n";
    return 1;
  }
  if (vm.count("help")) {
    std::cout << "usage: simt asm FILE.s ...\n" << desc;
    return 0;
  }
  if (!vm.count("file")) {
    std::cerr << "simt asm: no input file\n";
    return 1;
  }
  for (const std::string& f : vm["file"].as<std::vector<std::string>>()) {
    try {
      const auto k = simt::assembler::assembleFile(f);
      if (!vm.count("quiet")) std::cout << simt::assembler::listing(k);
    } catch (const simt::assembler::AsmError& e) {
      std::cerr << e.what() << "\n";
      return 1;  // stop at the first file that does not assemble
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return 1;
  }
  const std::string cmd = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  if (cmd == "asm") return cmdAsm(rest);
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    std::cout << kUsage;
    return 0;
  }
  if (cmd == "run") {
    std::cerr << "simt run: not available yet: the ISA model and the RTL core are not built "
                 "(see the open issues)\n";
    return 1;
  }
  std::cerr << "simt: unknown command '" << cmd << "'\n" << kUsage;
  return 1;
}
