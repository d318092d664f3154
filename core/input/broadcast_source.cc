#include "core/input/broadcast_source.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/input/broadcast.h"
#include "core/input/demo_stream.h"
#include "core/input/inner_messages.h"
#include "proto/demo.pb.h"
#include "proto/netmessages.pb.h"

namespace gem {
namespace {

constexpr uint32_t kSignonTick = 0xFFFFFFFFu;

// The game's word as replays' headers have it: the game directory's last
// part ("dota", "csgo", "citadel"), whichever separator the server used.
std::string GameWord(const std::string& game_dir) {
  const size_t slash = game_dir.find_last_of("/\\");
  return slash == std::string::npos ? game_dir : game_dir.substr(slash + 1);
}

}  // namespace

Status ReadStartServerInfo(const std::string& start, StartServerInfo* info) {
  BroadcastReader reader(start, "start");
  std::vector<InnerMessage> messages;
  std::string payloads;
  for (;;) {
    BroadcastCommand c;
    bool end = false;
    GEM_RETURN_IF_ERROR(reader.Next(&c, &end));
    if (end) return Status::Ok();
    if (c.command != kDemSignonPacket || c.compressed) continue;
    GEM_RETURN_IF_ERROR(SplitPacket(c.data, c.size, &messages, &payloads)
                            .WithContext("start's signon packet", c.offset));
    for (const InnerMessage& m : messages) {
      if (m.type != 40) continue;  // svc_ServerInfo
      proto::CSVCMsg_ServerInfo si;
      if (!si.ParseFromArray(payloads.data() + m.offset, static_cast<int>(m.size))) {
        return Status::Corrupt("start: the server info does not parse", c.offset);
      }
      info->found = true;
      info->game_dir = si.game_dir();
      info->map = si.map_name();
      info->tick_interval = si.tick_interval();
      return Status::Ok();
    }
  }
}

const char* FragmentStore::KindName(Kind kind) {
  switch (kind) {
    case Kind::kStart: return "start";
    case Kind::kFull: return "full";
    case Kind::kDelta: return "delta";
  }
  return "?";
}

Status DirectoryFragments::ReadNamed(const std::string& path, std::string* body, bool* missing) {
  *missing = false;
  for (const std::string& p : {path, path + ".bin", path + ".json"}) {
    struct stat st;
    if (stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (static_cast<uint64_t>(st.st_size) > kMaxFragmentBytes) {
      return Status::Corrupt(p + " holds " + std::to_string(st.st_size) +
                             " bytes, more than a fragment may (" +
                             std::to_string(kMaxFragmentBytes) + ")");
    }
    FILE* f = std::fopen(p.c_str(), "rb");
    if (f == nullptr) {
      return Status::InputError("cannot open " + p + ": " + std::strerror(errno));
    }
    body->resize(static_cast<size_t>(st.st_size));
    const size_t got = std::fread(body->data(), 1, body->size(), f);
    std::fclose(f);
    if (got != body->size()) return Status::InputError("cannot read " + p);
    return Status::Ok();
  }
  *missing = true;
  return Status::Ok();
}

Status DirectoryFragments::Sync(std::string* json) {
  bool missing = false;
  GEM_RETURN_IF_ERROR(ReadNamed(dir_ + "/sync", json, &missing));
  if (missing) {
    return Status::NotAReplay(dir_ + " is a directory with no broadcast sync (sync or sync.json)",
                              0);
  }
  return Status::Ok();
}

Status DirectoryFragments::Fetch(Kind kind, int64_t n, std::string* body, bool* missing) {
  const std::string path = dir_ + "/" + std::to_string(n) + "/" + KindName(kind);
  GEM_RETURN_IF_ERROR(ReadNamed(path, body, missing));
  // A recording still being written: a delta not there yet is waited for.
  const auto since = std::chrono::steady_clock::now();
  while (*missing && kind == Kind::kDelta && follow_seconds_ > 0 &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count() <
             follow_seconds_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(kFollowPollMillis));
    GEM_RETURN_IF_ERROR(ReadNamed(path, body, missing));
  }
  return Status::Ok();
}

bool DirectoryFragments::HasDeltaAfter(int64_t n) {
  // A recorded broadcast's fragments are numbered densely; a few past the
  // gap say it is one.
  for (int64_t k = n + 1; k <= n + 64; ++k) {
    for (const char* suffix : {"", ".bin"}) {
      struct stat st;
      const std::string p = dir_ + "/" + std::to_string(k) + "/delta" + suffix;
      if (stat(p.c_str(), &st) == 0) return true;
    }
  }
  return false;
}

Status ParseBroadcastSync(const std::string& json, BroadcastSync* sync) {
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Status::NotAReplay("the broadcast's sync is not a JSON object", 0);
  }
  auto whole = [&](const char* key, int64_t* out, bool required) -> Status {
    auto it = doc.find(key);
    if (it == doc.end()) {
      return required ? Status::NotAReplay(std::string("the broadcast's sync has no ") + key, 0)
                      : Status::Ok();
    }
    if (!it->is_number_integer() || it->get<int64_t>() < 0 ||
        it->get<int64_t>() > (int64_t{1} << 40)) {
      return Status::NotAReplay(std::string("the broadcast's sync has a ") + key +
                                    " that is not a whole number from 0",
                                0);
    }
    *out = it->get<int64_t>();
    return Status::Ok();
  };
  GEM_RETURN_IF_ERROR(whole("protocol", &sync->protocol, true));
  if (sync->protocol != kBroadcastProtocol) {
    return Status::Unsupported("broadcast protocol " + std::to_string(sync->protocol) +
                                   " (gem reads protocol " + std::to_string(kBroadcastProtocol) +
                                   ", Source 2's)",
                               0);
  }
  GEM_RETURN_IF_ERROR(whole("fragment", &sync->fragment, true));
  GEM_RETURN_IF_ERROR(whole("signup_fragment", &sync->signup_fragment, true));
  GEM_RETURN_IF_ERROR(whole("tick", &sync->tick, false));
  GEM_RETURN_IF_ERROR(whole("tps", &sync->tps, false));
  auto map = doc.find("map");
  if (map != doc.end() && map->is_string()) sync->map = map->get<std::string>();
  return Status::Ok();
}

