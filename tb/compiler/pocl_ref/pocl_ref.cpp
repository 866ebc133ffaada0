// simt_pocl_ref: runs an OpenCL C kernel on another OpenCL implementation (PoCL, Debian's
// pocl-opencl-icd, through the ICD loader) with the arguments of `simt run FILE.cl`
// (KERNELS.md section 2, parsed by the same code: sim/runtime/cl_args.h) and prints the
// buffers in the same forms: the summary's `  NAME: v v v` lines and the JSON "memory"
// object. tb/compiler/pocl_ref/compare_memory.py compares two JSON results. A second
// reference for the compiler that nobody on this project wrote (docs/compiler.md,
// "PoCL as a reference").
//
// usage: simt_pocl_ref FILE.cl --global G[,G[,G]] [--local L,..] [--kernel NAME]
//          [--arg SPEC]... [-D NAME[=V]]... [-I DIR]... [--dump NAME[:WORDS]]...
//          [--json PATH|-] [--timeout SECONDS] [--platform SUBSTRING]
// exit: 0 ok, 1 usage/build/launch error, 3 timeout (a kernel that waits on a later
// work-item of its work-group never finishes on PoCL, which runs them one after another).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/cl_args.h"

namespace po = boost::program_options;
namespace rt = simt::runtime;

namespace {

// A failure to report and exit 1 with.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cl_int err, const std::string& what) {
  if (err != CL_SUCCESS) throw Failure(what + " failed (OpenCL error " + std::to_string(err) + ")");
}

// RAII for OpenCL objects: one owner, released on destruction.
template <typename T, cl_int (*Release)(T)>
class ClHandle {
 public:
  ClHandle() = default;
  explicit ClHandle(T h) : h_(h) {}
  ClHandle(const ClHandle&) = delete;
  ClHandle& operator=(const ClHandle&) = delete;
  ClHandle(ClHandle&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  ClHandle& operator=(ClHandle&& o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  ~ClHandle() {
    if (h_) Release(h_);
  }
  T get() const { return h_; }

 private:
  T h_ = nullptr;
};
using Context = ClHandle<cl_context, clReleaseContext>;
using Queue = ClHandle<cl_command_queue, clReleaseCommandQueue>;
using Program = ClHandle<cl_program, clReleaseProgram>;
using KernelH = ClHandle<cl_kernel, clReleaseKernel>;
using Mem = ClHandle<cl_mem, clReleaseMemObject>;

// A string query of the clGet*Info kind: get(size, buffer, &sizeReturned).
template <typename Get>
std::string infoString(Get get, const std::string& what) {
  size_t n = 0;
  check(get(0, nullptr, &n), what);
  std::string s(n, '\0');
  check(get(n, s.data(), nullptr), what);
  if (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string deviceName(cl_device_id d) {
  return infoString(
      [&](size_t n, void* v, size_t* r) { return clGetDeviceInfo(d, CL_DEVICE_NAME, n, v, r); },
      "CL_DEVICE_NAME");
}

// The first device of the first platform whose name contains `want`.
std::pair<cl_platform_id, cl_device_id> findDevice(const std::string& want) {
  cl_uint n = 0;
  if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) {
    throw Failure("no OpenCL platform (install pocl-opencl-icd and ocl-icd-libopencl1)");
  }
  std::vector<cl_platform_id> ps(n);
  check(clGetPlatformIDs(n, ps.data(), nullptr), "clGetPlatformIDs");
  std::string seen;
  for (cl_platform_id p : ps) {
    const std::string name =
        infoString([&](size_t k, void* v,
                       size_t* r) { return clGetPlatformInfo(p, CL_PLATFORM_NAME, k, v, r); },
                   "CL_PLATFORM_NAME");
    seen += (seen.empty() ? "" : ", ") + name;
    if (name.find(want) == std::string::npos) continue;
    cl_device_id d = nullptr;
    check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, nullptr), "clGetDeviceIDs");
    return {p, d};
  }
  throw Failure("no OpenCL platform named like '" + want + "' (platforms: " + seen + ")");
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Failure("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string buildLog(cl_program p, cl_device_id d) {
  return infoString(
      [&](size_t n, void* v, size_t* r) {
        return clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, v, r);
      },
      "CL_PROGRAM_BUILD_LOG");
}

// The kernel to run: --kernel, else the program's only kernel.
std::string kernelName(cl_program prog, const std::string& wanted) {
  if (!wanted.empty()) return wanted;
  const std::string names = infoString(
      [&](size_t n, void* v, size_t* r) {
        return clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, n, v, r);
      },
      "CL_PROGRAM_KERNEL_NAMES");
  if (names.empty() || names.find(';') != std::string::npos) {
    throw Failure("the program has kernels '" + names + "': choose one with --kernel");
  }
  return names;
}

