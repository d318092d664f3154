// Parser: reads a whole Source 2 replay and reports it to a Sink.
//
// Data flows one way: file bytes -> outer frames (demo_stream) -> inner
// messages (sorted by priority, stable) -> state (string tables, schema,
// entities) -> events -> sink. Outer frames:
//   DEM_FileHeader, DEM_FileInfo        replay metadata
//   DEM_SendTables, DEM_ClassInfo       the schema
//   DEM_SignonPacket, DEM_Packet        inner messages
//   DEM_FullPacket                      string-table snapshot + inner messages
//   DEM_StringTables                    string-table snapshot
// A snapshot fills what the create/update stream left empty (entries past
// the end, entries without data) and is ignored for a table where it
// contradicts the stream's data.
//   DEM_SyncTick                        end of the signon
//   anything else (user commands, spawn groups, unknown ids) is skipped.
// Inner messages are applied in priority order: net ticks, server info and
// string tables first, packet entities next, game events last, and the
// user messages the game's module reads at the priority it gives them;
// messages of equal priority keep their packet order. The parser names no
// game: what a game's messages, file info and types mean is its module's
// (core/match/game_module.h), which the game layer runs.
//
// Split recordings: ParseParts reads a match recorded in several files (a
// recording restarted mid-match), in recording order, as one replay. Each
// later part starts with its own header and signon, then the whole state:
// its header must name the same game, map and build, its schema and class
// info must be the same bytes, and its server ticks must not start before the
// previous part's end (else InvalidArgument, naming both parts). Its
// signon's string tables are staged and, at its first packet, compared
// with the held ones: entries that differ are reported then. Its first
// non-delta packet restates the entities (EntityManager::Restate): an
// entity at the same index with the same serial and class goes on. Its
// ticks are moved by the server ticks between the parts' starts, so ticks
// keep counting the match's time across the join (PartInfo). A part that
// shares no entity with the one before is another match, refused.
//
// Errors: Parse() returns a fatal Status (not a replay, unsupported,
// corrupt) with the byte offset of the frame at fault. A file cut after the
// signon (inside a frame, or on a frame boundary before DEM_Stop) is
// recoverable: Parse() returns ok, metadata().truncated is set and
// everything before the cut has been reported. A file cut before the signon
// ends (DEM_SyncTick) cannot be used: Truncated, fatal.
#ifndef GEM_CORE_PARSER_PARSER_H_
#define GEM_CORE_PARSER_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/input/demo_stream.h"
#include "core/entities/entities.h"
#include "core/events/events.h"
#include "core/events/game_events.h"
#include "core/input/inner_messages.h"
#include "core/match/game_layer.h"
#include "core/fields/schema.h"
#include "core/events/sink.h"
#include "core/util/status.h"
#include "core/string_tables/string_table.h"
#include "core/string_tables/string_table_messages.h"

