#include "tests/json.h"

#include <cstdlib>

namespace gem::testing {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  bool Value(Json* out) {
    Space();
    if (pos_ >= s_.size()) return Fail("unexpected end");
    char c = s_[pos_];
    if (c == '{') return Object(out);
    if (c == '[') return Array(out);
    if (c == '"') {
      out->type = Json::Type::kString;
      return String(&out->text);
    }
    if (Literal("null")) {
      out->type = Json::Type::kNull;
      return true;
    }
    if (Literal("true")) {
      out->type = Json::Type::kBool;
      out->b = true;
      return true;
    }
    if (Literal("false")) {
      out->type = Json::Type::kBool;
      out->b = false;
      return true;
    }
    return Number(out);
  }

  bool AtEnd() {
    Space();
    return pos_ == s_.size();
  }
  const std::string& error() const { return error_; }

 private:
  bool Fail(const char* why) {
    error_ = std::string(why) + " at offset " + std::to_string(pos_);
    return false;
  }
  void Space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' ||
                                s_[pos_] == '\r' || s_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool Number(Json* out) {
    size_t start = pos_;
    while (pos_ < s_.size() && std::string_view("+-0123456789.eE").find(s_[pos_]) !=
                                   std::string_view::npos) {
      ++pos_;
    }
    if (pos_ == start) return Fail("bad value");
    out->type = Json::Type::kNumber;
    out->text = std::string(s_.substr(start, pos_ - start));
    return true;
  }
  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  bool Hex4(uint32_t* out) {
    if (pos_ + 4 > s_.size()) return Fail("short \\u escape");
    *out = static_cast<uint32_t>(
        std::strtoul(std::string(s_.substr(pos_, 4)).c_str(), nullptr, 16));
    pos_ += 4;
    return true;
  }
  bool String(std::string* out) {
    out->clear();
    ++pos_;  // opening quote
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) break;
      char e = s_[pos_++];
      switch (e) {
        case 'n': out->push_back('\n'); break;
        case 't': out->push_back('\t'); break;
        case 'r': out->push_back('\r'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            uint32_t lo;
            if (!Hex4(&lo)) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          AppendUtf8(cp, out);
          break;
        }
        default: out->push_back(e);
      }
    }
    return Fail("unterminated string");
  }
  bool Array(Json* out) {
    out->type = Json::Type::kArray;
    ++pos_;
    Space();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      out->items.emplace_back();
      if (!Value(&out->items.back())) return false;
      Space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return Fail("expected , or ]");
    }
  }
  bool Object(Json* out) {
    out->type = Json::Type::kObject;
    ++pos_;
    Space();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      Space();
      if (pos_ >= s_.size() || s_[pos_] != '"') return Fail("expected key");
      std::string key;
      if (!String(&key)) return false;
      Space();
      if (pos_ >= s_.size() || s_[pos_] != ':') return Fail("expected :");
      ++pos_;
      out->fields.emplace_back(std::move(key), Json());
      if (!Value(&out->fields.back().second)) return false;
      Space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return Fail("expected , or }");
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

double Json::number() const { return std::strtod(text.c_str(), nullptr); }

bool Json::is_integer() const {
  return type == Type::kNumber && text.find_first_of(".eE") == std::string::npos;
}

const Json* Json::Get(std::string_view key) const {
  for (const auto& [k, v] : fields) {
    if (k == key) return &v;
  }
  return nullptr;
}

bool ParseJson(std::string_view text, Json* out, std::string* error) {
  Reader r(text);
  *out = Json();
  if (!r.Value(out)) {
    *error = r.error();
    return false;
  }
  if (!r.AtEnd()) {
    *error = "trailing data";
    return false;
  }
  return true;
}

}  // namespace gem::testing
