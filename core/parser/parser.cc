#include "core/parser/parser.h"

#include <algorithm>
#include <charconv>
#include <functional>

#include "core/util/bit_reader.h"
#include "core/input/inner_messages.h"
#include "core/match/games.h"
#include "core/util/proto_wire.h"
#include "core/events/say_text.h"
#include "core/string_tables/string_table_messages.h"
#include "proto/demo.pb.h"
#include "proto/gameevents.pb.h"
#include "proto/netmessages.pb.h"

namespace gem {

// Sits between the entity manager and the user's sink, to show the game
// layer every entity on the way.
class Parser::Forwarder : public Sink {
 public:
  Forwarder(Parser* parser, Sink* out) : parser_(parser), out_(out) {}

  void OnFieldRegistered(const ClassFields& c, uint32_t id) override {
    if (out_) out_->OnFieldRegistered(c, id);
  }
  void OnEntityCreated(const TickInfo& t, const EntityRef& r,
                       std::span<const FieldChange> s) override {
    if (out_) out_->OnEntityCreated(t, r, s);
    parser_->game_->OnEntityCreated(t, *parser_->entities_->Get(r.index));
  }
  void OnEntityUpdated(const TickInfo& t, const EntityRef& r,
                       std::span<const FieldChange> c) override {
    if (out_) out_->OnEntityUpdated(t, r, c);
    parser_->game_->OnEntityUpdated(t, *parser_->entities_->Get(r.index), c);
  }
  void OnEntityLeft(const TickInfo& t, const EntityRef& r) override {
    if (out_) out_->OnEntityLeft(t, r);
    parser_->game_->OnEntityLeft(t, *parser_->entities_->Get(r.index));
  }
  void OnEntityDeleted(const TickInfo& t, const EntityRef& r) override {
    parser_->game_->OnEntityDeleted(t, *parser_->entities_->Get(r.index));
    if (out_) out_->OnEntityDeleted(t, r);
  }