namespace gem {

struct ParserCounters {
  uint64_t frames = 0;
  uint64_t demo_packets = 0;    // DEM_Packet
  uint64_t signon_packets = 0;  // DEM_SignonPacket
  uint64_t full_packets = 0;    // DEM_FullPacket
  uint64_t string_table_snapshots = 0;  // DEM_StringTables + full packets
  uint64_t string_table_snapshots_ignored = 0;  // tables contradicting the stream
  uint64_t inner_messages = 0;
  uint64_t skipped_frames = 0;  // commands the parser does not read
  uint64_t game_events = 0;
  // Events named by a known build's list (ReplayMetadata::event_list), and
  // events with no name at all (skipped).
  uint64_t game_events_named_by_known_list = 0;
  uint64_t game_events_unnamed = 0;
  uint64_t chat_messages = 0;  // SayText2 and the game's own chat lines
  uint64_t skipped_alternate_baselines = 0;
};

// One file of a split recording (Parser::ParseParts).
struct ReplayPart {
  std::string name;  // for messages: the file's name
  ReplaySource* source = nullptr;
  // As ParserOptions::consumed, for this part's bytes (may be empty).
  std::function<void(uint64_t)> consumed;
};

// How one part of a recording was read (Parser::parts()).
struct PartInfo {
  std::string name;
  int64_t first_tick = -1;  // the index's ticks: the part's own tick + tick_offset
  int64_t last_tick = -1;
  int64_t tick_offset = 0;
  int64_t first_server_tick = -1;  // net_Tick at its first packet
  int64_t last_server_tick = -1;   // and at its last frame
  // "first", or "continues": the server's ticks go on from the part
  // before, gap_ticks after its last.
  std::string join = "first";
  int64_t gap_ticks = 0;
  RestateCounts restated;           // the entities at the join
  uint64_t restated_entries = 0;    // string table entries that differed
  bool truncated = false;
  std::string truncation_reason;
  double playback_time = -1;        // its file info's, when it has one
  int64_t playback_ticks = -1;
  int64_t playback_frames = -1;
};

struct ParserOptions {
  // Run the match layer (core/match): players, timeline, kills, wards and
  // the game's analyst tables reach the sink as rows. Needs a sink. (The
  // game's own messages, such as Dota's combat log, are decoded anyway.)
  bool match_layer = false;
  // With the match layer: the game's analyst tables too (CS2's rounds,
  // damages, shots, grenades, flashes, bomb and economy; the other games
  // write theirs regardless). Off only to measure what they cost.
  bool game_tables = true;
  // Ticks between timeline samples; 0: one game second (the tick rate).
  int64_t timeline_step = 0;
  // Called after each outer frame with the offset the replay has been read
  // to (the caller may let those bytes go: MappedFile::DropBefore).
  std::function<void(uint64_t)> consumed;
  // Called once the replay's DEM_Stop is read and, when its header says
  // where its file info starts (a finished recording's does; one still
  // being written holds 0), the frame there too: what is left are the
  // last frames (a followed replay's reader
  // need not wait long for them: ReplayInput::StopFollowing). Before
  // then a followed replay waits as for any byte, so that its end does
  // not depend on how fast the frames after DEM_Stop were written.
  std::function<void()> stopped;
  // A self-check's hooks (gem-dump verify). Each full packet after the
  // first, whose entities the parse skips, goes to `full_packet` (it may
  // decode them: EntityManager::DecodeSnapshot); each full packet's string
  // tables go to `full_packet_tables` before the parse applies them. A
  // failure returned fails the parse.
  EntityManager::FullPacketObserver full_packet;
  std::function<Status(const std::vector<SnapshotTable>&, const TickInfo&)> full_packet_tables;
};

class Parser {
 public:
  // `sink` may be null (parse only); it must outlive the parser.
  explicit Parser(Sink* sink, const ParserOptions& options = {});
  ~Parser();
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  // Parses a whole replay held in memory, or read from `source`. Call once.
  Status Parse(const uint8_t* data, size_t size);
  Status Parse(ReplaySource* source);
  // A split recording's parts, in recording order (see the file comment).
  Status ParseParts(std::span<const ReplayPart> parts);
  // The parts read so far (one for Parse).
  const std::vector<PartInfo>& parts() const { return parts_; }

  // Reads only the demo header (the first frame) and the game it names
  // ("dota2", "cs2", "deadlock", or the header's own word); for callers
  // that must know the game before the parse.
  static Status ReadHeader(const uint8_t* data, size_t size, ReplayHeader* header,
                           std::string* game);
  // The same from a source's first kHeaderPeek bytes, without consuming
  // them.
  static constexpr size_t kHeaderPeek = 64u << 10;
  static Status ReadHeader(ReplaySource* source, ReplayHeader* header, std::string* game);

  // Read access to the state, valid during sink callbacks and after Parse.
  const ReplayMetadata& metadata() const { return meta_; }
  const Schema& schema() const { return schema_; }
  const StringTables& string_tables() const { return tables_; }
  const EntityManager& entities() const { return *entities_; }
  const GameEventRegistry& game_events() const { return game_events_; }
  // For tools that build on a parsed replay (gem-synth): the class
  // registries and baselines.
  EntityManager& mutable_entities() { return *entities_; }
  const ParserCounters& counters() const;
  // What the game's module counted (core/match/game_module.h), by name.
  std::vector<std::pair<std::string, uint64_t>> game_counters() const;
  // The match layer's summary as far as it is known mid-parse
  // (GameLayer::SoFar).
  MatchSummary summary_so_far() const;
  // The game's end-written tables as they stand (GameLayer::WriteSoFar),
  // given to the sink as table rows; for a live index's commit, from
  // within Parse() (between frames).
  void WriteSoFar();
  // Called by the input, between frames, when it has no more bytes for
  // now and those it gave end a tick (a broadcast's fragment holds whole
  // ticks): the match layer's samples due up to that tick are taken now,
  // as the next frame would take them, and the sink is told
  // (Sink::OnInputWaiting). On the parse's thread, from within Parse().
  void InputWaiting();
  const TickInfo& current() const { return tick_; }
  // Once Parse() has returned and nothing will read the entities again:
  // frees their states (EntityManager::ReleaseStates).
  void ReleaseEntityStates() { entities_->ReleaseStates(); }

