// A small JSON reader for tests: enough for the golden files and gem-dump's
// output. Numbers keep their text so 64-bit integers stay exact.
#ifndef GEM_TESTS_JSON_H_
#define GEM_TESTS_JSON_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gem::testing {

struct Json {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool b = false;
  std::string text;  // number text, or string value
  std::vector<Json> items;                           // arrays
  std::vector<std::pair<std::string, Json>> fields;  // objects, in order

  bool is_null() const { return type == Type::kNull; }
  double number() const;
  bool is_integer() const;  // a number written without '.', 'e' or 'E'
  // Member lookup; nullptr when absent or not an object.
  const Json* Get(std::string_view key) const;
};

// Parses one JSON document; false with *error set on malformed input.
bool ParseJson(std::string_view text, Json* out, std::string* error);

}  // namespace gem::testing

#endif  // GEM_TESTS_JSON_H_
