#include "core/match/field_codes.h"

#include <algorithm>

#include "core/fields/class_fields.h"

namespace gem::match {

FieldCodes::FieldCodes(std::vector<Pattern> patterns) {
  for (Pattern& p : patterns) {
    Split s;
    s.kind = p.kind;
    const size_t hash = p.name.find('#');
    if (hash == std::string::npos) {
      s.prefix = std::move(p.name);
    } else {
      s.indexed = true;
      s.prefix = p.name.substr(0, hash);
      s.suffix = p.name.substr(hash + 1);
    }
    patterns_.push_back(std::move(s));
  }
}

uint32_t FieldCodes::Match(const std::string& name) const {
  for (const Split& p : patterns_) {
    if (!p.indexed) {
      if (name == p.prefix) return uint32_t{p.kind} << 16;
      continue;
    }
    // prefix, four digits, suffix.
    const size_t n = p.prefix.size();
    if (name.size() != n + 4 + p.suffix.size() || name.compare(0, n, p.prefix) != 0 ||
        name.compare(n + 4, std::string::npos, p.suffix) != 0) {
      continue;
    }
    uint32_t index = 0;
    bool digits = true;
    for (size_t i = n; i < n + 4; ++i) {
      const char c = name[i];
      if (c < '0' || c > '9') digits = false;
      index = index * 10 + static_cast<uint32_t>(c - '0');
    }
    if (digits) return uint32_t{p.kind} << 16 | index;
  }
  return 0;
}

FieldCodes::PerClass& FieldCodes::Slow(const Entity& e) {
  if (e.fields == nullptr || e.class_id < 0) return none_;
  PerClass& pc =
      e.class_id < kDense
          ? (static_cast<size_t>(e.class_id) < classes_.size()
                 ? classes_[e.class_id]
                 : (classes_.resize(e.class_id + 1), classes_[e.class_id]))
          : sparse_[e.class_id];
  // Match the fields the class has registered since the last look.
  const size_t size = e.fields->size();
  for (size_t id = pc.codes.size(); id < size; ++id) {
    const uint32_t code = Match(e.fields->text(static_cast<uint32_t>(id)).name);
    pc.codes.push_back(code);
    if (code == 0) continue;
    pc.fields.emplace(code, static_cast<uint32_t>(id));
    uint32_t& count = pc.counts[KindOf(code)];
    count = std::max<uint32_t>(count, IndexOf(code) + 1u);
  }
  return pc;
}

uint32_t FieldCodes::FieldOf(const Entity& e, uint16_t kind, uint16_t index) {
  const PerClass& pc = Of(e);
  auto it = pc.fields.find(uint32_t{kind} << 16 | index);
  return it == pc.fields.end() ? ClassFields::kInvalid : it->second;
}

uint32_t FieldCodes::Count(const Entity& e, uint16_t kind) {
  const PerClass& pc = Of(e);
  auto it = pc.counts.find(kind);
  return it == pc.counts.end() ? 0 : it->second;
}

}  // namespace gem::match
