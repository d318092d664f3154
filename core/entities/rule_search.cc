// EntityManager's rule search: after a decode fault, a rule for the field
// types no rule names, chosen by the packet that faulted (a rule of gem's
// own; docs/recordings.md, The next patch).
//
// Each type the default rule decodes is tried in turn with each candidate
// rule, the others kept; the first pair with which the whole packet
// decodes, every field path in its class and the packet ending on its
// last bits (CheckPacketEnd), is kept. The candidates are the engine's
// plain encodings, in the order they are commonly met; a float or vector
// candidate takes the field's own encoder, bit count and range from the
// send tables. String rules are not tried (a field's storage depends on
// whether it reads strings). A search that finds nothing is not repeated
// more than kMaxFailedSearches times in a replay: a packet damaged
// otherwise would have each fault search in vain.
#include "core/entities/entities.h"

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

namespace gem {
namespace {

constexpr std::string_view kCandidateRules[] = {"int32",  "float32", "bool",     "uint64",
                                                "int64",  "Vector",  "Vector2D", "Vector4D",
                                                "QAngle"};
constexpr uint64_t kMaxFailedSearches = 4;

// The types no rule names among `s`'s fields, its tables' and the types
// its polymorphic pointers may hold.
void CollectUnknownTypes(const Serializer* s, std::set<const Serializer*>* seen,
                         std::set<std::string>* types) {
  if (s == nullptr || !seen->insert(s).second) return;
  for (const Field* f : s->fields) {
    if (f->unknown_type) {
      types->insert(f->model == FieldModel::kVariableArray && f->type->generic
                        ? f->type->generic->base
                        : f->type->base);
    }
    CollectUnknownTypes(f->serializer, seen, types);
    for (const Serializer* p : f->polymorphic_types) CollectUnknownTypes(p, seen, types);
  }
}

}  // namespace

void EntityManager::UndoUnconfirmedRules() {
  if (rule_schema_ == nullptr) return;
  bool undone = false;
  for (size_t i = 0; i < chosen_rules_.size();) {
    if (chosen_rules_[i].confirmed) {
      ++i;
      continue;
    }
    rule_schema_->SetUnknownTypeRule(chosen_rules_[i].type, "");
    chosen_rules_.erase(chosen_rules_.begin() + static_cast<ptrdiff_t>(i));
    ++rules_undone_;
    undone = true;
  }
  if (undone) ForgetTemplates();
}

void EntityManager::ForgetTemplates() {
  for (ClassState& cs : classes_) cs.template_ready = false;
}

Status EntityManager::DryRun(const PacketEntities& msg) {
  if (!msg.is_delta) return DecodeSnapshot(msg, &trial_snapshot_);
  BitReader r(msg.data, msg.size);
  int64_t index = -1;
  const int32_t updates = msg.updated_entries;
  if (updates < 0 || static_cast<uint64_t>(updates) > msg.size * 8 + 1) {
    return Status::Corrupt("too many updates");
  }
  for (int32_t n = 0; n < updates; ++n) {
    index += static_cast<int64_t>(r.ReadUBitVar()) + 1;
    if (r.overflowed() || index >= kMaxEntities) return Status::Corrupt("entity list");
    const uint32_t cmd = r.ReadBits(2);
    if (cmd & 1) continue;  // leave, delete
    if (cmd & 2) {
      // A create (also where the packet's own create already ran, or
      // failed: each index comes once a packet, so the header says all).
      CreateHeader h;
      GEM_RETURN_IF_ERROR(ReadCreateHeader(&r, index, &h));
      if (h.class_state->has_baseline) {
        trial_state_ = h.class_state->base_state;
      } else {
        trial_state_.Reset();
      }
      GEM_RETURN_IF_ERROR(ReadFields(&r, h.fields, &trial_state_, nullptr));
      continue;
    }
    const Entity* e = entities_[index];
    if (e == nullptr) return Status::Corrupt("update of no entity");
    if (msg.has_pvs_bits && (r.ReadBits(2) & 1)) continue;
    trial_state_ = e->state;  // a polymorphic pointer's choice is read from it
    GEM_RETURN_IF_ERROR(ReadFields(&r, e->fields, &trial_state_, nullptr));
  }
  if (r.overflowed()) return Status::Corrupt("past the end");
  return CheckPacketEnd(&r);
}

bool EntityManager::DecodesExactly(const PacketEntities& msg) {
  // A trial leaves no trace but the fields it registered (real fields of
  // their classes, told to the sink as any first sight is).
  const EntityCounters counters = counters_;
  const std::string field = fault_field_;
  const bool ok = DryRun(msg).ok();
  counters_ = counters;
  fault_field_ = field;
  trial_snapshot_.clear();
  return ok;
}

bool EntityManager::SearchRule(const PacketEntities& msg) {
  if (rule_schema_ == nullptr ||
      rule_searches_ - chosen_rules_.size() - rules_undone_ >= kMaxFailedSearches) {
    return false;
  }
  ++rule_searches_;
  // The misread lies in an entity the packet read up to the fault: the
  // types of their classes are tried (all of them for a full packet that
  // was to refresh, whose entities are not listed).
  std::set<std::string> in_packet;
  if (!touched_.empty() && msg.is_delta) {
    std::set<const Serializer*> seen;
    for (int32_t index : touched_) {
      const Entity* e = entities_[index];
      if (e != nullptr) CollectUnknownTypes(e->fields->serializer(), &seen, &in_packet);
    }
    if (reading_class_ != nullptr) {
      CollectUnknownTypes(reading_class_->serializer(), &seen, &in_packet);
    }
  }
  const bool all = in_packet.empty();
  // (A copy: the list is the schema's, and stays as it is.)
  const std::vector<std::string> types = rule_schema_->default_rule_types();
  for (const std::string& type : types) {
    if (!all && in_packet.count(type) == 0) continue;
    bool chosen_before = false;
    for (const UnknownTypeRule& c : chosen_rules_) chosen_before |= c.type == type;
    if (chosen_before) continue;
    for (std::string_view rule : kCandidateRules) {
      const size_t fields = rule_schema_->SetUnknownTypeRule(type, rule);
      if (fields == 0) break;
      ForgetTemplates();
      if (DecodesExactly(msg)) {
        chosen_rules_.push_back({type, std::string(rule), fields, faults_.size() - 1});
        // Every held value of such a field was read by the old rule.
        DecodeFault& f = faults_.back();
        for (Entity* e : entities_) {
          if (e == nullptr || e->stale) continue;
          e->stale = true;
          f.stale.push_back(e->index);
          ++counters_.stale_marked;
        }
        std::sort(f.stale.begin(), f.stale.end());
        return true;
      }
    }
    rule_schema_->SetUnknownTypeRule(type, "");
    ForgetTemplates();
  }
  return false;
}

}  // namespace gem
