// gem-dump split --at T1[,T2,...] REPLAY OUT_PREFIX: the replay as a
// recording restarted at each tick would have left it, in files
// OUT_PREFIX1.dem, OUT_PREFIX2.dem, ... (gem-index reads them back as one
// match; docs/recordings.md).
//
// A cut at tick T ends a part with the frames up to T, and the next part
// starts at the first full packet at or after T: what lies between is in
// neither file, as when a recording stops and starts again (nothing, when
// T is a full packet's tick). A part ends with DEM_Stop and a file info of its own (its playback ticks, time
// and frames; no game info). The next part starts as a new recording
// does: the replay's header, then its signon with the string tables as
// the server holds them at the cut (each create carries the entries the
// parse holds there; a table created after the signon is created at its
// end; the signon's snapshot is the tables' as they stand), then the full
// packet and the frames after it. Its frame ticks start again at the
// replay's first packet tick; the server ticks inside the packets go on.
// The last part keeps the replay's own end (DEM_Stop, file info, spawn
// groups).
#include <fmt/core.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/input/demo_stream.h"
#include "core/input/inner_messages.h"
#include "core/parser/parser.h"
#include "core/string_tables/string_table_writer.h"
#include "core/util/exit_codes.h"
#include "core/util/proto_wire.h"
#include "proto/demo.pb.h"
#include "proto/netmessages.pb.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"
#include "tools/synth/replay_writer.h"

namespace gem::dump {
namespace {

// A string table as the parse holds it at a cut.
struct HeldTable {
  std::string name;
  StringTableSettings settings;
  std::vector<StringTableEntry> entries;
};

// Takes the string tables as they stand when the frames at `cuts`
// (offsets) start.
class CutSink : public Sink {
 public:
  CutSink(const std::vector<uint64_t>& cuts, std::vector<std::vector<HeldTable>>* out)
      : cuts_(cuts), out_(out) {}
  void set_parser(const Parser* p) { parser_ = p; }
  void OnFrameStart(const TickInfo& t) override {
    if (next_ >= cuts_.size() || t.offset != cuts_[next_]) return;
    ++next_;
    std::vector<HeldTable>& tables = out_->emplace_back();
    const StringTables& held = parser_->string_tables();
    for (size_t id = 0; id < held.size(); ++id) {
      const StringTable* t = held.Get(static_cast<int32_t>(id));
      HeldTable h{t->name(), t->settings(), {}};
      for (size_t i = 0; i < t->size(); ++i) h.entries.push_back(t->entry(i));
      tables.push_back(std::move(h));
    }
  }