Status BroadcastSource::Open(std::unique_ptr<FragmentStore> store, std::string name,
                             BytesHook fragment_bytes, BytesHook replay_bytes,
                             std::unique_ptr<BroadcastSource>* out) {
  std::unique_ptr<BroadcastSource> s(new BroadcastSource(std::move(store), std::move(name)));
  s->fragment_hook_ = std::move(fragment_bytes);
  s->replay_hook_ = std::move(replay_bytes);
  std::string json;
  GEM_RETURN_IF_ERROR(s->store_->Sync(&json));
  GEM_RETURN_IF_ERROR(ParseBroadcastSync(json, &s->sync_));
  std::string start;
  bool missing = false;
  GEM_RETURN_IF_ERROR(
      s->store_->Fetch(FragmentStore::Kind::kStart, s->sync_.signup_fragment, &start, &missing));
  if (missing) {
    return Status::NotAReplay(s->name_ + ": the broadcast has no start fragment (" +
                                  std::to_string(s->sync_.signup_fragment) + "/start)",
                              0);
  }
  s->fragment_bytes_ += start.size();
  if (s->fragment_hook_) {
    s->fragment_hook_(reinterpret_cast<const uint8_t*>(start.data()), start.size());
  }
  StartServerInfo facts;
  GEM_RETURN_IF_ERROR(ReadStartServerInfo(start, &facts));
  // The header a replay would have: the magic, two offsets a broadcast
  // does not know (0), and the file header with what the server said.
  proto::CDemoFileHeader header;
  header.set_demo_file_stamp("PBDEMS2");
  header.set_map_name(facts.map.empty() ? s->sync_.map : facts.map);
  header.set_game_directory(facts.game_dir);
  header.set_game(GameWord(facts.game_dir));
  // Nothing of where the fragments came from: the same broadcast makes
  // the same replay bytes (and replay_sha256) from a directory or a relay.
  header.set_client_name("broadcast");
  std::string bytes;
  header.SerializeToString(&bytes);
  s->window_.assign("PBDEMS2\0\0\0\0\0\0\0\0\0", 16);
  AppendReplayFrame(kDemFileHeader, kSignonTick, bytes, &s->window_);
  GEM_RETURN_IF_ERROR(s->AppendFragment(
      start, std::to_string(s->sync_.signup_fragment) + "/start", /*play=*/false));
  AppendReplayFrame(kDemSyncTick, kSignonTick, std::string_view(), &s->window_);
  s->Made(0);
  s->next_delta_ = s->sync_.fragment;
  *out = std::move(s);
  return Status::Ok();
}

