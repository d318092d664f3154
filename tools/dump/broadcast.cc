// gem-dump broadcast REPLAY DIR: a replay as the broadcast a relay would
// have served of it (core/input/broadcast.h), written as a recorded broadcast's
// directory, one file per relay path: DIR/sync, DIR/0/start, DIR/1/full,
// DIR/N/delta. A test server serves the directory as it is; gem-index
// reads it.
//
// What goes where: every frame before DEM_SyncTick but the file header
// (the signon packets' bit streams, send tables, class info) is `start`;
// the first packet after it is fragment 1's `full` (a full packet's
// string tables and packet, when it comes first); the packets after it,
// grouped by --fragment-seconds of ticks from the first (3, as relays
// do), are the deltas; DEM_Stop, at its tick, is a delta of its own.
// String table snapshots (DEM_StringTables, and the later full packets'
// string tables) go where they fall, as a DEM_StringTables command (the replay's snapshot, which a relay sends
// as string-table updates in its fulls): a replay may name entries only
// there. What a relay does not send is left out: the full packets'
// entities (the deltas carry the state), user and console commands, file
// info, spawn groups.
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "core/input/broadcast.h"
#include "core/input/broadcast_source.h"
#include "core/input/demo_stream.h"
#include "core/util/exit_codes.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"

