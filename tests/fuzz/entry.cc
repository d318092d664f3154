// libFuzzer's entry point for one target of targets.h, named at build
// time (GEM_FUZZ_TARGET, see BUILD.bazel).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gem::fuzz::GEM_FUZZ_TARGET(data, size);
}
