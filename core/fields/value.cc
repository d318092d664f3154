#include "core/fields/value.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace gem {

const char* ValueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNone: return "none";
    case ValueKind::kBool: return "bool";
    case ValueKind::kInt: return "int";
    case ValueKind::kUint: return "uint";
    case ValueKind::kFloat: return "float";
    case ValueKind::kVector: return "vector";
    case ValueKind::kString: return "string";
  }
  return "unknown";
}

bool Value::SameAs(const Value& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case ValueKind::kNone: return true;
    case ValueKind::kBool: return b == o.b;
    case ValueKind::kInt: return i == o.i;
    case ValueKind::kUint: return u == o.u;
    case ValueKind::kFloat: return std::memcmp(&f, &o.f, sizeof f) == 0;
    case ValueKind::kVector:
      return count == o.count && std::memcmp(v, o.v, sizeof(float) * count) == 0;
    case ValueKind::kString: return s == o.s;
  }
  return false;
}

namespace {

// A float32's shortest round-trip text (at most 15 characters, or "null")
// at `out`, which has room for 16; returns the end.
char* WriteFloat32(float f, char* out) {
  if (std::isnan(f) || std::isinf(f)) {
    // JSON has no NaN or infinity; null keeps the document valid.
    std::memcpy(out, "null", 4);
    return out + 4;
  }
  return std::to_chars(out, out + 16, f).ptr;
}

}  // namespace

void AppendFloat32(float f, std::string* out) {
  char buf[16];
  out->append(buf, WriteFloat32(f, buf));
}

char* WriteVectorJson(const Value& v, char* out) {
  *out++ = '[';
  for (int k = 0; k < v.count && k < 4; ++k) {
    if (k) *out++ = ',';
    out = WriteFloat32(v.v[k], out);
  }
  *out++ = ']';
  return out;
}

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
      ++i;
    } else if (c < 0x20) {
      static const char* kHex = "0123456789abcdef";
      switch (c) {
        case '\n': out->append("\\n"); break;
        case '\r': out->append("\\r"); break;
        case '\t': out->append("\\t"); break;
        case '\b': out->append("\\b"); break;
        case '\f': out->append("\\f"); break;
        default:
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
      }
      ++i;
    } else if (c < 0x80) {
      out->push_back(static_cast<char>(c));
      ++i;
    } else {
      // Validate one UTF-8 sequence; replace anything malformed.
      int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
      bool ok = len > 0 && i + len <= s.size();
      for (int k = 1; ok && k < len; ++k) {
        ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
      }
      if (ok) {
        out->append(s.substr(i, len));
        i += len;
      } else {
        out->append("\xEF\xBF\xBD");
        ++i;
      }
    }
  }
  out->push_back('"');
}

void Value::AppendJson(std::string* out) const {
  switch (kind) {
    case ValueKind::kNone:
      out->append("null");
      return;
    case ValueKind::kBool:
      out->append(b ? "true" : "false");
      return;
    case ValueKind::kInt:
      out->append(std::to_string(i));
      return;
    case ValueKind::kUint:
      out->append(std::to_string(u));
      return;
    case ValueKind::kFloat:
      AppendFloat32(f, out);
      return;
    case ValueKind::kVector: {
      char buf[kMaxVectorJson];
      out->append(buf, WriteVectorJson(*this, buf));
      return;
    }
    case ValueKind::kString:
      AppendJsonString(s, out);
      return;
  }
}

}  // namespace gem