 private:
  Parser* parser_;
  Sink* out_;
};

struct Parser::Impl {
  proto::CDemoFileHeader header;
  proto::CDemoFileInfo file_info;
  proto::CDemoClassInfo class_info;
  proto::CNETMsg_Tick net_tick;
  proto::CSVCMsg_ServerInfo server_info;
  proto::CSVCMsg_UserMessage user_message;
  proto::CMsgSource1LegacyGameEventList event_list;
  proto::CMsgSource1LegacyGameEvent event;
  GameEvent decoded_event;
  SayTextDecoder say_text;
  ChatMessage chat_message;
};

Parser::Parser(Sink* sink, const ParserOptions& options)
    : sink_(sink),
      impl_(std::make_unique<Impl>()),
      consumed_(options.consumed),
      stopped_(options.stopped),
      full_packet_tables_(options.full_packet_tables) {
  forwarder_ = std::make_unique<Forwarder>(this, sink);
  entities_ = std::make_unique<EntityManager>(&schema_, forwarder_.get());
  entities_->EnableRuleSearch(&schema_);
  match::GameLayerOptions g;
  g.match_layer = options.match_layer;
  g.game_tables = options.game_tables;
  g.timeline_step = options.timeline_step;
  game_ = std::make_unique<match::GameLayer>(&schema_, entities_.get(), &tables_, sink, g);
  // Creations' states and updates' changes are for the sink and the match
  // layer (which runs only beside a sink); a parse without one only keeps
  // the state.
  entities_->set_report_created_state(sink != nullptr);
  entities_->set_report_updates(sink != nullptr);
  if (options.full_packet) entities_->set_full_packet_observer(options.full_packet);
}

Parser::~Parser() = default;

Status Parser::Parse(const uint8_t* data, size_t size) {
  meta_.bytes = size;
  MemorySource source(data, size);
  return Parse(&source);
}

namespace {

// The offset of the last frame a replay's header says follows DEM_Stop:
// its file info, which a recorder writes last (0 while it is still
// writing). (Not the spawn groups': old Dota replays hold another number
// there, larger than the file.)
uint64_t LastPromisedFrame(const DemoStream& stream) { return stream.fileinfo_offset(); }

}  // namespace

Status Parser::Parse(ReplaySource* source) {
  ReplayPart part;
  part.source = source;
  part.consumed = consumed_;
  return ParseParts(std::span<const ReplayPart>(&part, 1));
}

Status Parser::ReadPart(const ReplayPart& part, PartEnd* how) {
  GEM_RETURN_IF_ERROR(StartPart(part));
  PartInfo& info = parts_.back();
  DemoStream stream(part.source);
  GEM_RETURN_IF_ERROR(stream.Open());
  meta_.bytes_read = bytes_before_part_ + DemoStream::kHeaderSize;
  *how = PartEnd::kStop;
  bool restating = false;
  for (;;) {
    Frame frame;
    bool end = false;
    Status s = stream.Next(&frame, &end);
    if (!s.ok()) {
      if (s.IsRecoverable() && signon_done_) {
        meta_.truncated = true;
        meta_.truncation_reason = s.ToString();
        *how = PartEnd::kTruncated;
        break;
      }
      return s.IsRecoverable()
                 ? s.WithContext("the replay ends before its signon is complete")
                 : s;
    }
    if (!end && saw_stop_ && ++frames_after_stop_ > kMaxFramesAfterStop) {
      // After DEM_Stop a replay has its file info and spawn groups. One
      // that goes on (a decompression bomb of empty frames, terabytes of
      // them) is refused, not read to its end.
      return Status::Corrupt("more than " + std::to_string(kMaxFramesAfterStop) +
                                 " frames follow DEM_Stop: the replay does not end there",
                             frame.offset);
    }
    if (end) {
      if (saw_stop_) break;
      // The file ends on a frame boundary but before DEM_Stop: cut there.
      Status cut = Status::Truncated("the replay ends without DEM_Stop", stream.position());
      if (signon_done_) {
        meta_.truncated = true;
        meta_.truncation_reason = cut.ToString();
        *how = PartEnd::kTruncated;
        break;
      }
      return cut.WithContext("the replay ends before its signon is complete");
    }
    const bool packet = frame.tick != 0xFFFFFFFFu &&
                        (frame.command == kDemPacket || frame.command == kDemFullPacket);
    bool joined = false;
    if (joining_ && packet) {
      GEM_RETURN_IF_ERROR(JoinPart(frame));
      joined = true;
    }
    tick_.command = frame.command;
    tick_.offset = frame.offset;
    ++counters_.frames;
    if (joining_) {
      // A later part's signon builds what the join compares; nothing in it
      // is an event of the match (its frames keep the last tick read).
      tick_.signon = true;
      s = ReadFrame(frame);
    } else {
      tick_.tick = frame.tick == 0xFFFFFFFFu
                       ? frame.tick
                       : static_cast<uint32_t>(int64_t{frame.tick} + tick_offset_);
      if (saw_stop_ && meta_.last_tick >= 0) {
        // The frames after DEM_Stop (file info, spawn groups) end the
        // recording at its last tick, whatever tick they carry.
        tick_.tick = static_cast<uint32_t>(meta_.last_tick);
      } else if (frame.tick != 0xFFFFFFFFu && meta_.last_tick >= 0 &&
                 tick_.tick > meta_.last_tick + kMaxTickJump) {
        // Time runs to a frame's tick (timeline samples, keyframes): a
        // jump of days is damage, not a recording.
        return Status::Corrupt("the ticks jump from " + std::to_string(meta_.last_tick) +
                                   " to " + std::to_string(tick_.tick),
                               frame.offset);
      }
      tick_.signon = !signon_done_;
      // Timeline samples due before this frame see the state before it.
      game_->BeforeFrame(tick_);
      if (sink_) sink_->OnFrameStart(tick_);
      if (joined) {
        s = JoinTables();
        entities_->ExpectRestatement();
        restating = true;
      }
      if (s.ok()) s = ReadFrame(frame);
    }
    if (!s.ok()) {
      if (s.code() == Status::Code::kInvalidArgument) return s;
      return s.WithContext(std::string(DemoCommandName(frame.command)) + " at tick " +
                               std::to_string(frame.tick),
                           frame.offset);
    }
    meta_.bytes_read = bytes_before_part_ + stream.position();
    if (consumed_) consumed_(stream.position());
    if (joining_) continue;
    if (restating && !entities_->expecting_restatement()) {
      restating = false;
      info.restated = entities_->last_restatement();
      const PartInfo& prev = parts_[parts_.size() - 2];
      if (info.restated.kept == 0 && info.restated.deleted > 0) {
        return Status::InvalidArgument(
            info.name + " is not part of the same recording as " + prev.name +
            ": none of the " + std::to_string(info.restated.deleted) +
            " entities live at its end goes on in it (another match)");
      }
    }
    if (saw_stop_ && !told_stopped_ && frame.offset >= LastPromisedFrame(stream)) {
      told_stopped_ = true;
      if (stopped_) stopped_();
    }
    if (sink_) {
      Status health = sink_->Health();
      if (!health.ok()) {
        sink_failed_ = true;
        return health;
      }
    }
    if (packet && info.first_tick < 0) {
      info.first_tick = tick_.tick;
      info.first_server_tick = tick_.net_tick;
      info.tick_offset = tick_offset_;
    }
    if (frame.tick != 0xFFFFFFFFu &&
        (packet || frame.command == kDemStop)) {
      meta_.last_tick = tick_.tick;
      info.last_tick = tick_.tick;
    }
    game_->AfterFrame(tick_, &meta_);
    if (sink_) sink_->OnFrameEnd(tick_);
  }
  return Status::Ok();
}

void Parser::FinishMetadata() {
  // A stream's size is what it held (a buffer's is known beforehand).
  meta_.bytes = std::max(meta_.bytes, meta_.bytes_read);
  meta_.game = match::GameOf(meta_.header);
  // The header's build, unless the game's module knows better.
  meta_.game_build = meta_.header.build_num;
  meta_.game_build_from_header = true;
  FindRecorder();
  game_->FinishMetadata(&meta_);
}

const ParserCounters& Parser::counters() const {
  counters_.chat_messages = say_text_lines_ + game_->chat_lines();
  return counters_;
}

MatchSummary Parser::summary_so_far() const { return game_->SoFar(meta_); }

void Parser::WriteSoFar() { game_->WriteSoFar(); }

void Parser::InputWaiting() {
  if (!signon_done_) return;
  game_->SampleThroughLastFrame();
  if (sink_) sink_->OnInputWaiting();
}

std::vector<std::pair<std::string, uint64_t>> Parser::game_counters() const {
  const match::GameModule* m = game_->module();
  return m == nullptr ? std::vector<std::pair<std::string, uint64_t>>() : m->Counters();
}

Status Parser::ReadFrame(const Frame& frame) {
  Impl& m = *impl_;
  const int size = static_cast<int>(frame.size);
  switch (frame.command) {
    case kDemFileHeader: {
      m.header.Clear();
      if (!m.header.ParseFromArray(frame.data, size)) {
        return Status::Corrupt("file header does not parse");
      }
      ReplayHeader h;
      h.demo_file_stamp = m.header.demo_file_stamp();
      h.network_protocol = m.header.patch_version();
      h.server_name = m.header.server_name();
      h.client_name = m.header.client_name();
      h.map_name = m.header.map_name();
      h.game_directory = m.header.game_directory();
      h.fullpackets_version = m.header.fullpackets_version();
      h.demo_version_name = m.header.demo_version_name();
      h.demo_version_guid = m.header.demo_version_guid();
      h.build_num = m.header.build_num();
      h.game = m.header.game();
      h.server_start_tick = m.header.server_start_tick();
      if (parts_.size() > 1) return CheckPartHeader(h);
      meta_.header = h;
      meta_.game = match::GameOf(h);
      if (sink_) sink_->OnHeader(h);
      game_->SetGame(meta_.game);
      if (const match::GameModule* g = game_->module()) schema_.SetGameTypeRules(g->type_rules());
      // Inner messages are applied at the engine's priorities and, for the
      // user messages the game's module reads, at the module's.
      priorities_.clear();
      for (uint32_t type = 0; type < std::max<size_t>(256, game_->ReadsEnd()); ++type) {
        priorities_.push_back(static_cast<int8_t>(
            game_->Reads(type) ? game_->PriorityOf(type) : InnerMessagePriority(type)));
      }
      return Status::Ok();
    }
    case kDemFileInfo: {
      m.file_info.Clear();
      if (!m.file_info.ParseFromArray(frame.data, size)) {
        return Status::Corrupt("file info does not parse");
      }
      meta_.has_file_info = true;
      if (m.file_info.has_playback_time()) meta_.playback_time = m.file_info.playback_time();
      parts_.back().playback_time = m.file_info.has_playback_time() ? m.file_info.playback_time() : -1;
      parts_.back().playback_ticks = m.file_info.has_playback_ticks() ? m.file_info.playback_ticks() : -1;
      parts_.back().playback_frames =
          m.file_info.has_playback_frames() ? m.file_info.playback_frames() : -1;
      if (m.file_info.has_playback_ticks()) meta_.playback_ticks = m.file_info.playback_ticks();
      if (m.file_info.has_playback_frames()) meta_.playback_frames = m.file_info.playback_frames();
      // The game's part is its module's to read.
      const uint8_t* game_info = nullptr;
      size_t game_info_size = 0;
      bool has_game_info = false;
      if (!FindBytesField(frame.data, frame.size, 4, &game_info, &game_info_size,
                          &has_game_info)) {
        return Status::Corrupt("file info does not parse");
      }
      if (has_game_info) {
        return game_->OnGameInfo(tick_, game_info, game_info_size, &meta_);
      }
      return Status::Ok();
    }
    case kDemSyncTick:
      signon_done_ = true;
      return Status::Ok();
    case kDemStop:
      saw_stop_ = true;
      return Status::Ok();
    case kDemSendTables: {
      if (!SamePartBytes(frame, &send_tables_hash_)) {
        return PartDiffers("schema (send tables)");
      }
      if (parts_.size() > 1) return Status::Ok();  // the same: built already
      // CDemoSendTables.data (field 1): a varint length, then a
      // CSVCMsg_FlattenedSerializer.
      const uint8_t* raw = nullptr;
      size_t raw_size = 0;
      bool found = false;
      if (!FindBytesField(frame.data, frame.size, 1, &raw, &raw_size, &found)) {
        return Status::Corrupt("send tables do not parse");
      }
      std::string_view d(reinterpret_cast<const char*>(raw), found ? raw_size : 0);
      BitReader r(reinterpret_cast<const uint8_t*>(d.data()), d.size());
      uint32_t len = r.ReadVarUint32();
      size_t start = r.position_bits() / 8;
      if (r.overflowed() || len > d.size() - start) {
        return Status::Corrupt("send tables claim " + std::to_string(len) +
                               " bytes of " + std::to_string(d.size()));
      }
      FlattenedSerializerMessage serializers;
      if (!ParseFlattenedSerializer(d.substr(start, len), &serializers)) {
        return Status::Corrupt("flattened serializer does not parse");
      }
      float tick_interval = meta_.tick_interval > 0 ? meta_.tick_interval : 1.0f / 30;
      return schema_.Build(serializers, tick_interval);
    }
    case kDemClassInfo: {
      if (!SamePartBytes(frame, &class_info_hash_)) {
        return PartDiffers("class info");
      }
      if (parts_.size() > 1) return Status::Ok();
      m.class_info.Clear();
      if (!m.class_info.ParseFromArray(frame.data, size)) {
        return Status::Corrupt("class info does not parse");
      }
      for (const auto& c : m.class_info.classes()) {
        schema_.SetClass(c.class_id(), c.network_name());
      }
      return Status::Ok();
    }
    case kDemStringTables:
      ++counters_.string_table_snapshots;
      return ApplyStringTableSnapshot(
          std::string_view(reinterpret_cast<const char*>(frame.data), frame.size));
    case kDemPacket:
    case kDemSignonPacket: {
      if (frame.command == kDemPacket) {
        ++counters_.demo_packets;
        if (meta_.first_tick < 0 && frame.tick != 0xFFFFFFFFu) meta_.first_tick = frame.tick;
      } else {
        ++counters_.signon_packets;
      }
      const uint8_t* data = nullptr;
      size_t data_size = 0;
      bool found = false;
      if (!FindBytesField(frame.data, frame.size, 3, &data, &data_size, &found)) {
        return Status::Corrupt("packet does not parse");
      }
      return found ? ApplyPacket(data, data_size) : Status::Ok();
    }
    case kDemFullPacket: {
      ++counters_.full_packets;
      // CDemoFullPacket: string_table (1), then packet (2, a CDemoPacket).
      std::string_view tables, packet;
      bool has_tables = false, has_packet = false;
      WireReader r(frame.data, frame.size);
      while (r.Next()) {
        if (r.wire_type() != 2) continue;
        if (r.field() == 1) {
          tables = r.bytes();
          has_tables = true;
        } else if (r.field() == 2) {
          packet = r.bytes();
          has_packet = true;
        }
      }
      if (!r.ok()) return Status::Corrupt("full packet does not parse");
      if (has_tables) {
        ++counters_.string_table_snapshots;
        if (full_packet_tables_) {
          if (!ReadStringTableSnapshot(tables, &snapshot_)) {
            return Status::Corrupt("string table snapshot does not parse");
          }
          GEM_RETURN_IF_ERROR(full_packet_tables_(snapshot_, tick_));
        }
        GEM_RETURN_IF_ERROR(ApplyStringTableSnapshot(tables));
      }
      if (has_packet) {
        const uint8_t* data = nullptr;
        size_t data_size = 0;
        bool found = false;
        if (!FindBytesField(reinterpret_cast<const uint8_t*>(packet.data()), packet.size(), 3,
                            &data, &data_size, &found)) {
          return Status::Corrupt("full packet's packet does not parse");
        }
        if (found) return ApplyPacket(data, data_size);
      }
      return Status::Ok();
    }
    default:
      ++counters_.skipped_frames;
      return Status::Ok();
  }
}

Status Parser::ApplyPacket(const uint8_t* data, size_t size) {
  GEM_RETURN_IF_ERROR(SplitPacket(data, size, &inner_, &inner_data_, priorities_));
  counters_.inner_messages += inner_.size();
  for (size_t i = 0; i < inner_.size(); ++i) {
    const InnerMessage& msg = inner_[i];
    Status s = ApplyInner(
        msg.type, reinterpret_cast<const uint8_t*>(inner_data_.data()) + msg.offset,
        msg.size);
    if (!s.ok()) {
      return s.WithContext("inner message " + std::to_string(msg.type));
    }
  }
  return Status::Ok();
}

Status Parser::ApplyInner(uint32_t type, const uint8_t* data, size_t size) {
  Impl& m = *impl_;
  const int isize = static_cast<int>(size);
  switch (type) {
    case kNetTick:
      m.net_tick.Clear();
      if (!m.net_tick.ParseFromArray(data, isize)) {
        return Status::Corrupt("net_Tick does not parse");
      }
      if (m.net_tick.has_tick()) tick_.net_tick = m.net_tick.tick();
      return Status::Ok();
    case kSvcServerInfo: {
      m.server_info.Clear();
      if (!m.server_info.ParseFromArray(data, isize)) {
        return Status::Corrupt("server info does not parse");
      }
      const auto& si = m.server_info;
      have_server_info_ = true;
      meta_.max_classes = si.max_classes();
      meta_.max_clients = si.max_clients();
      meta_.tick_interval = si.tick_interval();
      meta_.server_map = si.map_name();
      meta_.server_game_dir = si.game_dir();
      meta_.server_host_name = si.host_name();
      meta_.client_recording = si.has_is_hltv() && !si.is_hltv();
      meta_.recorder_slot = meta_.client_recording ? si.player_slot() : -1;
      entities_->SetMaxClasses(si.max_classes());
      game_->SetTickInterval(si.tick_interval());
      return Status::Ok();
    }
    case kSvcCreateStringTable:
      return OnCreateStringTable(data, size);
    case kSvcUpdateStringTable:
      return OnUpdateStringTable(data, size);
    case kSvcClearAllStringTables:
      if (joining_) {
        staged_tables_.Clear();
      } else {
        tables_.Clear();
      }
      part_table_ids_.clear();
      return Status::Ok();
    case kSvcPacketEntities: {
      if (!schema_.built()) return Status::Ok();  // nothing to decode with yet
      PacketEntities pe;
      if (!ReadPacketEntities(data, size, &pe)) {
        return Status::Corrupt("packet entities do not parse");
      }
      return entities_->Apply(pe, tick_);
    }
    case kSvcUserMessage: {
      m.user_message.Clear();
      if (!m.user_message.ParseFromArray(data, isize)) {
        return Status::Corrupt("user message does not parse");
      }
      const std::string& d = m.user_message.msg_data();
      // Copy: the payload lives in the message we are about to reuse.
      std::string payload = d;
      return ApplyUserMessage(m.user_message.msg_type(),
                              reinterpret_cast<const uint8_t*>(payload.data()),
                              payload.size());
    }
    case kGeSource1LegacyGameEventList:
      m.event_list.Clear();
      if (!m.event_list.ParseFromArray(data, isize)) {
        return Status::Corrupt("game event list does not parse");
      }
      game_events_.Load(m.event_list);
      meta_.event_list = "replay";
      return Status::Ok();
    case kGeSource1LegacyGameEvent: {
      m.event.Clear();
      if (!m.event.ParseFromArray(data, isize)) {
        return Status::Corrupt("game event does not parse");
      }
      if (!game_events_.loaded()) GEM_RETURN_IF_ERROR(LoadKnownEventList());
      if (!game_events_.Decode(m.event, &m.decoded_event).ok()) {
        // Neither a list nor the event names it: nothing to file it under.
        ++counters_.game_events_unnamed;
        return Status::Ok();
      }
      ++counters_.game_events;
      if (meta_.event_list == "known") ++counters_.game_events_named_by_known_list;
      if (sink_) sink_->OnGameEvent(tick_, m.decoded_event);
      game_->OnGameEvent(tick_, m.decoded_event);
      return Status::Ok();
    }
    default:
      return ApplyUserMessage(type, data, size);
  }
}

Status Parser::ApplyUserMessage(uint32_t type, const uint8_t* data, size_t size) {
  Impl& m = *impl_;
  if (type == kUmSayText2) {
    GEM_RETURN_IF_ERROR(m.say_text.Decode(data, size, &m.chat_message));
    ++say_text_lines_;
    if (sink_) sink_->OnChatMessage(tick_, m.chat_message);
    return Status::Ok();
  }
  // A message of the game's own, if its module reads it.
  if (game_->Reads(type)) return game_->OnUserMessage(tick_, type, data, size);
  return Status::Ok();
}

}  // namespace gem
