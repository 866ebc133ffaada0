#include "compiler/frontend.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#ifndef SIMT_CLANG
#define SIMT_CLANG "clang-16"
#endif
#ifndef SIMT_COMPILER_INCLUDE_DIR
#define SIMT_COMPILER_INCLUDE_DIR "."
#endif

namespace simt::compiler {

namespace {

// A private temporary directory, removed with its files.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/simt-cc-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw CompileError(std::string("error: cannot create a temporary directory: ") + std::strerror(errno));
    path_ = buf.data();
  }
  ~TempDir() {
    for (const auto& f : files_) ::unlink(f.c_str());
    ::rmdir(path_.c_str());
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) {
    files_.push_back(path_ + "/" + name);
    return files_.back();
  }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs argv with stderr sent to errPath; returns the exit status (or -1).
int runProcess(const std::vector<std::string>& argv, const std::string& errPath) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    const int fd = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      ::dup2(fd, 2);
      ::close(fd);
    }
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "error: cannot run %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::vector<std::string> clangCommand(const std::string& path, const CompileOptions& opt,
                                      const std::string& output) {
  std::vector<std::string> cmd = {SIMT_CLANG, "-x", "cl", "-cl-std=CL1.2", "-target", "spir",
                                  "-Xclang", "-finclude-default-header",
                                  // The device has no doubles: without cl_khr_fp64 an unsuffixed
                                  // literal (x * 1.5) is a float, as on any such OpenCL device,
                                  // and a `double` a Clang error naming the line.
                                  "-Xclang", "-cl-ext=-cl_khr_fp64",
                                  "-include", std::string(SIMT_COMPILER_INCLUDE_DIR) + "/simt.h",
                                  "-O2", "-fno-vectorize", "-fno-slp-vectorize", "-fno-unroll-loops",
                                  // closed forms of loop exit values use wider integers (i33)
                                  "-mllvm", "-replexitval=never",
                                  "-gline-tables-only", "-fno-color-diagnostics",
                                  "-cl-kernel-arg-info", "-emit-llvm", "-c"};
  for (const auto& d : opt.defines) cmd.push_back("-D" + d);
  for (const auto& i : opt.includeDirs) cmd.push_back("-I" + i);
  cmd.push_back("-o");
  cmd.push_back(output);
  cmd.push_back(path);
  return cmd;
}

FrontendResult runFrontend(const std::string& path, const CompileOptions& opt, llvm::LLVMContext& ctx) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    throw CompileError(path + ": error: cannot read the kernel file");
  }
  TempDir tmp;
  const std::string bc = tmp.file("kernel.bc");
  const std::string err = tmp.file("clang.err");
  const std::string deps = tmp.file("kernel.d");
  auto cmd = clangCommand(path, opt, bc);
  cmd.insert(cmd.end() - 1, {"-MMD", "-MF", deps});
  const int rc = runProcess(cmd, err);
  FrontendResult res;
  res.diagnostics = readAll(err);
  if (rc != 0) {
    std::string d = res.diagnostics;
    if (d.empty()) d = path + ": error: clang failed (status " + std::to_string(rc) + ")\n";
    while (!d.empty() && d.back() == '\n') d.pop_back();
    throw CompileError(d);
  }
  auto buf = llvm::MemoryBuffer::getFile(bc);
  if (!buf) throw CompileError(path + ": error: clang produced no bitcode");
  auto mod = llvm::parseBitcodeFile((*buf)->getMemBufferRef(), ctx);
  if (!mod) {
    std::string msg;
    llvm::handleAllErrors(mod.takeError(), [&](const llvm::ErrorInfoBase& e) { msg = e.message(); });
    throw CompileError(path + ": error: cannot read clang's bitcode: " + msg);
  }
  res.module = std::move(*mod);
  // kernel.bc: FILE.cl header.h ... (make syntax, lines continued with a backslash)
  std::istringstream d(readAll(deps));
  std::string tok;
  bool target = true;
  while (d >> tok) {
    if (target) {
      target = tok.back() != ':';
      continue;
    }
    if (tok != "\\") res.sources.push_back(tok);
  }
  return res;
}

}  // namespace simt::compiler
