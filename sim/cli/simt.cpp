// The simt command line: `simt asm FILE.s ...` assembles and prints listings; `simt run
// FILE.s [options]` runs a kernel (ISA.md section 5) and reports the result.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "model/sm/sm_model.h"
#include "cosim/cosim.h"
#include "rtl/sm_rtl.h"

namespace po = boost::program_options;

namespace {

const char* const kUsage =
    "usage: simt <command> [options]\n"
    "commands:\n"
    "  asm FILE.s ...        assemble and print a listing (address, encoding, disassembly, source)\n"
    "  run FILE.s [options]  run a kernel (simt run --help for the options)\n"
    "  help                  this text\n";

// Options of a subcommand plus positional FILE arguments ("file"); false after printing
// "simt CMD: <error>" for bad options.
bool parseCommandLine(const char* cmd, const po::options_description& desc,
                      const std::vector<std::string>& args, po::variables_map& vm) {
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>(), "input files");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("file", -1);
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "simt " << cmd << ": " << e.what() << "\n";
    return false;
  }
  return true;
}

int cmdAsm(const std::vector<std::string>& args) {
  po::options_description desc("simt asm options");
  desc.add_options()("help,h", "show this help")("quiet,q", "check only, print no listing");
  po::variables_map vm;
  if (!parseCommandLine("asm", desc, args, vm)) return 1;
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


// One --dump request: a data label and how many words (default: the label's size).
struct DumpRequest {
  std::string label;
  int64_t words = -1;
};

DumpRequest parseDump(const std::string& text) {
  DumpRequest d;
  const auto colon = text.find(':');
  d.label = text.substr(0, colon);
  if (d.label.empty()) throw std::runtime_error("--dump '" + text + "': empty label");
  if (colon != std::string::npos) {
    const std::string n = text.substr(colon + 1);
    size_t used = 0;
    long long v = -1;
    try {
      v = std::stoll(n, &used, 0);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != n.size() || n.empty() || v < 0) {
      throw std::runtime_error("--dump '" + text + "': WORDS must be a non-negative number");
    }
    d.words = v;
  }
  return d;
}

int cmdRun(const std::vector<std::string>& args) {
  po::options_description desc("simt run FILE.s [options]");
  desc.add_options()
      ("help,h", "show this help")
      ("engine", po::value<std::string>()->default_value("rtl"),
       "rtl (the verilated core), model (the golden ISA model) or cosim (both in lockstep)")
      ("ctas", po::value<int>(), "number of CTAs (overrides .launch)")
      ("threads", po::value<int>(), "threads per CTA (overrides .launch)")
      ("divergence", po::value<std::string>()->default_value("deque"),
       "deque (forward-progress token queue) or stack (reconvergence-stack baseline)")
      ("max-cycles", po::value<uint64_t>()->default_value(10'000'000),
       "stop with status timeout after this many cycles")
      ("dump", po::value<std::vector<std::string>>()->composing(),
       "LABEL[:WORDS]: include a global data label in the result (repeatable)")
      ("json", po::value<std::string>(), "write the result as JSON to PATH (- for stdout)")
      ("wave", po::value<std::string>(), "PATH.fst: RTL waveform (rtl and cosim engines)")
      ("seed", po::value<uint64_t>()->default_value(1), "seed for yield.p and anything random")
      ("policy", po::value<std::string>()->default_value("lrr"),
       "warp scheduler policy (extension): lrr, gto, oldest or cta")
      ("timeout-origin", po::value<std::string>()->default_value("first"),
       "impatient TIMEOUT measured from (extension, seed 000): first (participant, ISA.md), "
       "first-any (arrival of any thread), last (participant) or last-any")
      ("barrier-priority", po::value<std::vector<std::string>>()->composing(),
       "ID=P: slot-arbiter priority 0..3 of barrier id ID (extension, seed 000; higher first; "
       "repeatable; default 0, round robin)");
  po::variables_map vm;
  if (!parseCommandLine("run", desc, args, vm)) return 1;
  if (vm.count("help")) {
    std::cout << desc << "\nexit status: 0 ok, 1 error (usage, assembly, fault), 2 deadlock, "
                         "3 timeout, 4 mismatch (cosim)\n";
    return 0;
  }
  auto usage = [](const std::string& msg) {
    std::cerr << "simt run: " << msg << "\n";
    return 1;
  };
  if (!vm.count("file")) return usage("no kernel file given (simt run FILE.s [options])");
  const auto files = vm["file"].as<std::vector<std::string>>();
  if (files.size() != 1) return usage("exactly one kernel file expected, got " + std::to_string(files.size()));
  const std::string engine = vm["engine"].as<std::string>();
  if (engine != "rtl" && engine != "model" && engine != "cosim") {
    return usage("--engine must be rtl, model or cosim, not '" + engine + "'");
  }
  simt::model::RunConfig cfg;
  const std::string div = vm["divergence"].as<std::string>();
  if (div == "deque") {
    cfg.divergence = simt::model::DivergenceMode::Deque;
  } else if (div == "stack") {
    cfg.divergence = simt::model::DivergenceMode::Stack;
  } else {
    return usage("--divergence must be deque or stack, not '" + div + "'");
  }
  if (vm.count("ctas")) {
    cfg.ctas = vm["ctas"].as<int>();
    if (cfg.ctas < 1) return usage("--ctas must be at least 1");
  }
  if (vm.count("threads")) {
    cfg.threads = vm["threads"].as<int>();
    if (cfg.threads < 1 || cfg.threads > cfg.maxThreadsPerCta()) {
      return usage("--threads must be 1.." + std::to_string(cfg.maxThreadsPerCta()));
    }
  }
  const std::string policy = vm["policy"].as<std::string>();
  if (policy == "lrr") {
    cfg.policy = simt::model::SchedPolicy::Lrr;
  } else if (policy == "gto") {
    cfg.policy = simt::model::SchedPolicy::Gto;
  } else if (policy == "oldest") {
    cfg.policy = simt::model::SchedPolicy::Oldest;
  } else if (policy == "cta") {
    cfg.policy = simt::model::SchedPolicy::Cta;
  } else {
    return usage("--policy must be lrr, gto, oldest or cta, not '" + policy + "'");
  }
  const std::string origin = vm["timeout-origin"].as<std::string>();
  using simt::model::TimeoutOrigin;
  if (origin == "first") {
    cfg.timeoutOrigin = TimeoutOrigin::FirstParticipant;
  } else if (origin == "first-any") {
    cfg.timeoutOrigin = TimeoutOrigin::FirstArrival;
  } else if (origin == "last") {
    cfg.timeoutOrigin = TimeoutOrigin::LastParticipant;
  } else if (origin == "last-any") {
    cfg.timeoutOrigin = TimeoutOrigin::LastArrival;
  } else {
    return usage("--timeout-origin must be first, first-any, last or last-any, not '" + origin + "'");
  }
  if (vm.count("barrier-priority")) {
    for (const auto& p : vm["barrier-priority"].as<std::vector<std::string>>()) {
      const std::regex form("([0-9]{1,2})=([0-9]{1,2})");
      std::smatch m;
      if (!std::regex_match(p, m, form) || std::stoi(m[1]) > 15 ||
          std::stoi(m[2]) > simt::model::RunConfig::kMaxBarrierPriority) {
        return usage("--barrier-priority takes ID=P with ID 0..15 and P 0..3, not '" + p + "'");
      }
      cfg.barrierPriority[static_cast<size_t>(std::stoi(m[1]))] = static_cast<uint8_t>(std::stoi(m[2]));
    }
  }
  cfg.maxCycles = vm["max-cycles"].as<uint64_t>();
  cfg.seed = vm["seed"].as<uint64_t>();
  std::vector<DumpRequest> dumps;
  try {
    if (vm.count("dump")) {
      for (const auto& d : vm["dump"].as<std::vector<std::string>>()) dumps.push_back(parseDump(d));
    }
  } catch (const std::exception& e) {
    return usage(e.what());
  }
  std::string wavePath;
  if (vm.count("wave")) {
    if (engine == "model") return usage("--wave needs the rtl or cosim engine (the model has no waveform)");
    if (!simt::rtl::SmRtl::tracingBuilt()) {
      return usage("--wave: this build has no waveform tracing (it keeps the regression build fast); "
                   "run `make simt-wave` and use build/wave/bin/simt");
    }
    wavePath = vm["wave"].as<std::string>();
  }

  simt::assembler::Kernel kernel;
  try {
    kernel = simt::assembler::assembleFile(files[0]);
  } catch (const simt::assembler::AsmError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  if (cfg.threads < 0 && kernel.threads > cfg.maxThreadsPerCta()) {
    std::cerr << files[0] << ": error: .launch threads=" << kernel.threads << " exceeds "
              << cfg.maxThreadsPerCta() << " threads per CTA\n";
    return 1;
  }
  for (const auto& d : dumps) {
    const auto it = kernel.dataLabels.find(d.label);
    if (it == kernel.dataLabels.end()) return usage("--dump: no data label '" + d.label + "' in " + files[0]);
    const uint64_t words = d.words >= 0 ? static_cast<uint64_t>(d.words) : it->second.words;
    if (it->second.byteAddr / 4 + words > kernel.data.size()) {
      return usage("--dump " + d.label + ":" + std::to_string(words) + " reaches past the end of global memory");
    }
  }

  simt::model::RunResult res;
  if (engine == "model") {
    simt::model::SmModel sm(kernel, cfg);
    res = sm.run();
  } else if (engine == "rtl") {
    simt::rtl::SmRtl core(kernel, cfg, wavePath);
    res = core.run();
  } else {
    simt::cosim::Cosim cosim(kernel, cfg, wavePath);
    res = cosim.run();
  }

  nlohmann::ordered_json j;
  j["status"] = simt::model::runStatusName(res.status);
  j["engine"] = engine;
  j["cycles"] = res.cycles;
  j["instructions"] = res.instructions;
  j["memory"] = nlohmann::ordered_json::object();
  for (const auto& d : dumps) {
    const auto& lab = kernel.dataLabels.at(d.label);
    const uint64_t words = d.words >= 0 ? static_cast<uint64_t>(d.words) : lab.words;
    auto arr = nlohmann::ordered_json::array();
    for (uint64_t i = 0; i < words; ++i) arr.push_back(res.global[lab.byteAddr / 4 + i]);
    j["memory"][d.label] = arr;
  }
  j["stats"] = nlohmann::ordered_json::object();
  for (const auto& [k, v] : res.stats) j["stats"][k] = v;
  j["stats"]["thread_instructions"] = res.threadInstructions;
  if (!res.message.empty()) j["message"] = res.message;

  // Human summary on stdout (unless the JSON goes there), messages on stderr.
  const std::string jsonPath = vm.count("json") ? vm["json"].as<std::string>() : "";
  if (jsonPath != "-") {
    std::cout << files[0] << ": " << simt::model::runStatusName(res.status) << " (engine "
              << engine << ", divergence " << div << "): " << res.cycles << " cycles, "
              << res.instructions << " warp-instructions, " << res.threadInstructions
              << " thread-instructions\n";
    for (const auto& d : dumps) {
      std::cout << "  " << d.label << ":";
      for (const auto& v : j["memory"][d.label]) std::cout << " " << v.get<uint32_t>();
      std::cout << "\n";
    }
  }
  std::cout.flush();
  if (!res.message.empty()) std::cerr << res.message << "\n";
  if (!jsonPath.empty()) {
    if (jsonPath == "-") {
      std::cout << j.dump() << "\n";
    } else {
      std::ofstream out(jsonPath);
      if (!out) {
        std::cerr << "simt run: cannot write " << jsonPath << "\n";
        return 1;
      }
      out << j.dump() << "\n";
    }
  }
  return simt::model::exitCode(res.status);
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
  if (cmd == "run") return cmdRun(rest);
  std::cerr << "simt: unknown command '" << cmd << "'\n" << kUsage;
  return 1;
}
