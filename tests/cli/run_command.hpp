#pragma once
// Runs a program as a subprocess and captures its stdout, stderr and exit code (tests of the
// `grbda` command). stdout/stderr go to temporary files, so a chatty child cannot block on a pipe.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace grbda::testing {

struct CommandResult {
  int exitCode = -1;  ///< the exit status, or 128 + signal number if the child was killed
  std::string out, err;
};

namespace run_detail {
inline std::string slurpAndRemove(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  std::remove(path.c_str());
  return s.str();
}

inline std::string makeTempFile(int& fd) {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/grbda_cli_test_XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  fd = mkstemp(buf.data());
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  return std::string(buf.data());
}
}  // namespace run_detail

/// Runs `program` with `args` (no shell: arguments are passed verbatim).
inline CommandResult runCommand(const std::string& program, const std::vector<std::string>& args) {
  int outFd = -1, errFd = -1;
  const std::string outPath = run_detail::makeTempFile(outFd);
  const std::string errPath = run_detail::makeTempFile(errFd);
  std::vector<std::string> all{program};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(outFd, STDOUT_FILENO);
    dup2(errFd, STDERR_FILENO);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  close(outFd);
  close(errFd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  CommandResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = run_detail::slurpAndRemove(outPath);
  r.err = run_detail::slurpAndRemove(errPath);
  return r;
}

}  // namespace grbda::testing