Status BroadcastSource::AppendFragment(const std::string& body, const std::string& what,
                                       bool play) {
  BroadcastReader reader(body, name_ + ": " + what);
  const size_t from = window_.size();
  for (;;) {
    BroadcastCommand c;
    bool end = false;
    GEM_RETURN_IF_ERROR(reader.Next(&c, &end));
    if (end) return Status::Ok();
    if (c.command == kDemStop) {
      if (!play) return Status::Corrupt(name_ + ": " + what + " holds a DEM_Stop", c.offset);
      stopped_ = true;
      // The relay's end is six zero bytes, tick 0: the play ends at the
      // last tick it sent.
      if (c.tick == 0 && last_tick_ != 0xFFFFFFFFu) c.tick = last_tick_;
    }
    // The relay's spawn groups are not a replay's CDemoSpawnGroups, and
    // the parse reads neither.
    if (c.command == kDemSpawnGroups) continue;
    GEM_RETURN_IF_ERROR(AppendReplayFrame(c, &window_, &scratch_).WithContext(what, c.offset));
    // Snappy payloads expand: a fragment's frames are bounded as a whole.
    if (window_.size() - from > kMaxFragmentFrames) {
      return Status::Corrupt(name_ + ": " + what + " expands to more than " +
                                 std::to_string(kMaxFragmentFrames) + " bytes of frames",
                             c.offset);
    }
    // The ticks the parser ends a replay's play at (meta.last_tick).
    if (play && (c.command == kDemPacket || c.command == kDemFullPacket)) last_tick_ = c.tick;
    if (stopped_) return Status::Ok();
  }
}

Status BroadcastSource::Produce(bool* done) {
  *done = false;
  bool missing = false;
  const FragmentStore::Kind kind =
      full_done_ ? FragmentStore::Kind::kDelta : FragmentStore::Kind::kFull;
  const int64_t n = full_done_ ? next_delta_ : sync_.fragment;
  const std::string what = std::to_string(n) + "/" + FragmentStore::KindName(kind);
  // Only with every byte made read: a read ahead for a frame's head may
  // come before the fragment's last frame (a small one) is, in the middle
  // of its tick.
  if (full_done_ && waiting_ && window_.size() == window_begin_) waiting_();
  GEM_RETURN_IF_ERROR(store_->Fetch(kind, n, &fragment_, &missing));
  if (missing) {
    if (kind == FragmentStore::Kind::kFull) {
      return Status::NotAReplay(name_ + ": the broadcast has no " + what +
                                    ", where its sync says to start",
                                position_);
    }
    if (store_->HasDeltaAfter(n)) {
      return Status::Corrupt(name_ + ": " + what + " is missing and later deltas are not: "
                                 "the state cannot be carried across the gap",
                             position_);
    }
    *done = true;  // the broadcast stops here: a cut replay
    return Status::Ok();
  }
  fragment_bytes_ += fragment_.size();
  if (fragment_hook_) {
    fragment_hook_(reinterpret_cast<const uint8_t*>(fragment_.data()), fragment_.size());
  }
  const size_t from = window_.size();
  GEM_RETURN_IF_ERROR(AppendFragment(fragment_, what, /*play=*/true));
  Made(from);
  if (kind == FragmentStore::Kind::kFull) {
    full_done_ = true;
  } else {
    ++next_delta_;
  }
  *done = stopped_;
  return Status::Ok();
}

void BroadcastSource::Made(size_t from) {
  if (replay_hook_ && window_.size() > from) {
    replay_hook_(reinterpret_cast<const uint8_t*>(window_.data()) + from, window_.size() - from);
  }
}

Status BroadcastSource::Peek(size_t n, const uint8_t** data, size_t* got) {
  while (window_.size() - window_begin_ < n && !ended_) {
    // Consumed bytes go before the window grows.
    if (window_begin_ > 0) {
      window_.erase(0, window_begin_);
      window_begin_ = 0;
    }
    bool done = false;
    Status s = Produce(&done);
    if (!s.ok()) {
      ended_ = true;
      end_status_ = s;
    } else if (done) {
      ended_ = true;
    }
  }
  *data = reinterpret_cast<const uint8_t*>(window_.data()) + window_begin_;
  *got = std::min(n, window_.size() - window_begin_);
  if (*got < n && !end_status_.ok()) return end_status_;
  return Status::Ok();
}

void BroadcastSource::Consume(size_t n) {
  n = std::min(n, window_.size() - window_begin_);
  window_begin_ += n;
  position_ += n;
}

}  // namespace gem
