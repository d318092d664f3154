#include "core/dota/combat_log.h"

#include "core/string_tables/string_table.h"

namespace gem::dota {
namespace {

int64_t AsInt(const Value& v) {
  switch (v.kind) {
    case ValueKind::kInt: return v.i;
    case ValueKind::kUint: return static_cast<int64_t>(v.u);
    case ValueKind::kBool: return v.b ? 1 : 0;
    case ValueKind::kFloat: return static_cast<int64_t>(v.f);
    default: return 0;
  }
}

float AsFloat(const Value& v) {
  switch (v.kind) {
    case ValueKind::kFloat: return v.f;
    case ValueKind::kInt: return static_cast<float>(v.i);
    case ValueKind::kUint: return static_cast<float>(v.u);
    default: return 0.0f;
  }
}

}  // namespace

const char* CombatLogSourceName(CombatLogEntry::Source source) {
  switch (source) {
    case CombatLogEntry::Source::kHltv: return "hltv";
    case CombatLogEntry::Source::kBulk: return "bulk";
    case CombatLogEntry::Source::kLegacyGameEvent: return "legacy_game_event";
  }
  return "unknown";
}

std::string_view CombatLogDecoder::Resolve(const StringTable* names, bool has,
                                          uint64_t index) {
  if (!has) return {};
  const StringTableEntry* e =
      names == nullptr ? nullptr : names->Find(static_cast<int64_t>(index));
  if (e == nullptr) {
    ++unresolved_;
    return {};
  }
  return e->name;
}

void CombatLogDecoder::Emit(CombatLogEntry::Source source,
                            const proto::CMsgDOTACombatLogEntry& e,
                            const StringTable* names, const Callback& emit) {
  CombatLogEntry out;
  out.source = source;
  out.entry = &e;
  if (proto::DOTA_COMBATLOG_TYPES_IsValid(e.type())) {
    type_name_ = proto::DOTA_COMBATLOG_TYPES_Name(
        static_cast<proto::DOTA_COMBATLOG_TYPES>(e.type()));
  } else {
    type_name_.clear();
  }
  out.type_name = type_name_;
  out.target_name = Resolve(names, e.has_target_name(), e.target_name());
  out.target_source_name = Resolve(names, e.has_target_source_name(), e.target_source_name());
  out.attacker_name = Resolve(names, e.has_attacker_name(), e.attacker_name());
  out.damage_source_name = Resolve(names, e.has_damage_source_name(), e.damage_source_name());
  out.inflictor_name = Resolve(names, e.has_inflictor_name(), e.inflictor_name());
  if (e.type() == kCombatLogPurchase) out.value_name = Resolve(names, e.has_value(), e.value());
  ++entries_;
  emit(out);
}

Status CombatLogDecoder::DecodeHltv(const uint8_t* data, size_t size,
                                    const StringTable* names,
                                    const Callback& emit) {
  entry_.Clear();
  if (!entry_.ParseFromArray(data, static_cast<int>(size))) {
    return Status::Corrupt("combat log entry does not parse");
  }
  Emit(CombatLogEntry::Source::kHltv, entry_, names, emit);
  return Status::Ok();
}

Status CombatLogDecoder::DecodeBulk(const uint8_t* data, size_t size,
                                    const StringTable* names,
                                    const Callback& emit) {
  bulk_.Clear();
  if (!bulk_.ParseFromArray(data, static_cast<int>(size))) {
    return Status::Corrupt("combat log bulk data does not parse");
  }
  for (const auto& e : bulk_.combat_entries()) {
    Emit(CombatLogEntry::Source::kBulk, e, names, emit);
  }
  return Status::Ok();
}

bool CombatLogDecoder::DecodeLegacy(const GameEvent& event,
                                    const StringTable* names,
                                    const Callback& emit) {
  if (event.name != "dota_combatlog") return false;
  entry_.Clear();
  for (const GameEventKey& k : event.keys) {
    const std::string_view n = k.name;
    const Value& v = k.value;
    if (n == "type") entry_.set_type(static_cast<int32_t>(AsInt(v)));
    else if (n == "sourcename") entry_.set_damage_source_name(AsInt(v));
    else if (n == "targetname") entry_.set_target_name(AsInt(v));
    else if (n == "attackername") entry_.set_attacker_name(AsInt(v));
    else if (n == "inflictorname") entry_.set_inflictor_name(AsInt(v));
    else if (n == "targetsourcename") entry_.set_target_source_name(AsInt(v));
    else if (n == "attackerillusion") entry_.set_is_attacker_illusion(AsInt(v) != 0);
    else if (n == "targetillusion") entry_.set_is_target_illusion(AsInt(v) != 0);
    else if (n == "attackerhero") entry_.set_is_attacker_hero(AsInt(v) != 0);
    else if (n == "targethero") entry_.set_is_target_hero(AsInt(v) != 0);
    else if (n == "value") entry_.set_value(static_cast<uint32_t>(AsInt(v)));
    else if (n == "health") entry_.set_health(static_cast<int32_t>(AsInt(v)));
    else if (n == "timestamp") entry_.set_timestamp(AsFloat(v));
    else if (n == "timestampraw") entry_.set_timestamp_raw(AsFloat(v));
    else if (n == "ability_toggle_on") entry_.set_is_ability_toggle_on(AsInt(v) != 0);
    else if (n == "ability_toggle_off") entry_.set_is_ability_toggle_off(AsInt(v) != 0);
    else if (n == "ability_level") entry_.set_ability_level(AsInt(v));
    else if (n == "gold_reason") entry_.set_gold_reason(AsInt(v));
    else if (n == "xp_reason") entry_.set_xp_reason(AsInt(v));
  }
  Emit(CombatLogEntry::Source::kLegacyGameEvent, entry_, names, emit);
  return true;
}

}  // namespace gem::dota