 private:
  class Forwarder;

  // How a part's frame loop ended.
  enum class PartEnd { kStop, kTruncated };
  Status ReadPart(const ReplayPart& part, PartEnd* how);
  Status StartPart(const ReplayPart& part);
  // A later part's first packet: the tick offset from its net tick, the
  // checks that it continues the one before, the staged string tables.
  Status JoinPart(const Frame& frame);
  Status JoinTables();
  Status PeekNetTick(const Frame& frame, uint32_t* net_tick);
  Status CheckPartHeader(const ReplayHeader& h);
  // For a later part: whether the frame's bytes hash as the first part's
  // did (kept in `hash` from the first).
  bool SamePartBytes(const Frame& frame, size_t* hash);
  Status PartDiffers(const std::string& what) const;
  StringTable* TableOfPart(int32_t id);
  Status ReadFrame(const Frame& frame);
  Status ApplyPacket(const uint8_t* data, size_t size);
  Status ApplyInner(uint32_t type, const uint8_t* data, size_t size);
  Status ApplyUserMessage(uint32_t type, const uint8_t* data, size_t size);
  Status ApplyStringTableSnapshot(std::string_view snapshot);
  Status OnCreateStringTable(const uint8_t* data, size_t size);
  Status OnUpdateStringTable(const uint8_t* data, size_t size);
  void ReportEntries(StringTable* table);
  void FinishMetadata();
  // A client recording's recorder, from its userinfo entry (meta_).
  void FindRecorder();
  // A game event came before any descriptor list: the game module's known
  // list of the closest build, once (meta_.event_list).
  Status LoadKnownEventList();

  Sink* sink_;
  std::unique_ptr<Forwarder> forwarder_;
  Schema schema_;
  StringTables tables_;
  std::unique_ptr<EntityManager> entities_;
  GameEventRegistry game_events_;
  ReplayMetadata meta_;
  mutable ParserCounters counters_;
  uint64_t say_text_lines_ = 0;
  TickInfo tick_;
  bool signon_done_ = false;
  bool saw_stop_ = false;
  bool told_stopped_ = false;  // stopped_ called
  static constexpr int kMaxFramesAfterStop = 16;
  // Ticks a packet may be past the one before: a day at 64 ticks a second.
  static constexpr int64_t kMaxTickJump = int64_t{64} * 86400;
  int frames_after_stop_ = 0;
  bool have_server_info_ = false;
  bool tried_known_event_list_ = false;

  // Split recordings (ParseParts).
  std::vector<PartInfo> parts_;
  bool joining_ = false;        // a later part's signon: not yet joined
  StringTables staged_tables_;  // its string tables, until the join
  std::vector<int32_t> part_table_ids_;  // its table ids -> held ids
  int64_t tick_offset_ = 0;
  uint64_t bytes_before_part_ = 0;  // the parts before this one's bytes
  bool sink_failed_ = false;
  size_t send_tables_hash_ = 0, class_info_hash_ = 0;

  struct Impl;  // protobuf messages and decoders, reused
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<match::GameLayer> game_;  // the game's module, and the match layer
  std::vector<int8_t> priorities_;  // inner messages', by type (see SplitPacket)
  std::function<void(uint64_t)> consumed_;
  std::function<void()> stopped_;
  std::function<Status(const std::vector<SnapshotTable>&, const TickInfo&)> full_packet_tables_;

  // One packet's inner messages (reused).
  std::vector<InnerMessage> inner_;
  std::string inner_data_;
  std::vector<int32_t> changed_;
  std::vector<SnapshotTable> snapshot_;
  std::string table_data_;  // a decompressed table's entries
};

}  // namespace gem

#endif  // GEM_CORE_PARSER_PARSER_H_
