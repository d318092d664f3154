// IndexWriter: the meta table, a key a row (what the index is, how it was
// made, what the replay says of itself; docs/index-format.md).
#include <fmt/core.h>

#include <algorithm>

#include "core/codec/chunk_codec.h"
#include "core/codec/index_format.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/state_codec.h"
#include "core/util/version.h"
#include "indexer/index_schema.h"
#include "indexer/index_writer.h"

namespace gem::index {

Status IndexWriter::WriteMeta(const Parser& parser, const SourceInfo& source) {
  Stmt s;
  // (A live run's commits wrote meta rows: the end's replace them.)
  GEM_RETURN_IF_ERROR(s.Prepare(db_, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)"));
  MetaOut out;
  out.text = [&](const char* key, std::string_view v) { return s.Text(1, key).Text(2, v).Run(); };
  out.num = [&](const char* key, int64_t v) { return s.Text(1, key).Int(2, v).Run(); };
  out.real = [&](const char* key, double v) { return s.Text(1, key).Real(2, v).Run(); };
  return EmitMeta(parser, meta_, &source, false, 0, out);
}

Status IndexWriter::EmitMeta(const Parser& parser, const ReplayMetadata& m,
                             const SourceInfo* source, bool live, int64_t live_tick,
                             const MetaOut& out) {
  const auto& text = out.text;
  const auto& num = out.num;
  const auto& real = out.real;
  const MatchSummary summary = live ? parser.summary_so_far() : summary_;
  GEM_RETURN_IF_ERROR(num("schema_version", kSchemaVersion));
  GEM_RETURN_IF_ERROR(text("indexer_version", kGemVersion));
  // The input's checksums and sizes are known at its end only.
  if (source != nullptr) {
    GEM_RETURN_IF_ERROR(text("source_name", source->name));
    GEM_RETURN_IF_ERROR(text("source_sha256", source->sha256));
    GEM_RETURN_IF_ERROR(num("source_bytes", static_cast<int64_t>(source->bytes)));
    GEM_RETURN_IF_ERROR(text("compression", source->compression));
    GEM_RETURN_IF_ERROR(text("replay_sha256", source->replay_sha256));
    GEM_RETURN_IF_ERROR(num("replay_bytes", static_cast<int64_t>(source->replay_bytes)));
  }
  // The files read (the parts table has each).
  GEM_RETURN_IF_ERROR(num("parts", static_cast<int64_t>(std::max<size_t>(1, parser.parts().size()))));
  GEM_RETURN_IF_ERROR(text("game", m.game));
  GEM_RETURN_IF_ERROR(num("game_build", m.game_build));
  GEM_RETURN_IF_ERROR(num("game_build_from_header", m.game_build_from_header));
  GEM_RETURN_IF_ERROR(num("network_protocol", m.header.network_protocol));
  GEM_RETURN_IF_ERROR(num("header_build_num", m.header.build_num));
  GEM_RETURN_IF_ERROR(text("map", m.header.map_name));
  GEM_RETURN_IF_ERROR(text("server", m.header.server_name));
  GEM_RETURN_IF_ERROR(text("client", m.header.client_name));
  GEM_RETURN_IF_ERROR(text("game_directory", m.header.game_directory));
  GEM_RETURN_IF_ERROR(real("tick_interval", m.tick_interval));
  // Who recorded it (docs/recordings.md): a client's slot and userinfo.
  GEM_RETURN_IF_ERROR(text("recording", m.client_recording ? "client" : "server"));
  if (m.client_recording) {
    GEM_RETURN_IF_ERROR(num("recorder_slot", m.recorder_slot));
    GEM_RETURN_IF_ERROR(text("recorder_name", m.recorder_name));
    GEM_RETURN_IF_ERROR(num("recorder_steam_id", static_cast<int64_t>(m.recorder_steam_id)));
  }
  // Where the game events' names came from (docs/recordings.md).
  GEM_RETURN_IF_ERROR(text("event_list", m.event_list));
  if (m.event_list == "known") {
    GEM_RETURN_IF_ERROR(num("event_list_protocol", m.event_list_protocol));
    GEM_RETURN_IF_ERROR(num("event_list_build", m.event_list_build));
  }
  GEM_RETURN_IF_ERROR(num("game_events_named_by_known_list",
                          static_cast<int64_t>(parser.counters().game_events_named_by_known_list)));
  GEM_RETURN_IF_ERROR(num("game_events_unnamed",
                          static_cast<int64_t>(parser.counters().game_events_unnamed)));
  GEM_RETURN_IF_ERROR(num("match_id", static_cast<int64_t>(m.match_id)));
  GEM_RETURN_IF_ERROR(num("game_mode", m.game_mode));
  GEM_RETURN_IF_ERROR(num("league_id", m.league_id));
  GEM_RETURN_IF_ERROR(num("winner", m.game_winner));
  GEM_RETURN_IF_ERROR(text("match_source", m.match_source));
  GEM_RETURN_IF_ERROR(num("playback_ticks", m.playback_ticks));
  GEM_RETURN_IF_ERROR(real("playback_time", m.playback_time));
  GEM_RETURN_IF_ERROR(num("playback_frames", m.playback_frames));
  GEM_RETURN_IF_ERROR(num("signon_tick", kSignonTick));
  GEM_RETURN_IF_ERROR(num("first_tick", m.first_tick));
  // While live: the last commit's tick, which readers may ask of.
  GEM_RETURN_IF_ERROR(num("last_tick", live ? live_tick : m.last_tick));
  // Ticks between keyframes; 0: one interval for the whole replay
  // (gem-index --keyframe-seconds 0), whose rows hold no state but the
  // creation state.
  GEM_RETURN_IF_ERROR(num("keyframe_interval", stats_.keyframe_interval));
  GEM_RETURN_IF_ERROR(num("keyframe_max_logged", interval_settings_.max_logged));
  GEM_RETURN_IF_ERROR(num("keyframe_last_tick", live ? live_tick : max_tick_));
  // While live: the first tick whose state is in the tail, not in the
  // intervals' rows (the open interval's keyframe tick; -1 while the
  // first is open).
  if (live) {
    GEM_RETURN_IF_ERROR(num("keyframe_open_tick", interval_ > 0 && next_boundary_ > 0
                                                      ? next_boundary_ - interval_
                                                      : -1));
  }
  GEM_RETURN_IF_ERROR(num("game_start_tick", m.game_start_tick));
  GEM_RETURN_IF_ERROR(num("game_end_tick", m.game_end_tick));
  GEM_RETURN_IF_ERROR(num("truncated", m.truncated));
  GEM_RETURN_IF_ERROR(text("truncation_reason", m.truncation_reason));
  // (The packing worker's count: known at the end.)
  if (!live) {
    GEM_RETURN_IF_ERROR(num("field_changes", static_cast<int64_t>(stats_.field_changes)));
  }
  GEM_RETURN_IF_ERROR(num("created_values", static_cast<int64_t>(stats_.created_values)));
  GEM_RETURN_IF_ERROR(num("entities", static_cast<int64_t>(stats_.entities)));
  GEM_RETURN_IF_ERROR(num("chunk_format", kChunkFormatVersion));
  GEM_RETURN_IF_ERROR(num("state_format", kStateFormatVersion));
  GEM_RETURN_IF_ERROR(num("keyframe_format", kKeyframeFormatVersion));
  GEM_RETURN_IF_ERROR(num("max_changes_per_run", interval_settings_.max_per_run));
  GEM_RETURN_IF_ERROR(num("run_page_bytes", static_cast<int64_t>(kRunPageBytes)));
  GEM_RETURN_IF_ERROR(real("cell_width", summary.cell_width));
  GEM_RETURN_IF_ERROR(real("world_offset", summary.world_offset));
  GEM_RETURN_IF_ERROR(num("timeline_step", summary.timeline_step));
  GEM_RETURN_IF_ERROR(text("match_layer", summary.note.empty() ? "ok" : summary.note));
  {
    // The decode faults (the decode_faults table): how many, how many
    // stale entities they left, and how many no full packet refreshed.
    const EntityCounters& e = parser.entities().counters();
    int64_t unrefreshed = 0;
    for (const DecodeFault& f : parser.entities().faults()) unrefreshed += f.refreshed ? 0 : 1;
    GEM_RETURN_IF_ERROR(num("decode_faults", static_cast<int64_t>(e.decode_faults)));
    GEM_RETURN_IF_ERROR(num("decode_faults_unrefreshed", unrefreshed));
    GEM_RETURN_IF_ERROR(num("decode_fault_stale_entities", static_cast<int64_t>(e.stale_marked)));
    // The rules chosen for types no rule names: "TYPE=RULE (N fields, fault
    // F)", comma-separated; and the searches made.
    std::string rules;
    for (const UnknownTypeRule& r : parser.entities().chosen_rules()) {
      rules += fmt::format("{}{}={} ({} fields, fault {})", rules.empty() ? "" : ", ", r.type,
                           r.rule, r.fields, r.fault);
    }
    GEM_RETURN_IF_ERROR(text("unknown_type_rules", rules));
    GEM_RETURN_IF_ERROR(num("rule_searches", static_cast<int64_t>(parser.entities().rule_searches())));
    GEM_RETURN_IF_ERROR(num("rules_undone", static_cast<int64_t>(parser.entities().rules_undone())));
  }
  {
    // The game's tables whose only events the replay has not carried
    // (TableSpec::from_events): "table (event, ...)", comma-separated; ""
    // when none. A live commit says so as of its tick.
    std::string without;
    auto check = [&](const std::string& table, const std::vector<std::string>& events) {
      if (events.empty()) return;
      uint64_t seen = 0;
      std::string names;
      for (const std::string& name : events) {
        for (const auto& [watched, count] : table_events_) seen += watched == name ? count : 0;
        names += (names.empty() ? "" : ", ") + name;
      }
      if (seen == 0) without += fmt::format("{}{} ({})", without.empty() ? "" : ", ", table, names);
    };
    check("kills", game_.kill_events);
    for (const TableSpec& t : game_.tables) check(t.name, t.from_events);
    GEM_RETURN_IF_ERROR(text("tables_without_their_events", without));
  }
  // Creates of a class whose baseline the replay never held (a client's
  // recording can miss one): their fields the create did not send are
  // unknown, not the class's defaults (docs/recordings.md).
  GEM_RETURN_IF_ERROR(num("missing_class_baselines",
                          static_cast<int64_t>(parser.entities().counters().missing_baselines)));
  GEM_RETURN_IF_ERROR(num("default_rule_types",
                          static_cast<int64_t>(parser.schema().default_rule_types().size())));
  // What the game's module counted (names it could not resolve, handles
  // to no entity, ...), each a key of its own.
  for (const auto& [name, count] : parser.game_counters()) {
    GEM_RETURN_IF_ERROR(num(name.c_str(), static_cast<int64_t>(count)));
  }
  // A live run's: 1 while the match is followed (meta's last_tick is then
  // the last commit's), 0 once finished (written after ANALYZE, by
  // LiveMetaRows: its statistics are then the plain index's); a plain run
  // writes neither.
  if (live) {
    // The tables a live index rewrites at each commit as they stand (the
    // match layer's summary, the game's tables known whole only at the
    // end) and those whose rows come when what they describe is over
    // (TableSpec::written).
    std::string rewritten, when_closed;
    for (const TableSpec& t : game_.tables) {
      std::string* list = t.written == TableSpec::Written::kAtEnd        ? &rewritten
                          : t.written == TableSpec::Written::kWhenClosed ? &when_closed
                                                                          : nullptr;
      if (list != nullptr) *list += (list->empty() ? "" : ",") + t.name;
    }
    // (None is left for the end now: the key stays, for readers of it.)
    GEM_RETURN_IF_ERROR(text("live_at_end", ""));
    GEM_RETURN_IF_ERROR(text("live_rewritten", "match_info,players" +
                                                   (rewritten.empty() ? "" : "," + rewritten)));
    GEM_RETURN_IF_ERROR(text("live_when_closed", when_closed));
    GEM_RETURN_IF_ERROR(num("live", 1));
    GEM_RETURN_IF_ERROR(num("live_tick", live_tick));
    GEM_RETURN_IF_ERROR(real("live_commit_seconds", live_commit_seconds_));
  }
  return Status::Ok();
}

}  // namespace gem::index
