// Where tests find the replay fixtures and golden files.
//
// GEM_FIXTURES (default: ../shared/fixtures beside the checkout) and
// GEM_GOLDEN (default: the fixtures' sibling "golden"). Under `bazel test`
// the checkout is found by following the runfiles link of
// tests/support/workspace_anchor.txt back to the source tree.
#ifndef GEM_TESTS_TEST_ENV_H_
#define GEM_TESTS_TEST_ENV_H_

#include <string>
#include <vector>

namespace gem::testing {

std::string FixturesDir();
std::string GoldenDir();

// Full path of a fixture, or "" when it is not there.
std::string FixturePath(const std::string& name);

// Every *.dem file in the fixtures directory, sorted.
std::vector<std::string> AllFixtures();

// Reads a whole file; false when it cannot be read.
bool ReadFile(const std::string& path, std::string* out);

}  // namespace gem::testing

// Skips the current test, saying which fixture is missing and where it was
// looked for. Use when a test needs a fixture file.
#define GEM_REQUIRE_FIXTURE(var, name)                                    \
  std::string var = ::gem::testing::FixturePath(name);                    \
  if (var.empty()) {                                                      \
    GTEST_SKIP() << "SKIPPED: fixture " << (name) << " not found in "     \
                 << ::gem::testing::FixturesDir() << " (set GEM_FIXTURES)"; \
  }

#endif  // GEM_TESTS_TEST_ENV_H_
