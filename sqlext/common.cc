#include "sqlext/common.h"

#include <cctype>

namespace gem::sqlext {

void ResultValue(sqlite3_context* ctx, const Value& v) {
  switch (v.kind) {
    case ValueKind::kNone:
      sqlite3_result_null(ctx);
      return;
    case ValueKind::kBool:
      sqlite3_result_int(ctx, v.b ? 1 : 0);
      return;
    case ValueKind::kInt:
      sqlite3_result_int64(ctx, v.i);
      return;
    case ValueKind::kUint:
      sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(v.u));
      return;
    case ValueKind::kFloat:
      sqlite3_result_double(ctx, static_cast<double>(v.f));
      return;
    case ValueKind::kVector: {
      char json[kMaxVectorJson + 1];
      char* end = WriteVectorJson(v, json);
      *end = '\0';
      // No NUL inside: -1 tells SQLite its copy ends in one (ResultText).
      sqlite3_result_text(ctx, json, -1, SQLITE_TRANSIENT);
      return;
    }
    case ValueKind::kString:
      // A view of a blob: nothing says a NUL follows it.
      sqlite3_result_text(ctx, v.s.data(), static_cast<int>(v.s.size()), SQLITE_TRANSIENT);
      return;
  }
  sqlite3_result_null(ctx);
}

bool FieldFilter::Matches(std::string_view name) const {
  if (!active) return true;
  if (has_names) {
    bool any = false;
    for (const std::string& n : names) any |= (n == name);
    if (!any) return false;
  }
  if (has_like) {
    if (name.size() < like_prefix.size()) return false;
    for (size_t i = 0; i < like_prefix.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(name[i])) !=
          std::tolower(static_cast<unsigned char>(like_prefix[i]))) {
        return false;
      }
    }
  }
  if (has_glob && name.substr(0, glob_prefix.size()) != glob_prefix) return false;
  return true;
}

std::string FieldFilter::LikePrefix(std::string_view pattern) {
  size_t end = pattern.find_first_of("%_");
  return std::string(pattern.substr(0, end));
}

std::string FieldFilter::GlobPrefix(std::string_view pattern) {
  size_t end = pattern.find_first_of("*?[");
  return std::string(pattern.substr(0, end));
}

std::string ArgText(sqlite3_value* v) {
  if (v == nullptr || sqlite3_value_type(v) == SQLITE_NULL) return "";
  const unsigned char* t = sqlite3_value_text(v);
  return t ? std::string(reinterpret_cast<const char*>(t), sqlite3_value_bytes(v)) : "";
}

void SetVtabError(sqlite3_vtab* vtab, const std::string& message) {
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = sqlite3_mprintf("%s", message.c_str());
}

}  // namespace gem::sqlext