cl_kernel_arg_address_qualifier addressQualifier(cl_kernel k, cl_uint i) {
  cl_kernel_arg_address_qualifier q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  check(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr),
        "clGetKernelArgInfo");
  return q;
}

std::string argTypeName(cl_kernel k, cl_uint i) {
  return infoString(
      [&](size_t n, void* v, size_t* r) {
        return clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, n, v, r);
      },
      "CL_KERNEL_ARG_TYPE_NAME");
}

// A buffer element as the CLI prints it (sim/cli/simt.cpp: i32 signed, u32 unsigned, f32 a
// number through the same JSON library).
nlohmann::ordered_json elementJson(rt::ElemType t, uint32_t w) {
  if (t == rt::ElemType::I32) return static_cast<int32_t>(w);
  if (t == rt::ElemType::U32) return w;
  float f = 0;
  std::memcpy(&f, &w, 4);
  return f;
}

extern "C" void onAlarm(int) {
  static const char msg[] =
      "simt_pocl_ref: timeout (the kernel did not finish; a work-item that "
      "waits on a later one of its work-group never does on PoCL)\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  _exit(3);
}

struct Options {
  std::string file, kernel, global, local, offset, jsonPath, platform = "Portable";
  std::vector<std::string> args, defines, includes, dumps;
  unsigned timeout = 60;
};

