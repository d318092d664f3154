#include "core/fields/field_type.h"

#include <charconv>

namespace gem {
namespace {

// Array sizes that serializers give by name. Counts not in this table fall
// back to 1024 elements (large enough for any index seen in practice).
struct NamedCount {
  const char* name;
  int count;
};
constexpr NamedCount kNamedCounts[] = {
    {"MAX_ITEM_STOCKS", 8},
    {"MAX_ABILITY_DRAFT_ABILITIES", 48},
};
constexpr int kUnknownCount = 1024;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

int LookupArrayCountConstant(std::string_view name) {
  for (const NamedCount& nc : kNamedCounts) {
    if (name == nc.name) return nc.count;
  }
  return 0;
}

std::unique_ptr<FieldType> ParseFieldType(std::string_view text) {
  auto type = std::make_unique<FieldType>();
  size_t base_end = text.find_first_of("<[*");
  type->base = std::string(base_end == std::string_view::npos
                               ? text
                               : text.substr(0, base_end));
  if (base_end == std::string_view::npos) return type;
  std::string_view rest = text.substr(base_end);

  if (rest.front() == '<') {
    // The generic argument runs to the last '>' (arguments nest).
    size_t close = rest.rfind('>');
    if (close == std::string_view::npos || close == 0) return type;
    type->generic = ParseFieldType(Trim(rest.substr(1, close - 1)));
    rest = rest.substr(close + 1);
  }
  if (!rest.empty() && rest.front() == '*') {
    type->pointer = true;
    rest.remove_prefix(1);
  }
  if (!rest.empty() && rest.front() == '[') {
    size_t close = rest.find(']');
    std::string_view count_text =
        Trim(rest.substr(1, close == std::string_view::npos ? std::string_view::npos
                                                            : close - 1));
    int n = 0;
    auto res = std::from_chars(count_text.data(),
                               count_text.data() + count_text.size(), n);
    if (res.ec == std::errc() && res.ptr == count_text.data() + count_text.size() &&
        n > 0) {
      type->count = n;
    } else if (int named = LookupArrayCountConstant(count_text); named > 0) {
      type->count = named;
    } else if (!count_text.empty()) {
      type->count = kUnknownCount;
      type->count_unknown = true;
    }
  }
  return type;
}

std::string FieldType::ToString() const {
  std::string out = base;
  if (generic) {
    out += '<';
    out += generic->ToString();
    out += '>';
  }
  if (pointer) out += '*';
  if (count > 0) {
    out += '[';
    out += std::to_string(count);
    out += ']';
  }
  return out;
}

}  // namespace gem