namespace gem::dump {
namespace {

// Empty deltas written for a stretch of ticks with no packet, at most.
constexpr int64_t kMaxEmptyFragments = 1000;

bool WriteFile(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

class Writer {
 public:
  explicit Writer(std::string dir) : dir_(std::move(dir)) {}
  // DIR/n/kind, making DIR/n.
  bool Put(int64_t n, const char* kind, const std::string& body) {
    const std::string sub = dir_ + "/" + std::to_string(n);
    if (mkdir(sub.c_str(), 0755) != 0 && errno != EEXIST) return Fail(sub);
    return WriteFile(sub + "/" + kind, body) || Fail(sub + "/" + kind);
  }
  bool PutSync(const std::string& json) {
    return WriteFile(dir_ + "/sync", json) || Fail(dir_ + "/sync");
  }
  const std::string& error() const { return error_; }

 private:
  bool Fail(const std::string& path) {
    error_ = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  std::string dir_;
  std::string error_;
};

}  // namespace

int RunBroadcast(const Args& args) {
  std::string replay, dir;
  double seconds = 3;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--fragment-seconds" && i + 1 < args.size()) {
      char* end = nullptr;
      seconds = std::strtod(args[++i].c_str(), &end);
      if (*end != '\0' || !(seconds >= 0.1) || seconds > 3600) {
        fmt::print(stderr, "gem-dump: --fragment-seconds needs seconds from 0.1 to 3600\n");
        return cli::kExitUsage;
      }
    } else if (replay.empty()) {
      replay = args[i];
    } else if (dir.empty()) {
      dir = args[i];
    } else {
      replay.clear();
      break;
    }
  }
  if (replay.empty() || dir.empty()) {
    fmt::print(stderr, "usage: gem-dump broadcast [--fragment-seconds S] REPLAY DIR\n");
    return cli::kExitUsage;
  }
  // Written beside DIR under another name, then renamed: DIR is whole or
  // absent.
  struct stat st;
  if (lstat(dir.c_str(), &st) == 0) {
    fmt::print(stderr, "gem-dump: {} exists: give a new directory\n", dir);
    return cli::kExitCantCreate;
  }
  const std::string temp = dir + ".gem-tmp-" + std::to_string(getpid());
  if (mkdir(temp.c_str(), 0755) != 0) {
    fmt::print(stderr, "gem-dump: cannot make {}: {}\n", temp, std::strerror(errno));
    return cli::kExitCantCreate;
  }
  struct Cleanup {
    std::string path;
    ~Cleanup() {
      std::error_code ignored;
      if (!path.empty()) std::filesystem::remove_all(path, ignored);
    }
  } cleanup{temp};
  ReplayInput input;
  if (int rc = cli::OpenReplay("gem-dump", replay, &input); rc != 0) return rc;
  DemoStream stream(input.source());
  Status s = stream.Open();
  std::string start, full, body, map;
  int64_t tps_value = 0;
  bool synced = false, have_full = false, stopped = false;
  uint32_t first_tick = 0, last_tick = 0;
  int64_t fragment = 1, fragment_ticks = 0;
  Writer out(temp);
  while (s.ok() && !stopped) {
    Frame f;
    bool end = false;
    s = stream.Next(&f, &end);
    if (!s.ok() || end) break;
    std::string_view payload(reinterpret_cast<const char*>(f.data), f.size);
    if (!synced) {
      if (f.command == kDemSyncTick) {
        synced = true;
        StartServerInfo info;
        s = ReadStartServerInfo(start, &info);
        // A tick rate from 1 to 1024 a second (CS2's 64, Dota's 30).
        if (s.ok() && !(info.tick_interval >= 1.0 / 1024 && info.tick_interval <= 1)) {
          s = Status::Corrupt("the signon has no server info with a tick interval from 1/1024 "
                              "to 1 s");
        }
        if (s.ok()) {
          const double tps = std::round(1.0 / info.tick_interval);
          fragment_ticks = std::max<int64_t>(1, std::llround(seconds * tps));
          if (!out.Put(0, "start", start)) s = Status::CannotCreate(out.error());
          tps_value = static_cast<int64_t>(tps);
          map = info.map;
        }
        continue;
      }
      if (f.command == kDemSignonPacket || f.command == kDemPacket) {
        std::string_view bits;
        if (!PacketBits(f.data, f.size, &bits)) {
          s = Status::Corrupt("a signon packet does not parse", f.offset);
          break;
        }
        AppendBroadcastCommand(f.command, f.tick, bits, &start);
      } else if (f.command == kDemSendTables || f.command == kDemClassInfo) {
        AppendBroadcastCommand(f.command, f.tick, payload, &start);
      }
      continue;
    }
    if (f.command == kDemStop) {
      // The current fragment's delta, even empty: the stop's must not
      // follow a gap.
      if (have_full && !out.Put(fragment, "delta", body)) {
        s = Status::CannotCreate(out.error());
        break;
      }
      std::string end_body;
      AppendBroadcastCommand(kDemStop, f.tick, {}, &end_body);
      if (!out.Put(fragment + 1, "delta", end_body)) s = Status::CannotCreate(out.error());
      stopped = true;
      break;
    }
    std::string_view tables, bits;
    // Whether a packet goes: not a later full packet's (its entities: the
    // deltas have them).
    bool packet = true;
    if (f.command == kDemStringTables) {
      // A snapshot of its own (a client's recording has one after the
      // sync tick): at its place, in the full while there is none yet.
      AppendBroadcastCommand(kDemStringTables, f.tick, payload, have_full ? &body : &full);
      continue;
    }
    if (f.command == kDemFullPacket) {
      if (!FullPacketParts(f.data, f.size, &tables, &bits)) {
        s = Status::Corrupt("a full packet does not parse", f.offset);
        break;
      }
      packet = !have_full;
    } else if (f.command != kDemPacket) {
      continue;
    } else if (!PacketBits(f.data, f.size, &bits)) {
      s = Status::Corrupt("a packet does not parse", f.offset);
      break;
    }
    if (!have_full) {
      if (f.command == kDemFullPacket && bits.empty()) {
        s = Status::Corrupt("the first full packet has no packet", f.offset);
        break;
      }
      if (!tables.empty()) AppendBroadcastCommand(kDemStringTables, f.tick, tables, &full);
      AppendBroadcastCommand(kDemPacket, f.tick, bits, &full);
      if (!out.Put(1, "full", full)) {
        s = Status::CannotCreate(out.error());
        break;
      }
      have_full = true;
      first_tick = last_tick = f.tick;
      continue;
    }
    // The fragment this tick falls in; the ones between get empty deltas
    // (a few: a tick that leaps far ahead is damage, not a pause).
    const int64_t at = 1 + (int64_t{f.tick} - first_tick) / fragment_ticks;
    if (at - fragment > kMaxEmptyFragments) {
      s = Status::Corrupt("tick " + std::to_string(f.tick) + " leaps " +
                              std::to_string(at - fragment) + " fragments ahead",
                          f.offset);
      break;
    }
    while (fragment < at) {
      if (!out.Put(fragment, "delta", body)) {
        s = Status::CannotCreate(out.error());
        break;
      }
      body.clear();
      ++fragment;
    }
    if (!tables.empty()) AppendBroadcastCommand(kDemStringTables, f.tick, tables, &body);
    if (packet) {
      AppendBroadcastCommand(kDemPacket, f.tick, bits, &body);
      last_tick = f.tick;
    }
  }
  // A cut replay is a broadcast that stopped: what came is written.
  if (!s.ok() && s.IsRecoverable() && have_full) {
    fmt::print(stderr, "gem-dump: {}: written up to the cut: {}\n", replay, s.ToString());
    s = Status::Ok();
  }
  if (s.ok() && !have_full) s = Status::Truncated("the replay has no packet after its signon");
  if (s.ok() && !stopped && !body.empty() && !out.Put(fragment, "delta", body)) {
    s = Status::CannotCreate(out.error());
  }
  if (s.ok()) {
    // JSON's string escapes for the map's name (a plain word in practice).
    std::string quoted;
    for (char c : map) {
      if (c == '"' || c == '\\') quoted += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) quoted += c;
    }
    const std::string sync = fmt::format(
        "{{\"tick\":{},\"endtick\":{},\"maxtick\":{},\"rtdelay\":0,\"rcvage\":0,"
        "\"fragment\":1,\"signup_fragment\":0,\"tps\":{},\"keyframe_interval\":{},"
        "\"map\":\"{}\",\"protocol\":{}}}\n",
        first_tick, last_tick, last_tick, tps_value, seconds, quoted, kBroadcastProtocol);
    if (!out.PutSync(sync)) s = Status::CannotCreate(out.error());
  }
  if (s.ok() && std::rename(temp.c_str(), dir.c_str()) != 0) {
    s = Status::CannotCreate("cannot rename " + temp + " to " + dir + ": " + std::strerror(errno));
  }
  if (!s.ok()) {
    fmt::print(stderr, "gem-dump: {}: {}\n", replay, s.ToString());
    return cli::ExitCodeFor(s);
  }
  cleanup.path.clear();
  return cli::kExitOk;
}

}  // namespace gem::dump