int run(const Options& o) {
  std::vector<rt::Buffer> buffers;
  std::vector<rt::KernelArg> kargs;
  const rt::NDRange range = rt::parseRange(o.global, o.local, 1 << 16, o.offset);
  for (const auto& a : o.args) kargs.push_back(rt::parseArg(a, buffers));

  const auto [platform, device] = findDevice(o.platform);
  cl_int err = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(platform), 0};
  Context ctx(clCreateContext(props, 1, &device, nullptr, nullptr, &err));
  check(err, "clCreateContext");
  Queue queue(clCreateCommandQueue(ctx.get(), device, 0, &err));
  check(err, "clCreateCommandQueue");

  const std::string source = readFile(o.file);
  const char* src = source.c_str();
  Program prog(clCreateProgramWithSource(ctx.get(), 1, &src, nullptr, &err));
  check(err, "clCreateProgramWithSource");
  // As `simt cc`: the file's directory first for #include, then -I, the -D macros.
  const auto slash = o.file.find_last_of('/');
  std::string opts = "-cl-std=CL1.2 -cl-kernel-arg-info -I " +
                     (slash == std::string::npos ? std::string(".") : o.file.substr(0, slash));
  for (const auto& i : o.includes) opts += " -I " + i;
  for (const auto& d : o.defines) opts += " -D " + d;
  if (clBuildProgram(prog.get(), 1, &device, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    std::cerr << buildLog(prog.get(), device) << "\n";
    throw Failure(o.file + ": the OpenCL build failed (options: " + opts + ")");
  }
  const std::string kname = kernelName(prog.get(), o.kernel);
  KernelH kern(clCreateKernel(prog.get(), kname.c_str(), &err));
  check(err, "clCreateKernel " + kname);
  cl_uint nargs = 0;
  check(clGetKernelInfo(kern.get(), CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, nullptr),
        "CL_KERNEL_NUM_ARGS");
  if (nargs != kargs.size()) {
    throw Failure("kernel '" + kname + "' takes " + std::to_string(nargs) + " argument(s), " +
                  std::to_string(kargs.size()) + " --arg given");
  }

  // One device buffer per buf:, filled with its INIT; view: is a sub-buffer of it.
  std::vector<Mem> mems;
  auto indexOf = [&](const std::string& name) {
    for (size_t i = 0; i < buffers.size(); ++i) {
      if (buffers[i].name == name) return i;
    }
    throw Failure("no buffer '" + name + "'");
  };
  for (auto& b : buffers) {
    mems.emplace_back(clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                     b.words.size() * 4, b.words.data(), &err));
    check(err, "clCreateBuffer " + b.name);
  }
  std::vector<Mem> views;
  for (cl_uint i = 0; i < nargs; ++i) {
    const rt::KernelArg& a = kargs[i];
    const auto q = addressQualifier(kern.get(), i);
    const std::string what = "--arg " + std::to_string(i + 1) + " '" + a.spec + "'";
    const bool wantsGlobal =
        q == CL_KERNEL_ARG_ADDRESS_GLOBAL || q == CL_KERNEL_ARG_ADDRESS_CONSTANT;
    if (a.kind == rt::KernelArg::Scalar) {
      if (q != CL_KERNEL_ARG_ADDRESS_PRIVATE) throw Failure(what + ": the parameter is a pointer");
      const bool isFloat = argTypeName(kern.get(), i) == "float";
      if (isFloat != a.isFloat)
        throw Failure(what + ": the parameter is " + argTypeName(kern.get(), i));
      if (a.is64) {  // long, ulong
        const uint64_t v = uint64_t{a.high} << 32 | a.value;
        check(clSetKernelArg(kern.get(), i, 8, &v), what);
      } else {
        check(clSetKernelArg(kern.get(), i, 4, &a.value), what);
      }
    } else if (a.kind == rt::KernelArg::Local) {
      if (q != CL_KERNEL_ARG_ADDRESS_LOCAL) throw Failure(what + ": the parameter is not __local");
      check(clSetKernelArg(kern.get(), i, a.localBytes, nullptr), what);
    } else if (a.kind == rt::KernelArg::BufferArg) {
      if (!wantsGlobal) throw Failure(what + ": the parameter is not a __global pointer");
      const cl_mem m = mems[indexOf(a.buffer)].get();
      check(clSetKernelArg(kern.get(), i, sizeof m, &m), what);
    } else {
      if (!wantsGlobal) throw Failure(what + ": the parameter is not a __global pointer");
      const size_t b = indexOf(a.buffer);
      const cl_buffer_region region{a.offset * 4u, (buffers[b].words.size() - a.offset) * 4};
      views.emplace_back(clCreateSubBuffer(mems[b].get(), CL_MEM_READ_WRITE,
                                           CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
      if (err == CL_MISALIGNED_SUB_BUFFER_OFFSET) {
        throw Failure(what +
                      ": this OpenCL device needs a view's byte offset aligned to its "
                      "CL_DEVICE_MEM_BASE_ADDR_ALIGN");
      }
      check(err, what + ": clCreateSubBuffer");
      const cl_mem m = views.back().get();
      check(clSetKernelArg(kern.get(), i, sizeof m, &m), what);
    }
  }

  std::signal(SIGALRM, onAlarm);
  alarm(o.timeout);
  const size_t global[3] = {range.global[0], range.global[1], range.global[2]};
  const size_t local[3] = {range.local[0], range.local[1], range.local[2]};
  const size_t offset[3] = {range.offset[0], range.offset[1], range.offset[2]};
  check(clEnqueueNDRangeKernel(queue.get(), kern.get(), static_cast<cl_uint>(range.dims), offset,
                               global, local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clFinish(queue.get()), "clFinish");
  alarm(0);
  for (size_t b = 0; b < buffers.size(); ++b) {
    check(clEnqueueReadBuffer(queue.get(), mems[b].get(), CL_TRUE, 0, buffers[b].words.size() * 4,
                              buffers[b].words.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer " + buffers[b].name);
  }

  const size_t groupSize = size_t{range.local[0]} * range.local[1] * range.local[2];
  const size_t groups = size_t{range.global[0]} * range.global[1] * range.global[2] / groupSize;
  nlohmann::ordered_json j;
  j["status"] = "ok";
  j["engine"] = "pocl";
  j["device"] = deviceName(device);
  j["memory"] = nlohmann::ordered_json::object();
  for (const auto& b : buffers) {
    auto arr = nlohmann::ordered_json::array();
    for (uint32_t w : b.words) arr.push_back(elementJson(b.type, w));
    j["memory"][b.name] = arr;
  }
  j["compile"] = {{"kernel", kname}, {"work_groups", groups}, {"work_group_size", groupSize}};
  if (o.jsonPath != "-") {
    std::cout << o.file << " (" << kname << "): ok (engine pocl, " << deviceName(device)
              << "): " << groups << " work-groups of " << groupSize << "\n";
    for (const auto& b : buffers) {
      // --dump NAME[:WORDS] as in simt run: only those buffers, the first WORDS elements.
      bool dumped = o.dumps.empty();
      size_t limit = b.words.size();
      for (const auto& d : o.dumps) {
        const auto colon = d.find(':');
        if (d.substr(0, colon) != b.name) continue;
        dumped = true;
        if (colon != std::string::npos) limit = std::min(limit, std::stoul(d.substr(colon + 1)));
      }
      if (!dumped) continue;
      std::cout << "  " << b.name << ":";
      for (size_t i = 0; i < limit; ++i) {
        if (i == 64 && o.dumps.empty()) {
          std::cout << " ... (" << b.words.size() << " elements; --json has all)";
          break;
        }
        std::cout << " " << elementJson(b.type, b.words[i]).dump();
      }
      std::cout << "\n";
    }
  }
  if (!o.jsonPath.empty()) {
    if (o.jsonPath == "-") {
      std::cout << j.dump() << "\n";
    } else {
      std::ofstream out(o.jsonPath);
      if (!(out << j.dump() << "\n")) throw Failure("cannot write " + o.jsonPath);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  po::options_description desc("simt_pocl_ref FILE.cl [options] (the forms of simt run FILE.cl)");
  desc.add_options()("help,h", "this text")("kernel", po::value(&o.kernel),
                                            "the kernel (default: the file's only kernel)")(
      "global", po::value(&o.global), "global size G[,G[,G]]")(
      "local", po::value(&o.local), "work-group size L[,L[,L]] (default: simt run's choice)")(
      "global-offset", po::value(&o.offset), "first global id O[,O[,O]] (default 0)")(
      "arg", po::value(&o.args)->composing(), "one per kernel parameter, as simt run")(
      "define,D", po::value(&o.defines)->composing(), "NAME[=VALUE] macro")(
      "include,I", po::value(&o.includes)->composing(), "include directory")(
      "dump", po::value(&o.dumps)->composing(), "NAME[:WORDS]: print only these buffers")(
      "json", po::value(&o.jsonPath), "write the result as JSON to PATH (- for stdout)")(
      "timeout", po::value(&o.timeout), "seconds before giving up (exit 3; default 60)")(
      "platform", po::value(&o.platform), "OpenCL platform name substring (default Portable)")(
      "file", po::value(&o.file), "FILE.cl");
  po::positional_options_description pos;
  pos.add("file", 1);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(desc).positional(pos).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << desc << "\n";
      return 0;
    }
    if (o.file.empty()) throw Failure("FILE.cl expected");
    return run(o);
  } catch (const po::error& e) {
    std::cerr << "simt_pocl_ref: " << e.what() << "\n";
  } catch (const rt::LaunchError& e) {
    std::cerr << "simt_pocl_ref: " << e.what() << "\n";
  } catch (const Failure& e) {
    std::cerr << "simt_pocl_ref: " << e.what() << "\n";
  }
  return 1;
}
