// gem-dump combatlog: one JSON object per combat-log entry, with the tick,
// the source, the type, resolved names and the raw fields gem records.
#include <fmt/core.h>

#include <cstdio>
#include <string>

#include "core/dota/combat_log.h"
#include "core/exit_codes.h"
#include "core/value.h"
#include "tools/dump/commands.h"

namespace gem::dump {
namespace {

class CombatLogSink : public Sink {
 public:
  void OnCombatLog(const TickInfo& t, const CombatLogEntry& c) override {
    const proto::CMsgDOTACombatLogEntry& e = *c.entry;
    out_.clear();
    out_ += "{\"tick\":" + std::to_string(t.tick);
    out_ += ",\"source\":\"";
    out_ += CombatLogSourceName(c.source);
    out_ += "\",\"type\":" + std::to_string(e.type());
    out_ += ",\"type_name\":";
    AppendJsonString(c.type_name, &out_);
    Name("target_name", e.target_name(), c.target_name);
    Name("target_source_name", e.target_source_name(), c.target_source_name);
    Name("attacker_name", e.attacker_name(), c.attacker_name);
    Name("damage_source_name", e.damage_source_name(), c.damage_source_name);
    Name("inflictor_name", e.inflictor_name(), c.inflictor_name);
    out_ += ",\"value\":" + std::to_string(e.value());
    if (!c.value_name.empty()) {
      out_ += ",\"value_name\":";
      AppendJsonString(c.value_name, &out_);
    }
    out_ += ",\"health\":" + std::to_string(e.health());
    out_ += ",\"timestamp\":";
    AppendFloat32(e.timestamp(), &out_);
    out_ += ",\"is_attacker_hero\":";
    out_ += e.is_attacker_hero() ? "true" : "false";
    out_ += ",\"is_target_hero\":";
    out_ += e.is_target_hero() ? "true" : "false";
    out_ += ",\"is_attacker_illusion\":";
    out_ += e.is_attacker_illusion() ? "true" : "false";
    out_ += ",\"is_target_illusion\":";
    out_ += e.is_target_illusion() ? "true" : "false";
    out_ += ",\"stack_count\":" + std::to_string(e.stack_count());
    out_ += ",\"modifier_duration\":";
    AppendFloat32(e.modifier_duration(), &out_);
    out_ += "}\n";
    std::fwrite(out_.data(), 1, out_.size(), stdout);
  }

 private:
  void Name(const char* key, uint32_t index, std::string_view name) {
    out_ += ",\"";
    out_ += key;
    out_ += "\":";
    AppendJsonString(name, &out_);
    out_ += ",\"";
    out_ += key;
    out_ += "_index\":" + std::to_string(index);
  }
  std::string out_;
};

}  // namespace

int RunCombatLog(const Args& args) {
  if (args.size() != 1) {
    fmt::print(stderr, "usage: gem-dump combatlog REPLAY.dem\n");
    return cli::kExitUsage;
  }
  CombatLogSink sink;
  return ParseReplay(args[0], &sink, [](const Parser&) {});
}

}  // namespace gem::dump
