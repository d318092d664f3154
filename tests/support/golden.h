// Reading the golden reference files (../shared/golden/<fixture>/).
#ifndef GEM_TESTS_GOLDEN_H_
#define GEM_TESTS_GOLDEN_H_

#include <map>
#include <string>
#include <vector>

namespace gem::testing {

// The golden directory of one fixture, e.g. GoldenDir() + "/dota2_haste_nekit".
std::string GoldenFixtureDir(const std::string& fixture_stem);

// Reads a gzip file whole; false when it cannot be read.
bool ReadGzip(const std::string& path, std::string* out);

// A TSV file as rows of cells, header row excluded.
bool ReadTsv(const std::string& path, std::vector<std::vector<std::string>>* rows);

// summary.txt as key -> value.
bool ReadSummary(const std::string& path, std::map<std::string, std::string>* out);

// Splits text into lines (no terminators, empty lines dropped).
std::vector<std::string> SplitLines(const std::string& text);

}  // namespace gem::testing

#endif  // GEM_TESTS_GOLDEN_H_
