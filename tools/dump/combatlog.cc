// gem-dump combatlog: one JSON object per combat-log entry: its
// combat_log_entries row (the columns that are set), the source and type
// by name, and each name index resolved through CombatLogNames as it
// stands when the entry arrives.
#include <fmt/core.h>

#include <cstdio>
#include <string>

#include "core/dota/combat_log_table.h"
#include "core/dota/tables.h"
#include "core/util/exit_codes.h"
#include "core/string_tables/string_table.h"
#include "core/fields/value.h"
#include "proto/dota_usermessages.pb.h"
#include "tools/dump/commands.h"

namespace gem::dump {
namespace {

class CombatLogSink : public Sink {
 public:
  void OnStringTableCreated(const TickInfo&, const StringTable& table) override {
    if (table.name() == "CombatLogNames") names_ = &table;
  }
  void OnTableRow(uint32_t table, std::span<const MatchValue> row) override {
    if (table != dota::kCombatLogEntries) return;
    const TableSpec& spec = dota::DotaSchema().tables[table];
    out_.clear();
    out_.push_back('{');
    for (size_t i = 0; i < row.size() && i < spec.columns.size(); ++i) {
      const MatchValue& v = row[i];
      if (v.is_null()) continue;
      const std::string_view column = spec.columns[i].name;
      Key(column);
      Put(v);
      if (column == "source") {
        Key("source_name");
        AppendJsonString(v.i == 0 ? "hltv" : v.i == 1 ? "bulk" : "legacy_game_event", &out_);
      } else if (column == "type") {
        Key("type_name");
        AppendJsonString(proto::DOTA_COMBATLOG_TYPES_IsValid(static_cast<int>(v.i))
                             ? proto::DOTA_COMBATLOG_TYPES_Name(
                                   static_cast<proto::DOTA_COMBATLOG_TYPES>(v.i))
                             : std::string(),
                         &out_);
      } else if (column.size() > 4 && column.substr(column.size() - 4) == "_idx") {
        const StringTableEntry* e = names_ == nullptr ? nullptr : names_->Find(v.i);
        Key(column.substr(0, column.size() - 4));
        AppendJsonString(e == nullptr ? std::string() : e->name, &out_);
      }
    }
    out_ += "}\n";
    std::fwrite(out_.data(), 1, out_.size(), stdout);
  }

 private:
  void Key(std::string_view key) {
    if (out_.size() > 1) out_ += ',';
    AppendJsonString(key, &out_);
    out_ += ':';
  }
  void Put(const MatchValue& v) {
    switch (v.kind) {
      case MatchValue::Kind::kInt: out_ += std::to_string(v.i); break;
      case MatchValue::Kind::kReal: AppendFloat32(static_cast<float>(v.r), &out_); break;
      case MatchValue::Kind::kText: AppendJsonString(v.s, &out_); break;
      case MatchValue::Kind::kNull: out_ += "null"; break;
    }
  }
  const StringTable* names_ = nullptr;
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
