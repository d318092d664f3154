#include "tests/support/golden.h"

#include <zlib.h>

#include "tests/support/test_env.h"

namespace gem::testing {

std::string GoldenFixtureDir(const std::string& fixture_stem) {
  return GoldenDir() + "/" + fixture_stem;
}

bool ReadGzip(const std::string& path, std::string* out) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out->clear();
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out->append(buf, n);
  bool ok = n == 0;
  gzclose(f);
  return ok;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    if (nl > pos) lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

bool ReadTsv(const std::string& path, std::vector<std::vector<std::string>>* rows) {
  std::string text;
  if (!ReadFile(path, &text)) return false;
  rows->clear();
  std::vector<std::string> lines = SplitLines(text);
  for (size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> cells;
    size_t pos = 0;
    for (;;) {
      size_t tab = lines[i].find('\t', pos);
      cells.push_back(lines[i].substr(pos, tab == std::string::npos ? std::string::npos : tab - pos));
      if (tab == std::string::npos) break;
      pos = tab + 1;
    }
    rows->push_back(std::move(cells));
  }
  return true;
}

bool ReadSummary(const std::string& path, std::map<std::string, std::string>* out) {
  std::string text;
  if (!ReadFile(path, &text)) return false;
  for (const std::string& line : SplitLines(text)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    (*out)[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return true;
}

}  // namespace gem::testing
