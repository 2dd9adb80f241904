#pragma once
// A temporary directory for tests that write files (models, trajectories, pages); removed with
// the files written through it at the end of the test.
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace grbda::testing {

struct TempDir {
  std::string path;
  std::vector<std::string> files;
  TempDir() {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/grbda_test_XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data())) path = buf.data();
  }
  /// The path of `name` in the directory, removed at the end (for files others write).
  std::string file(const std::string& name) {
    files.push_back(path + "/" + name);
    return files.back();
  }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = file(name);
    std::ofstream(p) << text;
    return p;
  }
  ~TempDir() {
    for (const auto& f : files) std::remove(f.c_str());
    if (!path.empty()) rmdir(path.c_str());
  }
};

}  // namespace grbda::testing
