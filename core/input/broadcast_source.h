// BroadcastSource: a broadcast (core/input/broadcast.h) read as a replay, so
// that the parse, the index and every table take it as they take a .dem.
//
// The replay it makes: the magic and a DEM_FileHeader whose game
// directory, game and map come from the server info in the `start`
// fragment (a broadcast has no header of its own); the start's commands;
// a DEM_SyncTick; the full of the fragment the sync names; then that
// fragment's delta and each next one, to the broadcast's DEM_Stop. A
// broadcast that stops before it (a delta missing, with none after it)
// ends there: a cut replay. A delta missing with a later one present is a
// gap no parse can cross: Corrupt, naming the fragment.
//
// Contract: one fragment is held at a time (and the bytes the parse has
// not consumed); fragments larger than kMaxFragmentBytes are refused
// before they are read.
#ifndef GEM_CORE_INPUT_BROADCAST_SOURCE_H_
#define GEM_CORE_INPUT_BROADCAST_SOURCE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/input/replay_source.h"
#include "core/util/status.h"

namespace gem {

// Where a broadcast's fragments come from: a recorded one's directory
// (DirectoryFragments), or a relay over HTTP.
class FragmentStore {
 public:
  enum class Kind { kStart, kFull, kDelta };
  static const char* KindName(Kind kind);
  virtual ~FragmentStore() = default;
  // The sync document (JSON text).
  virtual Status Sync(std::string* json) = 0;
  // Fragment n's body of `kind`; *missing (ok) when there is none.
  virtual Status Fetch(Kind kind, int64_t n, std::string* body, bool* missing) = 0;
  // Whether any delta after n exists (a gap, not the end); for errors.
  virtual bool HasDeltaAfter(int64_t n) = 0;
};

// A recorded broadcast: DIR/sync (or sync.json), DIR/N/start, DIR/N/full
// and DIR/N/delta (each may end in .bin), as a relay's paths name them.
// With follow_seconds > 0 (a recording still being written), a delta not
// there yet is looked for every kFollowPollMillis for that long.
class DirectoryFragments : public FragmentStore {
 public:
  static constexpr uint64_t kMaxFragmentBytes = uint64_t{256} << 20;
  static constexpr int kFollowPollMillis = 100;
  explicit DirectoryFragments(std::string dir, double follow_seconds = 0)
      : dir_(std::move(dir)), follow_seconds_(follow_seconds) {}
  Status Sync(std::string* json) override;
  Status Fetch(Kind kind, int64_t n, std::string* body, bool* missing) override;
  bool HasDeltaAfter(int64_t n) override;

 private:
  // Reads `path` (+ ".bin") into *body; *missing when neither exists.
  Status ReadNamed(const std::string& path, std::string* body, bool* missing);
  std::string dir_;
  double follow_seconds_;
};

// What a sync document says (the fields gem reads).
struct BroadcastSync {
  int64_t tick = 0;
  int64_t fragment = 0;
  int64_t signup_fragment = 0;
  int64_t tps = 0;
  int64_t protocol = 0;
  std::string map;
};
// InvalidArgument-free parse: NotAReplay when the text is not a sync
// document of protocol 5 with the fields above (map optional).
Status ParseBroadcastSync(const std::string& json, BroadcastSync* sync);

// The server info in a start fragment's signon packets (the first
// svc_ServerInfo): found false when it has none.
struct StartServerInfo {
  bool found = false;
  std::string game_dir, map;
  float tick_interval = 0;
};
Status ReadStartServerInfo(const std::string& start, StartServerInfo* info);

class BroadcastSource : public ReplaySource {
 public:
  // The most replay bytes one fragment may make (its snappy payloads
  // expanded): as much as a replay frame may hold.
  static constexpr size_t kMaxFragmentFrames = size_t{256} << 20;
  // Called with every fragment's body as fetched, and every byte of the
  // replay made, in order (for their checksums).
  using BytesHook = std::function<void(const uint8_t*, size_t)>;
  // Reads the sync and the start fragment; `name` (the directory or URL)
  // goes into errors.
  static Status Open(std::unique_ptr<FragmentStore> store, std::string name,
                     BytesHook fragment_bytes, BytesHook replay_bytes,
                     std::unique_ptr<BroadcastSource>* out);
  Status Peek(size_t n, const uint8_t** data, size_t* got) override;
  void Consume(size_t n) override;
  uint64_t position() const override { return position_; }
  // Bytes of fragments read so far (as fetched).
  uint64_t fragment_bytes() const { return fragment_bytes_; }
  // Called (on the parse's thread, from Peek) before a delta is fetched
  // when every byte made so far has been read: the frames read end a tick
  // (a fragment holds whole ticks). A live index commits there.
  void SetWaiting(std::function<void()> waiting) { waiting_ = std::move(waiting); }

 private:
  BroadcastSource(std::unique_ptr<FragmentStore> store, std::string name)
      : store_(std::move(store)), name_(std::move(name)) {}
  // Appends the next fragment's frames to the window; *done at the end.
  Status Produce(bool* done);
  // `play`: a full or delta (not the start, which may hold no DEM_Stop).
  Status AppendFragment(const std::string& body, const std::string& what, bool play);
  // The window's bytes from `from` on are new: to the hook.
  void Made(size_t from);

  std::unique_ptr<FragmentStore> store_;
  std::string name_;
  BroadcastSync sync_;
  std::string window_;  // replay bytes from position() on, at window_begin_
  size_t window_begin_ = 0;
  uint64_t position_ = 0;
  int64_t next_delta_ = 0;
  uint32_t last_tick_ = 0xFFFFFFFFu;  // of the last frame made
  bool full_done_ = false;
  bool ended_ = false;
  bool stopped_ = false;  // the broadcast's DEM_Stop was read
  Status end_status_;
  uint64_t fragment_bytes_ = 0;
  std::string fragment_, scratch_;
  BytesHook fragment_hook_, replay_hook_;
  std::function<void()> waiting_;
};

}  // namespace gem

#endif  // GEM_CORE_INPUT_BROADCAST_SOURCE_H_
