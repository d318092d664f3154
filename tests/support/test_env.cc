#include "tests/support/test_env.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace gem::testing {
namespace {

bool IsDir(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string Dirname(const std::string& p) {
  size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? "." : p.substr(0, slash);
}

// The source checkout: the real location of the runfiles anchor file.
std::string CheckoutDir() {
  const char* srcdir = getenv("TEST_SRCDIR");
  const char* workspace = getenv("TEST_WORKSPACE");
  std::string anchor = "tests/support/workspace_anchor.txt";
  if (srcdir != nullptr && workspace != nullptr) {
    anchor = std::string(srcdir) + "/" + workspace + "/" + anchor;
  }
  char real[PATH_MAX];
  if (realpath(anchor.c_str(), real) == nullptr) return ".";
  return Dirname(Dirname(Dirname(real)));
}

}  // namespace

std::string FixturesDir() {
  if (const char* env = getenv("GEM_FIXTURES"); env != nullptr && *env) return env;
  return CheckoutDir() + "/../shared/fixtures";
}

std::string GoldenDir() {
  if (const char* env = getenv("GEM_GOLDEN"); env != nullptr && *env) return env;
  return Dirname(FixturesDir()) + "/golden";
}

std::string FixturePath(const std::string& name) {
  std::string p = FixturesDir() + "/" + name;
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? p : "";
}

std::vector<std::string> AllFixtures() {
  std::vector<std::string> out;
  std::string dir = FixturesDir();
  if (!IsDir(dir)) return out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 4 && n.compare(n.size() - 4, 4, ".dem") == 0) out.push_back(n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

}  // namespace gem::testing
