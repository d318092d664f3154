// gem-dump summary: key<TAB>value facts about a replay.
#include <fmt/core.h>

#include <cstdio>
#include <string>

#include "core/util/exit_codes.h"
#include "tools/dump/commands.h"

namespace gem::dump {
namespace {

void Put(const char* key, const std::string& value) { fmt::print("{}\t{}\n", key, value); }
void Put(const char* key, int64_t value) { Put(key, std::to_string(value)); }
void PutU(const char* key, uint64_t value) { Put(key, std::to_string(value)); }

}  // namespace

int RunSummary(const Args& args) {
  if (args.size() != 1) {
    fmt::print(stderr, "usage: gem-dump summary REPLAY.dem\n");
    return cli::kExitUsage;
  }
  return ParseReplay(args[0], nullptr, [](const Parser& p) {
    const ReplayMetadata& m = p.metadata();
    const ParserCounters& c = p.counters();
    const EntityCounters& e = p.entities().counters();
    Put("game", m.game);
    Put("game_build", m.game_build);
    Put("game_build_from_header", m.game_build_from_header ? "true" : "false");
    Put("header_game", m.header.game);
    Put("header_build_num", m.header.build_num);
    Put("header_network_protocol", m.header.network_protocol);
    Put("header_map", m.header.map_name);
    Put("header_server", m.header.server_name);
    Put("header_client", m.header.client_name);
    Put("header_game_directory", m.header.game_directory);
    Put("server_game_dir", m.server_game_dir);
    Put("tick_interval", std::to_string(m.tick_interval));
    Put("max_classes", m.max_classes);
    Put("first_tick", m.first_tick);
    Put("final_tick", m.last_tick);
    Put("fileinfo_playback_ticks", m.playback_ticks);
    Put("fileinfo_playback_frames", m.playback_frames);
    Put("fileinfo_playback_time", std::to_string(m.playback_time));
    PutU("match_id", m.match_id);
    Put("game_mode", m.game_mode);
    Put("game_winner", m.game_winner);
    PutU("league_id", m.league_id);
    Put("match_source", m.match_source);
    Put("game_start_tick", m.game_start_tick);
    Put("game_end_tick", m.game_end_tick);
    PutU("frames", c.frames);
    PutU("demo_packets", c.demo_packets);
    PutU("signon_packets", c.signon_packets);
    PutU("full_packets", c.full_packets);
    PutU("string_table_snapshots", c.string_table_snapshots);
    PutU("string_table_snapshots_ignored", c.string_table_snapshots_ignored);
    PutU("inner_messages", c.inner_messages);
    PutU("classes", p.schema().class_slots());
    PutU("serializers", p.schema().serializer_count());
    PutU("schema_fields", p.schema().field_count());
    PutU("entities_final", p.entities().live_count());
    PutU("entities_created", e.created);
    PutU("entities_deleted", e.deleted);
    PutU("entities_left", e.left);
    PutU("entity_updates", e.updated);
    PutU("field_decodes", e.field_decodes);
    PutU("field_decodes_delta", e.field_decodes_delta);
    PutU("missing_class_baselines", e.missing_baselines);
    PutU("skipped_full_packet_entities", e.skipped_full_packets);
    PutU("pvs_skips", e.pvs_skips);
    PutU("entities_recreated_kept", e.recreated_kept);
    PutU("decode_faults", e.decode_faults);
    PutU("decode_faults_stale_entities", e.stale_marked);
    PutU("decode_fault_refreshes", e.fault_refreshes);
    PutU("rule_searches", p.entities().rule_searches());
    PutU("rules_undone", p.entities().rules_undone());
    std::string rules;
    for (const UnknownTypeRule& r : p.entities().chosen_rules()) {
      rules += (rules.empty() ? "" : ",") + r.type + "=" + r.rule;
    }
    Put("unknown_type_rules", rules);
    PutU("string_tables", p.string_tables().size());
    PutU("game_events", c.game_events);
    Put("event_list", p.metadata().event_list);
    PutU("game_events_named_by_known_list", c.game_events_named_by_known_list);
    PutU("game_events_unnamed", c.game_events_unnamed);
    PutU("chat_messages", c.chat_messages);
    // What the game's module counted (Dota: combatlog_total, chat_events,
    // names it could not resolve, ...).
    for (const auto& [name, count] : p.game_counters()) PutU(name.c_str(), count);
    std::string types;
    for (const std::string& t : p.schema().default_rule_types()) {
      if (!types.empty()) types += ',';
      types += t;
    }
    Put("default_rule_types", types);
    PutU("bytes", m.bytes);
    PutU("bytes_read", m.bytes_read);
    Put("truncated", m.truncated ? "true" : "false");
  });
}

}  // namespace gem::dump
