// The simt command line: `simt asm FILE.s ...` assembles and prints listings; `simt run
// FILE.s [options]` runs a kernel (ISA.md section 5) and reports the result.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "asm/isa.h"
#include "model/sm/sm_model.h"
#include "cosim/cosim.h"
#include "host/device_engine.h"
#include "host/serial_port.h"
#include "rtl/sm_rtl.h"
#ifdef SIMT_WITH_COMPILER
#include "compiler/cache.h"
#include "compiler/compiler.h"
#include "runtime/cl_runtime.h"
#endif

namespace po = boost::program_options;

namespace {

const char* const kUsage =
    "usage: simt <command> [options]\n"
    "commands:\n"
    "  asm FILE.s ...        assemble and print a listing (address, encoding, disassembly, source)\n"
    "  run FILE.s [options]  run a kernel (simt run --help for the options)\n"
    "  run FILE.cl --kernel NAME --global G[,G[,G]] [--local L,..] [--arg SPEC]... [options]\n"
    "                        compile and run an OpenCL C kernel (KERNELS.md, docs/compiler.md)\n"
    "  cc FILE.cl [--kernel NAME] [-D NAME[=V]]... [-I DIR]... [--alias-opt] [-o OUT.s]\n"
    "                        compile an OpenCL C kernel and print its simt assembly\n"
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

// The exit status of a run whose board stopped answering (docs/isa-model.md).
constexpr int kExitLink = 5;

// The board behind --device PORT: the serial port and the engine on it.
struct DeviceLink {
  std::string port;
  uint32_t baud = 0;
  std::unique_ptr<simt::host::SerialPort> serial;
  std::unique_ptr<simt::host::DeviceEngine> engine;
};

// The board stopped answering (or garbles every answer, or is not an FPGA top this host
// knows): a message and exit status 5.
int linkFailed(const DeviceLink& dev, const simt::host::LinkError& e) {
  using Kind = simt::host::LinkError::Kind;
  std::cerr << "simt run: device " << dev.port << " at " << dev.baud << " baud: "
            << (e.kind() == Kind::NoAnswer      ? "the board does not answer"
                : e.kind() == Kind::Corrupt     ? "the link garbles the answers"
                : e.kind() == Kind::WrongDevice ? "not an FPGA top this host knows"
                                                : "the bridge refuses a request")
            << " (" << e.what() << ")\n";
  if (e.kind() == Kind::WrongDevice) {
    std::cerr << "  program the board with a simt_fpga_uart_top of this version (make bitstream)\n";
  } else if (e.kind() != Kind::Refused) {
    std::cerr << "  is the board powered, programmed with simt_fpga_uart_top and its UART set to "
              << dev.baud << " baud (--baud)?\n";
  }
  return kExitLink;
}

// --device PORT [--baud N]: opens the port and reads the board's geometry (what it can run);
// 0, or the exit status after a message (1: no such port, not a terminal, a rate it refuses;
// 5: the board does not answer or is not an FPGA top this host knows).
int openDevice(const po::variables_map& vm, DeviceLink& dev) {
  dev.port = vm["device"].as<std::string>();
  dev.baud = vm["baud"].as<uint32_t>();
  try {
    dev.serial = std::make_unique<simt::host::SerialPort>(dev.port, dev.baud);
  } catch (const simt::host::PortError& e) {
    std::cerr << "simt run: --device: " << e.what() << "\n";
    return 1;
  }
  simt::host::DeviceEngine::Options opt;
  opt.link.baud = dev.baud;
  opt.link.latencyUs = 100'000;  // USB and the OS on top of the line time, generously
  dev.engine = std::make_unique<simt::host::DeviceEngine>(*dev.serial, opt);
  try {
    dev.engine->geometry();
  } catch (const simt::host::LinkError& e) {
    return linkFailed(dev, e);
  }
  return 0;
}

// What the link did and what the board reported: one line each of the summary, and the
// JSON's "device" object.
nlohmann::ordered_json deviceJson(const DeviceLink& dev) {
  const auto& r = dev.engine->lastLink();
  const simt::host::DeviceGeometry& g = dev.engine->geometry();
  nlohmann::ordered_json d;
  d["port"] = dev.port;
  d["baud"] = dev.baud;
  nlohmann::ordered_json geo;
  geo["warp_slots"] = g.warpSlots;
  geo["cta_warps"] = g.ctaWarps;
  geo["max_threads_per_cta"] = g.maxThreadsPerCta();
  geo["resident_ctas"] = g.residentCtas;
  geo["queue_depth"] = g.queueDepth;
  geo["imem_words"] = g.imemWords;
  geo["param_words"] = g.paramWords;
  geo["shared_bytes"] = g.sharedBytes;
  geo["data_words"] = g.dataWords;
  geo["fp_lanes"] = g.fpLanes;
  geo["line_bytes"] = g.lineBytes;
  geo["barrier_slots"] = g.barrierSlots;
  geo["lanes"] = g.lanes;
  d["geometry"] = geo;
  d["transactions"] = r.stats.transactions;
  d["retries"] = r.stats.retries;
  d["payload_words"] = r.stats.payloadWords;
  d["bytes_sent"] = r.stats.bytesSent;
  d["bytes_received"] = r.stats.bytesReceived;
  d["seconds"] = r.seconds;
  return d;
}
void printDeviceSummary(const DeviceLink& dev) {
  const auto& r = dev.engine->lastLink();
  std::cout << "  device " << dev.port << " at " << dev.baud << " baud: " << r.stats.transactions
            << " transactions, " << r.stats.payloadWords << " payload words, "
            << r.stats.bytesSent + r.stats.bytesReceived << " bytes, " << r.stats.retries
            << " retries, " << r.seconds << " s\n";
  std::cout << "  device geometry: " << dev.engine->geometry().describe() << "\n";
}

// Runs a kernel image on one engine: the ISA model, the verilated core, both in lockstep, or
// the core on a board (device: throws host::LinkError when the board does not answer).
simt::model::RunResult runEngine(const simt::assembler::Kernel& kernel, const simt::model::RunConfig& cfg,
                                 const std::string& engine, const std::string& wavePath,
                                 const DeviceLink* device = nullptr) {
  if (engine == "device") return device->engine->run(kernel, cfg);
  if (engine == "model") {
    simt::model::SmModel sm(kernel, cfg);
    return sm.run();
  }
  if (engine == "rtl") {
    simt::rtl::SmRtl core(kernel, cfg, wavePath);
    return core.run();
  }
  simt::cosim::Cosim cosim(kernel, cfg, wavePath);
  return cosim.run();
}

// Writes the JSON result to PATH or stdout ("-"); false if the file cannot be written.
// The run's statistics; a key "group.name" goes into the object "group".
nlohmann::ordered_json statsJson(const simt::model::RunResult& res) {
  nlohmann::ordered_json stats = nlohmann::ordered_json::object();
  for (const auto& [key, value] : res.stats) {
    const auto dot = key.find('.');
    if (dot == std::string::npos) stats[key] = value;
    else stats[key.substr(0, dot)][key.substr(dot + 1)] = value;
  }
  stats["thread_instructions"] = res.threadInstructions;
  return stats;
}

bool writeJson(const nlohmann::ordered_json& j, const std::string& jsonPath) {
  if (jsonPath.empty()) return true;
  if (jsonPath == "-") {
    std::cout << j.dump() << "\n";
    return true;
  }
  std::ofstream out(jsonPath);
  if (!out) {
    std::cerr << "simt run: cannot write " << jsonPath << "\n";
    return false;
  }
  out << j.dump() << "\n";
  return true;
}

#ifdef SIMT_WITH_COMPILER
int runOpenCl(const std::string& file, const po::variables_map& vm, simt::model::RunConfig cfg,
              const std::string& engine, const std::string& div, const std::string& wavePath,
              const std::vector<DumpRequest>& dumps, const DeviceLink* dev);
#endif

int cmdRun(const std::vector<std::string>& args) {
  po::options_description desc("simt run FILE.s [options]");
  desc.add_options()
      ("help,h", "show this help")
      ("engine", po::value<std::string>()->default_value("rtl"),
       "rtl (the verilated core), model (the golden ISA model), cosim (both in lockstep) or "
       "device (the core on a board: --device)")
      ("device", po::value<std::string>(),
       "PORT: run on a board (simt_fpga_uart_top) behind this serial port, e.g. /dev/ttyUSB0 "
       "(docs/blocks/uart_bridge.md, \"Host link\")")
      ("baud", po::value<uint32_t>()->default_value(115200),
       "--device: the port's baud rate (the board's: 115200 for BaudDiv 217 at 25 MHz)")
      ("ctas", po::value<int>(), "number of CTAs (overrides .launch)")
      ("threads", po::value<int>(), "threads per CTA (overrides .launch)")
      ("divergence", po::value<std::string>()->default_value("deque"),
       "deque (forward-progress token queue) or stack (reconvergence-stack baseline)")
      ("max-cycles", po::value<uint64_t>()->default_value(10'000'000),
       "stop with status timeout after this many cycles")
      ("mem-latency", po::value<uint32_t>()->default_value(simt::model::RunConfig{}.memLatency),
       "rtl, cosim: cycles from a memory request's transfer to its response (1 or more)")
      ("mem-bandwidth", po::value<uint32_t>()->default_value(simt::model::RunConfig{}.memBandwidth),
       "rtl, cosim: bytes per cycle of the memory's data channel (1 or more)")
      ("mem-outstanding", po::value<uint32_t>(),
       "rtl, cosim: requests the memory holds at once before it refuses more (default: twice "
       "what the bandwidth needs at the latency, at least 64)")
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
       "repeatable; default 0, round robin)")
      ("kernel", po::value<std::string>(), "FILE.cl: the kernel to run (default: the file's only kernel)")
      ("global", po::value<std::string>(), "FILE.cl: global size G[,G[,G]] (1 to 3 dimensions)")
      ("local", po::value<std::string>(), "FILE.cl: work-group size L[,L[,L]] (default: the runtime's choice)")
      ("global-offset", po::value<std::string>(),
       "FILE.cl: the first global id O[,O[,O]], as clEnqueueNDRangeKernel's global_work_offset "
       "(extension; default 0)")
      ("arg", po::value<std::vector<std::string>>()->composing(),
       "FILE.cl: one per kernel parameter, in order: i32:V, u32:V, f32:V, i64:V, u64:V (long, ulong; "
       "extension), buf:NAME:N[:TYPE][=INIT], "
       "view:NAME:OFFSET, local:BYTES")
      ("define,D", po::value<std::vector<std::string>>()->composing(), "FILE.cl: NAME[=VALUE] macro")
      ("include,I", po::value<std::vector<std::string>>()->composing(), "FILE.cl: include directory")
      ("structurize", "FILE.cl: run LLVM's StructurizeCFG where divergent branches do not nest (docs/compiler.md)")
      ("subroutines", "FILE.cl: noinline functions become subroutines (cal/ret) instead of being inlined")
      ("alias-opt", po::value<std::string>()->default_value("on"),
       "FILE.cl: on|off: check the pointer arguments' regions at launch and run a variant recompiled "
       "for them (seed 004, docs/compiler.md \"Alias metadata\")");
  po::variables_map vm;
  if (!parseCommandLine("run", desc, args, vm)) return 1;
  if (vm.count("help")) {
    std::cout << desc << "\nexit status: 0 ok, 1 error (usage, assembly, fault, a port that "
                         "cannot be opened), 2 deadlock, 3 timeout, 4 mismatch (cosim), "
                         "5 the board does not answer (--device)\n";
    return 0;
  }
  auto usage = [](const std::string& msg) {
    std::cerr << "simt run: " << msg << "\n";
    return 1;
  };
  if (!vm.count("file")) return usage("no kernel file given (simt run FILE.s [options])");
  const auto files = vm["file"].as<std::vector<std::string>>();
  if (files.size() != 1) return usage("exactly one kernel file expected, got " + std::to_string(files.size()));
  std::string engine = vm["engine"].as<std::string>();
  if (engine != "rtl" && engine != "model" && engine != "cosim" && engine != "device") {
    return usage("--engine must be rtl, model, cosim or device, not '" + engine + "'");
  }
  if (vm.count("device")) {
    if (!vm["engine"].defaulted() && engine != "device") {
      return usage("--device runs the kernel on a board: --engine " + engine + " does not apply");
    }
    engine = "device";
  } else if (engine == "device") {
    return usage("--engine device needs --device PORT (the board's serial port)");
  } else if (!vm["baud"].defaulted()) {
    return usage("--baud applies only with --device PORT");
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
  cfg.memLatency = vm["mem-latency"].as<uint32_t>();
  cfg.memBandwidth = vm["mem-bandwidth"].as<uint32_t>();
  if (cfg.memLatency < 1 || cfg.memLatency > 100'000) return usage("--mem-latency takes 1 to 100000 cycles");
  if (cfg.memBandwidth < 1 || cfg.memBandwidth > 4096) return usage("--mem-bandwidth takes 1 to 4096 bytes per cycle");
  if (vm.count("mem-outstanding")) {
    cfg.memOutstanding = vm["mem-outstanding"].as<uint32_t>();
    if (cfg.memOutstanding < 1 || cfg.memOutstanding > 65536) {
      return usage("--mem-outstanding takes 1 to 65536 requests");
    }
  }
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
    if (engine == "model" || engine == "device") {
      return usage("--wave needs the rtl or cosim engine (the " + engine + " has no waveform)");
    }
    if (!simt::rtl::SmRtl::tracingBuilt()) {
      return usage("--wave: this build has no waveform tracing (it keeps the regression build fast); "
                   "run `make simt-wave` and use build/wave/bin/simt");
    }
    wavePath = vm["wave"].as<std::string>();
  }

  const bool isCl = files[0].size() > 3 && files[0].compare(files[0].size() - 3, 3, ".cl") == 0;
  if (isCl) {
#ifdef SIMT_WITH_COMPILER
    if (vm.count("ctas") || vm.count("threads")) {
      return usage("--ctas/--threads do not apply to an OpenCL kernel: use --global and --local");
    }
    DeviceLink device;
    if (engine == "device") {
      if (const int st = openDevice(vm, device)) return st;
    }
    return runOpenCl(files[0], vm, cfg, engine, div, wavePath, dumps, &device);
#else
    return usage("this build has no OpenCL compiler (clang-16/llvm-16-dev missing)");
#endif
  }
  if (!vm["alias-opt"].defaulted() && !isCl) {
    return usage("--alias-opt applies only to an OpenCL kernel (FILE.cl)");
  }
  for (const char* clOnly : {"kernel", "global", "local", "global-offset", "arg", "define", "include", "structurize",
                             "subroutines"}) {
    if (vm.count(clOnly)) return usage(std::string("--") + clOnly + " applies only to an OpenCL kernel (FILE.cl)");
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

  DeviceLink device;
  if (engine == "device") {
    if (const int st = openDevice(vm, device)) return st;
  }
  simt::model::RunResult res;
  try {
    res = runEngine(kernel, cfg, engine, wavePath, &device);
  } catch (const simt::host::LinkError& e) {
    return linkFailed(device, e);
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
  j["stats"] = statsJson(res);
  if (engine == "device") j["device"] = deviceJson(device);
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
    if (engine == "device") printDeviceSummary(device);
  }
  std::cout.flush();
  if (!res.message.empty()) std::cerr << res.message << "\n";
  if (!writeJson(j, jsonPath)) return 1;
  return simt::model::exitCode(res.status);
}

#ifdef SIMT_WITH_COMPILER
std::vector<std::string> strings(const po::variables_map& vm, const char* name) {
  return vm.count(name) ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>{};
}

// A buffer element as JSON: i32 signed, u32 unsigned, f32 a number.
nlohmann::ordered_json elementJson(simt::runtime::ElemType t, uint32_t w) {
  if (t == simt::runtime::ElemType::I32) return static_cast<int32_t>(w);
  if (t == simt::runtime::ElemType::U32) return w;
  float f = 0;
  std::memcpy(&f, &w, 4);
  return f;
}

// The compiler's options from the command line (simt run FILE.cl, simt cc).
simt::compiler::CompileOptions compileOptions(const po::variables_map& vm) {
  simt::compiler::CompileOptions opt;
  if (vm.count("kernel")) opt.kernel = vm["kernel"].as<std::string>();
  opt.defines = strings(vm, "define");
  opt.includeDirs = strings(vm, "include");
  opt.structurize = vm.count("structurize") != 0;
  opt.subroutines = vm.count("subroutines") != 0;
  return opt;
}

std::string argName(const simt::compiler::CompiledKernel& ck, int a) {
  const auto i = static_cast<size_t>(a);
  return i < ck.args.size() && !ck.args[i].name.empty() ? ck.args[i].name : "arg" + std::to_string(a);
}

// The "alias" member of the JSON "compile" object: seed 004's metadata and what ran.
nlohmann::ordered_json aliasJson(const simt::compiler::CompiledKernel& ck, const simt::runtime::Device::AliasOutcome& ao,
                                 bool enabled) {
  namespace rt = simt::runtime;
  nlohmann::ordered_json a;
  a["enabled"] = enabled;
  a["references_complete"] = ck.referencesComplete;
  auto refs = nlohmann::ordered_json::array();
  for (const auto& r : ck.references) {
    refs.push_back({{"arg", r.arg}, {"name", argName(ck, r.arg)}, {"reads", r.reads}, {"writes", r.writes},
                    {"bytes", r.bytes}, {"offset", r.offset.empty() ? "unknown" : r.offset}, {"line", r.line}});
  }
  a["references"] = refs;
  if (!ao.checked) return a;
  auto regions = nlohmann::ordered_json::array();
  for (const auto& r : ao.check.regions) {
    regions.push_back({{"arg", r.arg}, {"name", argName(ck, r.arg)}, {"buffer", r.buffer}, {"pointer", r.pointer},
                       {"reads", r.reads}, {"writes", r.writes}, {"unknown", r.unknown}, {"start", r.start},
                       {"end", r.end}, {"bytes", r.end - r.start}});
  }
  a["regions"] = regions;
  auto pairs = nlohmann::ordered_json::array();
  for (const auto& p : ao.check.pairs) {
    nlohmann::ordered_json q = {{"a", argName(ck, p.a)}, {"b", argName(ck, p.b)},
                                {"relation", rt::relationName(p.kind)}, {"conflict", p.conflict}};
    if (p.kind == rt::PairRelation::Kind::Disjoint) q["gap_bytes"] = p.gapBytes;
    if (p.kind == rt::PairRelation::Kind::Overlap) {
      q["overlap_start"] = p.overlapStart;
      q["overlap_end"] = p.overlapEnd;
      q["overlap_bytes"] = p.overlapEnd - p.overlapStart;
    }
    if (p.sameBuffer) q["pointer_distance"] = p.pointerDistance;
    pairs.push_back(q);
  }
  a["pairs"] = pairs;
  a["facts"] = ao.check.facts.key();
  a["check_us"] = ao.check.microseconds;
  a["evaluations"] = ao.check.evaluations;
  a["recompiled"] = ao.recompiled;
  if (ao.recompiled) {
    a["variant_cached"] = ao.variantCached;
    a["variant_ms"] = ao.compileMs;
    a["variant_code_instructions"] = ao.variant.stats.instructions;
    a["unrolled_loops"] = ao.variant.unrolledLoops;
    a["vector_accesses"] = ao.variant.vectorAccesses;
  }
  if (!ao.note.empty()) a["note"] = ao.note;
  return a;
}

void printAliasSummary(const simt::compiler::CompiledKernel& ck, const simt::runtime::Device::AliasOutcome& ao) {
  namespace rt = simt::runtime;
  std::cout << "  alias check (" << static_cast<long>(ao.check.microseconds) << " us):";
  if (ao.check.pairs.empty()) std::cout << " no pair of pointer arguments";
  for (const auto& p : ao.check.pairs) {
    std::cout << " " << argName(ck, p.a) << "/" << argName(ck, p.b) << " " << rt::relationName(p.kind);
  }
  if (ao.recompiled) {
    std::cout << "; ran the variant for {" << ao.check.facts.key() << "}" << (ao.variantCached ? " (cached)" : "");
  } else {
    std::cout << "; conservative compilation: " << ao.note;
  }
  std::cout << "\n";
}

int runOpenCl(const std::string& file, const po::variables_map& vm, simt::model::RunConfig cfg,
              const std::string& engine, const std::string& div, const std::string& wavePath,
              const std::vector<DumpRequest>& dumps, const DeviceLink* dev) {
  namespace rt = simt::runtime;
  auto usage = [](const std::string& msg) {
    std::cerr << "simt run: " << msg << "\n";
    return 1;
  };
  simt::compiler::CompileOptions opt = compileOptions(vm);
  rt::DeviceLimits limits;
  if (engine == "model") limits.maxThreadsPerGroup = simt::model::RunConfig::maxThreadsPerCta();
  if (engine == "device") {
    const simt::host::DeviceGeometry& g = dev->engine->geometry();  // what the board reported
    limits.maxThreadsPerGroup = g.maxThreadsPerCta();
    limits.sharedBytes = g.sharedBytes;
    limits.paramWords = static_cast<uint32_t>(g.paramWords);
  }
  rt::Device device([&](const simt::assembler::Kernel& k, const simt::model::RunConfig& c) {
    return runEngine(k, c, engine, wavePath, dev);
  }, cfg, limits);
  const std::string aliasOpt = vm["alias-opt"].as<std::string>();
  if (aliasOpt != "on" && aliasOpt != "off") return usage("--alias-opt: expected on or off, not '" + aliasOpt + "'");
  device.setAliasOptimisation(aliasOpt == "on");
  std::vector<rt::KernelArg> kargs;
  rt::NDRange range;
  try {
    range = rt::parseRange(vm.count("global") ? vm["global"].as<std::string>() : "",
                           vm.count("local") ? vm["local"].as<std::string>() : "", limits.maxThreadsPerGroup,
                           vm.count("global-offset") ? vm["global-offset"].as<std::string>() : "");
    for (const auto& a : strings(vm, "arg")) kargs.push_back(device.argFromSpec(a));
  } catch (const rt::LaunchError& e) {
    return usage(e.what());
  }
  for (const auto& d : dumps) {
    bool known = false;
    for (const auto& b : device.buffers()) known |= b.name == d.label;
    if (!known) return usage("--dump: no buffer '" + d.label + "'");
  }
  opt.assumeLinearRange = rt::isLinear(range);
  std::optional<rt::Kernel> kernel;
  try {
    kernel.emplace(device.build(file, opt));
  } catch (const simt::compiler::CompileError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  const simt::compiler::CompiledKernel& ck = kernel->compiled();
  const bool cached = kernel->fromCache();
  if (!ck.diagnostics.empty() && !cached) std::cerr << ck.diagnostics;
  kernel->setArgs(kargs);
  rt::Device::Run run;
  try {
    run = device.enqueue(*kernel, range);
  } catch (const rt::LaunchError& e) {
    return usage(e.what());
  } catch (const simt::host::LinkError& e) {
    return linkFailed(*dev, e);
  }
  const simt::model::RunResult& res = run.result;
  const std::vector<rt::Buffer>& after = device.buffers();

  nlohmann::ordered_json j;
  j["status"] = simt::model::runStatusName(res.status);
  j["engine"] = engine;
  j["cycles"] = res.cycles;
  j["instructions"] = res.instructions;
  j["memory"] = nlohmann::ordered_json::object();
  for (const auto& b : after) {
    auto arr = nlohmann::ordered_json::array();
    for (uint32_t w : b.words) arr.push_back(elementJson(b.type, w));
    j["memory"][b.name] = arr;
  }
  j["stats"] = statsJson(res);
  nlohmann::ordered_json c;
  c["kernel"] = ck.name;
  c["variant"] = ck.variant;
  c["code_instructions"] = ck.stats.instructions;
  c["virtual_registers"] = ck.stats.virtualRegisters;
  c["spilled_registers"] = ck.stats.spilledRegisters;
  c["spill_loads"] = ck.stats.spillLoads;
  c["spill_stores"] = ck.stats.spillStores;
  c["frame_bytes"] = ck.frameBytes;
  c["local_bytes"] = run.localBytes;
  c["divergent_branches"] = ck.stats.divergentBranches;
  c["uniform_branches"] = ck.stats.uniformBranches;
  c["reconvergence_tokens"] = ck.stats.reconvergenceTokens;
  c["unnested_branches"] = ck.stats.unnestedBranches;
  c["structurized"] = ck.structurized;
  c["yields"] = ck.stats.yields;
  c["compile_ms"] = ck.stats.milliseconds;
  c["cached"] = cached;
  c["work_groups"] = run.workGroups;
  c["work_group_size"] = run.workGroupSize;
  c["alias"] = aliasJson(ck, run.alias, aliasOpt == "on");
  j["compile"] = c;
  if (engine == "device") j["device"] = deviceJson(*dev);
  if (!res.message.empty()) j["message"] = res.message;

  const std::string jsonPath = vm.count("json") ? vm["json"].as<std::string>() : "";
  if (jsonPath != "-") {
    std::cout << file << " (" << ck.name << "): " << simt::model::runStatusName(res.status) << " (engine " << engine
              << ", divergence " << div << "): " << res.cycles << " cycles, " << res.instructions
              << " warp-instructions, " << res.threadInstructions << " thread-instructions; " << run.workGroups
              << " work-groups of " << run.workGroupSize << "\n";
    if (run.alias.checked) printAliasSummary(ck, run.alias);
    for (const auto& b : after) {
      bool dumped = dumps.empty();
      size_t limit = b.words.size();  // --dump NAME:WORDS prints the first WORDS elements
      for (const auto& d : dumps) {
        if (d.label != b.name) continue;
        dumped = true;
        if (d.words >= 0) limit = std::min(limit, static_cast<size_t>(d.words));
      }
      if (!dumped) continue;
      std::cout << "  " << b.name << ":";
      for (size_t i = 0; i < limit; ++i) {
        if (i == 64 && dumps.empty()) {
          std::cout << " ... (" << b.words.size() << " elements; --json has all)";
          break;
        }
        std::cout << " " << elementJson(b.type, b.words[i]).dump();
      }
      std::cout << "\n";
    }
    if (engine == "device") printDeviceSummary(*dev);
  }
  std::cout.flush();
  if (!res.message.empty()) std::cerr << res.message << "\n";
  if (!writeJson(j, jsonPath)) return 1;
  return simt::model::exitCode(res.status);
}

// The access metadata as assembly comments ahead of the code (docs/compiler.md).
std::string referencesComment(const simt::compiler::CompiledKernel& ck) {
  std::ostringstream os;
  os << "; memory references (seed 004 access metadata" << (ck.referencesComplete ? "" : "; incomplete") << "):\n";
  for (const auto& r : ck.references) {
    os << ";   " << argName(ck, r.arg) << (r.reads ? " read" : "") << (r.writes ? " write" : "") << " " << r.bytes
       << " bytes at +" << (r.offset.empty() ? "unknown" : r.offset) << " (line " << r.line << ")\n";
  }
  return os.str();
}

int cmdCc(const std::vector<std::string>& args) {
  po::options_description desc("simt cc FILE.cl [options]");
  desc.add_options()("help,h", "show this help")
      ("kernel", po::value<std::string>(), "the kernel to compile (default: the file's only kernel)")
      ("define,D", po::value<std::vector<std::string>>()->composing(), "NAME[=VALUE] macro")
      ("include,I", po::value<std::vector<std::string>>()->composing(), "include directory")
      ("structurize", "run LLVM's StructurizeCFG where divergent branches do not nest")
      ("subroutines", "noinline functions become subroutines (cal/ret) instead of being inlined")
      ("alias-opt", "also print the alias-optimised variant (seed 004) for a launch whose pointer "
                    "arguments are pairwise disjoint and 16-byte aligned")
      ("alias-facts", po::value<std::string>(), "with --alias-opt: the variant for these facts instead, as "
                                                "simt run's JSON gives them (\"noalias 0 1; align 0:16 1:16; lowzero 2:4\")")
      ("output,o", po::value<std::string>(), "write the assembly to OUT.s (default: stdout)");
  po::variables_map vm;
  if (!parseCommandLine("cc", desc, args, vm)) return 1;
  if (vm.count("help")) {
    std::cout << desc;
    return 0;
  }
  if (!vm.count("file") || vm["file"].as<std::vector<std::string>>().size() != 1) {
    std::cerr << "simt cc: exactly one FILE.cl expected\n";
    return 1;
  }
  const simt::compiler::CompileOptions opt = compileOptions(vm);
  simt::compiler::CompiledKernel ck;
  try {
    ck = simt::compiler::compileFile(vm["file"].as<std::vector<std::string>>()[0], opt);
  } catch (const simt::compiler::CompileError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  if (!ck.diagnostics.empty()) std::cerr << ck.diagnostics;
  if (vm.count("alias-facts") && !vm.count("alias-opt")) {
    std::cerr << "simt cc: --alias-facts goes with --alias-opt\n";
    return 1;
  }
  std::string text = referencesComment(ck) + ck.assembly;
  if (vm.count("alias-opt")) {
    simt::compiler::CompileOptions vopt = opt;
    if (vm.count("alias-facts")) {
      try {
        vopt.alias = simt::compiler::AliasFacts::parse(vm["alias-facts"].as<std::string>());
      } catch (const simt::compiler::CompileError& e) {
        std::cerr << "simt cc: " << e.what() << "\n";
        return 1;
      }
    }
    for (size_t i = 0; i < ck.args.size() && !vm.count("alias-facts"); ++i) {
      const auto k = ck.args[i].kind;
      if (k != simt::compiler::ArgKind::GlobalPtr && k != simt::compiler::ArgKind::ConstantPtr) continue;
      vopt.alias.noalias.push_back(static_cast<int>(i));
      vopt.alias.alignment.emplace_back(static_cast<int>(i), 16);
    }
    if (!vopt.alias.permitsOptimisation() || (!vm.count("alias-facts") && vopt.alias.noalias.size() < 2)) {
      text += "\n; no alias-optimised variant: fewer than two pointer arguments, or facts without noalias or distance\n";
    } else if (!ck.referencesComplete) {
      text += "\n; no alias-optimised variant: a reference not traced to an argument\n";
    } else {
      try {
        text += "\n" + simt::compiler::compileFile(vm["file"].as<std::vector<std::string>>()[0], vopt).assembly;
      } catch (const simt::compiler::CompileError& e) {
        std::cerr << e.what() << "\n";
        return 1;
      }
    }
  }
  if (vm.count("output")) {
    std::ofstream out(vm["output"].as<std::string>());
    if (!out) {
      std::cerr << "simt cc: cannot write " << vm["output"].as<std::string>() << "\n";
      return 1;
    }
    out << text;
  } else {
    std::cout << text;
  }
  return 0;
}
#endif

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
#ifdef SIMT_WITH_COMPILER
  if (cmd == "cc") return cmdCc(rest);
#else
  if (cmd == "cc") {
    std::cerr << "simt cc: this build has no OpenCL compiler (clang-16/llvm-16-dev missing)\n";
    return 1;
  }
#endif
  std::cerr << "simt: unknown command '" << cmd << "'\n" << kUsage;
  return 1;
}
