// Parser: a split recording's parts (see parser.h): reading them in order,
// and the checks and tick offset with which a later part joins the one
// before. (The frame loop is parser.cc's; the string tables' join,
// parser_string_tables.cc's.)
#include <algorithm>
#include <functional>
#include <string>

#include "core/input/inner_messages.h"
#include "core/parser/parser.h"
#include "core/util/proto_wire.h"
#include "proto/netmessages.pb.h"

namespace gem {

Status Parser::ParseParts(std::span<const ReplayPart> parts) {
  if (parts.empty() || !parts_.empty()) {
    return Status::InvalidArgument("a parse reads one replay, or one list of parts, once");
  }
  Status s;
  for (const ReplayPart& part : parts) {
    PartEnd how = PartEnd::kStop;
    s = ReadPart(part, &how);
    if (!s.ok()) {
      if (parts.size() > 1 && s.code() != Status::Code::kInvalidArgument) {
        s = s.WithContext(part.name);
      }
      break;
    }
  }
  PartInfo& last = parts_.back();
  last.truncated = meta_.truncated;
  last.truncation_reason = meta_.truncation_reason;
  last.last_server_tick = tick_.net_tick;
  if (parts_.size() > 1 && meta_.has_file_info) {
    // The recording's playback is its parts' together.
    double time = 0;
    int64_t ticks = 0, frames = 0;
    for (const PartInfo& p : parts_) {
      time += std::max(0.0, p.playback_time);
      ticks += std::max<int64_t>(0, p.playback_ticks);
      frames += std::max<int64_t>(0, p.playback_frames);
    }
    meta_.playback_time = static_cast<float>(time);
    meta_.playback_ticks = static_cast<int32_t>(ticks);
    meta_.playback_frames = static_cast<int32_t>(frames);
  }
  FinishMetadata();
  if (!s.ok()) {
    // A sink that failed hears no more.
    if (sink_ && !sink_failed_) sink_->OnMetadata(meta_);
    return s;
  }
  game_->Finish(meta_);
  if (sink_) sink_->OnMetadata(meta_);
  return Status::Ok();
}

Status Parser::StartPart(const ReplayPart& part) {
  if (!parts_.empty()) {
    PartInfo& prev = parts_.back();
    prev.truncated = meta_.truncated;
    prev.truncation_reason = meta_.truncation_reason;
    prev.last_server_tick = tick_.net_tick;
    meta_.truncated = false;
    meta_.truncation_reason.clear();
    signon_done_ = false;
    saw_stop_ = false;
    told_stopped_ = false;
    frames_after_stop_ = 0;
    joining_ = true;
    staged_tables_.Clear();
    part_table_ids_.clear();
  }
  PartInfo info;
  info.name = part.name;
  parts_.push_back(std::move(info));
  consumed_ = part.consumed;
  bytes_before_part_ = meta_.bytes_read;
  return Status::Ok();
}

// The net tick a packet frame carries (0 when it has none).
Status Parser::PeekNetTick(const Frame& frame, uint32_t* net_tick) {
  *net_tick = 0;
  const uint8_t* packet = frame.data;
  size_t size = frame.size;
  if (frame.command == kDemFullPacket) {
    WireReader r(frame.data, frame.size);
    packet = nullptr;
    while (r.Next()) {
      if (r.field() == 2 && r.wire_type() == 2) {
        packet = r.bytes_data();
        size = r.bytes().size();
      }
    }
    if (!r.ok()) return Status::Corrupt("full packet does not parse", frame.offset);
    if (packet == nullptr) return Status::Ok();
  }
  const uint8_t* data = nullptr;
  size_t data_size = 0;
  bool found = false;
  if (!FindBytesField(packet, size, 3, &data, &data_size, &found)) {
    return Status::Corrupt("packet does not parse", frame.offset);
  }
  if (!found) return Status::Ok();
  GEM_RETURN_IF_ERROR(SplitPacket(data, data_size, &inner_, &inner_data_, priorities_));
  for (const InnerMessage& msg : inner_) {
    if (msg.type != kNetTick) continue;
    proto::CNETMsg_Tick t;
    if (t.ParseFromArray(inner_data_.data() + msg.offset, static_cast<int>(msg.size)) &&
        t.has_tick()) {
      *net_tick = t.tick();
    }
    break;
  }
  return Status::Ok();
}

Status Parser::JoinPart(const Frame& frame) {
  PartInfo& info = parts_.back();
  const PartInfo& prev = parts_[parts_.size() - 2];
  uint32_t net_tick = 0;
  GEM_RETURN_IF_ERROR(PeekNetTick(frame, &net_tick));
  if (net_tick == 0) {
    return Status::Corrupt("the first packet after the signon has no net tick: the part " +
                               info.name + " cannot be placed after " + prev.name,
                           frame.offset);
  }
  // The index's ticks go on as the server's did between the parts: the
  // part starts as many ticks after the last one's end as the server
  // ticked meanwhile.
  const int64_t gap = int64_t{net_tick} - prev.last_server_tick;
  const int64_t first = prev.last_tick + gap;
  const int64_t offset = first - frame.tick;
  // (A part may start at the tick the one before ended: its first full
  // packet restates the state that tick's packet left.)
  if (gap < 0 || gap > kMaxTickJump || prev.last_tick < 0 || first > int64_t{0xFFFFFFFE}) {
    return Status::InvalidArgument(
        info.name + " does not follow " + prev.name + ": it starts at server tick " +
        std::to_string(net_tick) + ", and " + prev.name + " ends at server tick " +
        std::to_string(prev.last_server_tick) +
        ". Give the parts in recording order (a match resumed on a restarted server, "
        "whose ticks start again, is not one recording)");
  }
  tick_offset_ = offset;
  info.join = "continues";
  info.gap_ticks = gap;
  joining_ = false;
  return Status::Ok();
}

bool Parser::SamePartBytes(const Frame& frame, size_t* hash) {
  const size_t h = std::hash<std::string_view>()(
      std::string_view(reinterpret_cast<const char*>(frame.data), frame.size));
  if (parts_.size() <= 1) {
    *hash = h;
    return true;
  }
  return *hash == h;
}

Status Parser::PartDiffers(const std::string& what) const {
  return Status::InvalidArgument(parts_.back().name + " is not part of the same recording as " +
                                 parts_[parts_.size() - 2].name + ": its " + what +
                                 " differs (another build or another match)");
}

Status Parser::CheckPartHeader(const ReplayHeader& h) {
  const ReplayHeader& first = meta_.header;
  auto differs = [&](const char* what, const std::string& mine, const std::string& theirs) {
    return Status::InvalidArgument(parts_.back().name + " is not part of the same recording as " +
                                   parts_[parts_.size() - 2].name + ": its " + what + " is '" +
                                   mine + "', not '" + theirs + "'");
  };
  if (h.game != first.game) return differs("game", h.game, first.game);
  if (h.map_name != first.map_name) return differs("map", h.map_name, first.map_name);
  if (h.game_directory != first.game_directory) {
    return differs("game directory", h.game_directory, first.game_directory);
  }
  if (h.build_num != first.build_num) {
    return differs("build", std::to_string(h.build_num), std::to_string(first.build_num));
  }
  if (h.network_protocol != first.network_protocol) {
    return differs("network protocol", std::to_string(h.network_protocol),
                   std::to_string(first.network_protocol));
  }
  return Status::Ok();
}

}  // namespace gem