 private:
  const std::vector<uint64_t>& cuts_;
  std::vector<std::vector<HeldTable>>* out_;
  const Parser* parser_ = nullptr;
  size_t next_ = 0;
};

std::string CreateMessage(const HeldTable& t, std::string_view original) {
  proto::CSVCMsg_CreateStringTable msg;
  if (!original.empty()) msg.ParseFromArray(original.data(), static_cast<int>(original.size()));
  msg.set_name(t.name);
  std::vector<int32_t> all(t.entries.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int32_t>(i);
  msg.set_num_entries(static_cast<int32_t>(all.size()));
  msg.set_string_data(
      EncodeStringTableEntries(t.settings, t.entries, all, [](int32_t) { return true; }));
  msg.set_data_compressed(false);
  msg.clear_uncompressed_size();
  if (original.empty()) {
    msg.set_user_data_fixed_size(t.settings.user_data_fixed_size);
    msg.set_user_data_size(t.settings.user_data_size);
    msg.set_user_data_size_bits(t.settings.user_data_size_bits);
    msg.set_flags(t.settings.flags);
    msg.set_using_varint_bitcounts(t.settings.using_varint_bitcounts);
  }
  return msg.SerializeAsString();
}

std::string SnapshotOf(const std::vector<HeldTable>& tables) {
  proto::CDemoStringTables snapshot;
  for (const HeldTable& t : tables) {
    synth::AddSnapshotTable(t.name, t.settings.flags, t.entries, &snapshot);
  }
  return snapshot.SerializeAsString();
}

// A signon packet with its string table creates restated from `tables`
// (`created` marks those written).
Status RestatePacket(std::string_view payload, const std::vector<HeldTable>& tables,
                     std::vector<bool>* created, std::string* out) {
  return synth::RewritePacket(
      payload,
      [&](uint32_t type, std::string_view body, synth::PacketBuilder* builder) {
        if (type != kSvcCreateStringTable) {
          builder->Add(type, body);
          return;
        }
        proto::CSVCMsg_CreateStringTable create;
        create.ParseFromArray(body.data(), static_cast<int>(body.size()));
        for (size_t i = 0; i < tables.size(); ++i) {
          if ((*created)[i] || tables[i].name != create.name()) continue;
          (*created)[i] = true;
          builder->Add(type, CreateMessage(tables[i], body));
          break;
        }
      },
      out);
}

// A part's own playback, as its recorder would write it: ticks from its
// first packet to its last, and its packets (the full packets not counted).
void Playback(uint32_t last_tick, uint32_t first_tick, int64_t packets, float tick_interval,
              proto::CDemoFileInfo* info) {
  info->set_playback_ticks(static_cast<int32_t>(last_tick - first_tick));
  info->set_playback_frames(static_cast<int32_t>(packets));
  info->set_playback_time(static_cast<float>(last_tick - first_tick) * tick_interval);
}

struct FrameRef {
  uint32_t command = 0;
  uint32_t tick = 0;
  std::string payload;
};

}  // namespace

int RunSplit(const Args& args) {
  std::string replay, prefix;
  std::vector<uint32_t> at;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--at" && i + 1 < args.size()) {
      const std::string& list = args[++i];
      size_t pos = 0;
      while (pos <= list.size()) {
        const size_t comma = std::min(list.find(',', pos), list.size());
        char* end = nullptr;
        const std::string item = list.substr(pos, comma - pos);
        const unsigned long v = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v >= 0xFFFFFFFFul ||
            (!at.empty() && v <= at.back())) {
          fmt::print(stderr, "gem-dump: --at needs rising ticks, comma-separated\n");
          return cli::kExitUsage;
        }
        at.push_back(static_cast<uint32_t>(v));
        pos = comma + 1;
      }
    } else if (replay.empty()) {
      replay = args[i];
    } else if (prefix.empty()) {
      prefix = args[i];
    } else {
      replay.clear();
      break;
    }
  }
  if (replay.empty() || prefix.empty() || at.empty()) {
    fmt::print(stderr, "usage: gem-dump split --at T1[,T2,...] REPLAY OUT_PREFIX\n");
    return cli::kExitUsage;
  }
  auto fail = [](const Status& s) {
    fmt::print(stderr, "gem-dump: {}\n", s.ToString());
    return cli::ExitCodeFor(s);
  };

  // The frames, and where the cuts fall.
  std::vector<FrameRef> frames;
  std::vector<uint64_t> offsets;
  size_t sync = 0, stop = 0;
  {
    ReplayInput input;
    if (int rc = cli::OpenReplay("gem-dump", replay, &input); rc != 0) return rc;
    DemoStream stream(input.source());
    Status s = stream.Open();
    while (s.ok()) {
      Frame f;
      bool end = false;
      s = stream.Next(&f, &end);
      if (!s.ok() || end) break;
      if (f.command == kDemSyncTick && sync == 0) sync = frames.size();
      if (f.command == kDemStop && stop == 0) stop = frames.size();
      frames.push_back({f.command, f.tick,
                        std::string(reinterpret_cast<const char*>(f.data), f.size)});
      offsets.push_back(f.offset);
    }
    if (!s.ok()) return fail(s);
  }
  if (sync == 0 || stop == 0) {
    return fail(Status::Corrupt("the replay has no signon end or no DEM_Stop: cut a whole one"));
  }
  uint32_t first_tick = 0;
  for (size_t i = sync + 1; i < stop; ++i) {
    if (frames[i].command == kDemPacket || frames[i].command == kDemFullPacket) {
      first_tick = frames[i].tick;
      break;
    }
  }
  // Part k+1 starts at the first full packet at or after its tick, cuts[k];
  // part k holds the frames before it up to that tick, ends[k] (what lies
  // between is in neither, as when a recording stops and starts again).
  std::vector<size_t> cuts, ends;
  for (uint32_t t : at) {
    size_t i = cuts.empty() ? sync + 1 : cuts.back() + 1;
    while (i < stop && !(frames[i].command == kDemFullPacket && frames[i].tick >= t)) ++i;
    if (i >= stop) {
      return fail(Status::InvalidArgument("no full packet at or after tick " + std::to_string(t) +
                                          " (before DEM_Stop) to cut at"));
    }
    size_t end = cuts.empty() ? sync + 1 : cuts.back() + 1;
    while (end < i && (frames[end].tick == 0xFFFFFFFFu || frames[end].tick <= t)) ++end;
    cuts.push_back(i);
    ends.push_back(end);
  }

  // The string tables at each cut, from a parse.
  std::vector<std::vector<HeldTable>> held;
  float tick_interval = 0;
  {
    ReplayInput input;
    if (int rc = cli::OpenReplay("gem-dump", replay, &input); rc != 0) return rc;
    std::vector<uint64_t> cut_offsets;
    for (size_t c : cuts) cut_offsets.push_back(offsets[c]);
    CutSink sink(cut_offsets, &held);
    Parser parser(&sink);
    sink.set_parser(&parser);
    Status s = parser.Parse(input.source());
    if (!s.ok()) return fail(s);
    tick_interval = parser.metadata().tick_interval;
    if (held.size() != cuts.size()) return fail(Status::Corrupt("the parse missed a cut"));
  }

  // The parts.
  for (size_t part = 0; part <= cuts.size(); ++part) {
    const size_t from = part == 0 ? sync + 1 : cuts[part - 1];
    const size_t to = part == cuts.size() ? frames.size() : ends[part];
    const bool last = part == cuts.size();
    const std::string path = prefix + std::to_string(part + 1) + ".dem";
    synth::ReplayWriter out;
    Status s = out.Open(path);
    // Frame ticks start again with each part.
    const int64_t shift = part == 0 ? 0 : int64_t{frames[from].tick} - first_tick;
    // (A tick before the cut, as the end frames of a synthetic replay
    // carry, stays at the part's first.)
    auto local = [shift, first_tick](uint32_t tick) {
      return tick == 0xFFFFFFFFu ? tick
                                 : static_cast<uint32_t>(std::max<int64_t>(
                                       first_tick, int64_t{tick} - shift));
    };
    std::vector<bool> created(part == 0 ? 0 : held[part - 1].size(), false);
    for (size_t i = 0; s.ok() && i <= sync; ++i) {
      const FrameRef& f = frames[i];
      if (part == 0) {
        s = out.Frame(f.command, f.tick, f.payload);
        continue;
      }
      const std::vector<HeldTable>& tables = held[part - 1];
      if (f.command == kDemSignonPacket) {
        std::string rewritten;
        s = RestatePacket(f.payload, tables, &created, &rewritten);
        if (s.ok()) s = out.Frame(f.command, f.tick, rewritten);
      } else if (f.command == kDemStringTables) {
        s = out.Frame(f.command, f.tick, SnapshotOf(tables));
      } else {
        if (f.command == kDemSyncTick) {
          // Tables created after the signon, created at its end.
          synth::PacketBuilder late;
          for (size_t t = 0; t < tables.size(); ++t) {
            if (!created[t]) late.Add(kSvcCreateStringTable, CreateMessage(tables[t], {}));
          }
          if (!late.empty()) {
            proto::CDemoPacket packet;
            packet.set_data(late.Finish());
            s = out.Frame(kDemSignonPacket, 0xFFFFFFFFu, packet.SerializeAsString());
          }
        }
        if (s.ok()) s = out.Frame(f.command, f.tick, f.payload);
      }
    }
    uint32_t last_tick = first_tick;
    int64_t packets = 0;
    for (size_t i = from; s.ok() && i < to; ++i) {
      const FrameRef& f = frames[i];
      proto::CDemoFileInfo info;
      if (f.command == kDemFileInfo) {
        // The replay's own end: its file info, with this part's playback
        // (its game info kept).
        if (!info.ParseFromArray(f.payload.data(), static_cast<int>(f.payload.size()))) {
          return fail(Status::Corrupt("the file info does not parse"));
        }
        Playback(last_tick, first_tick, packets, tick_interval, &info);
        out.MarkFileInfo();
        s = out.Frame(f.command, local(f.tick), info.SerializeAsString());
        continue;
      }
      if (f.command == kDemSpawnGroups) out.MarkSpawnGroups();
      s = out.Frame(f.command, local(f.tick), f.payload);
      if (f.tick != 0xFFFFFFFFu && i < stop) last_tick = local(f.tick);
      if (f.command == kDemPacket) ++packets;
    }
    if (s.ok() && !last) {
      s = out.Frame(kDemStop, last_tick, "");
      proto::CDemoFileInfo info;
      Playback(last_tick, first_tick, packets, tick_interval, &info);
      out.MarkFileInfo();
      if (s.ok()) s = out.Frame(kDemFileInfo, last_tick, info.SerializeAsString());
    }
    if (s.ok()) s = out.Close();
    if (!s.ok()) return fail(s);
    // The file, and the replay's ticks it holds.
    fmt::print("{}\t{}\t{}\n", path, part == 0 ? first_tick : frames[from].tick,
               frames[to - 1 < stop ? to - 1 : stop].tick);
  }
  return 0;
}

}  // namespace gem::dump
