// ReplayInput: a replay as the user has it: a plain .dem, a .dem.bz2,
// .dem.gz or .dem.zst (told by the first bytes, never by the name), a file
// or standard input ("-").
//
// A plain regular file is memory-mapped (MappedFile) and read in place.
// Anything else is streamed: a thread beside the parse reads the input
// and decompresses it into chunks of kChunkBytes, at most kChunksAhead
// ahead of the parse, so memory stays bounded whatever the replay's size:
// no whole decompressed copy, in memory or on disk. The parse reads
// through source() (replay_source.h) either way.
//
// A replay still being written (Follow: gem-index --follow) is streamed
// too, and its end waits: at the end of the bytes the reading thread waits
// for more, polling the file's size, until DEM_Stop and the frames its
// header says follow it have been read (StopFollowing, ParserOptions::
// stopped; then at most kAfterStopSeconds more for any frame after them)
// or no byte has come for `idle_seconds`: then the replay ends
// where it is, a cut replay if DEM_Stop never came.
//
// A directory is a recorded broadcast (core/input/broadcast_source.h), as is a
// file of a broadcast's commands back to back (core/input/broadcast_file.h), and an
// http:// or https:// URL a relay (core/input/broadcast_http.h; it gives up
// after Follow::idle_seconds without a fragment): their fragments are read
// one at a time, as a replay, on the parse's thread.
//
// A corrupt compressed stream fails where its data stops decoding
// (Corrupt, naming the compression and the compressed byte); a cut one
// ends the replay there (Truncated: the parse keeps what came before, as
// for a cut .dem). A stream's decoded bytes are only ever as many as the
// replay's frames ask for: DemoStream's frame limit bounds what one frame
// may hold.
#ifndef GEM_CORE_INPUT_REPLAY_INPUT_H_
#define GEM_CORE_INPUT_REPLAY_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/input/broadcast_source.h"
#include "core/input/decompressor.h"
#include "core/input/mapped_file.h"
#include "core/input/replay_source.h"
#include "core/util/status.h"

namespace gem {

struct ReplayInputHooks {
  // Called on the reading thread, in order, for a streamed input: every
  // byte of the input as given, and every byte of the replay inside (the
  // same bytes when it is not compressed). A mapped file calls neither:
  // its bytes are the file's (MappedFile). They may be called until the
  // ReplayInput is destroyed (a parse that fails early does not wait for
  // the thread), so what they write must outlive it.
  std::function<void(const uint8_t*, size_t)> input_bytes;
  std::function<void(const uint8_t*, size_t)> replay_bytes;
};

struct Follow {
  bool follow = false;
  double idle_seconds = 60;
};

class ReplayInput {
 public:
  static constexpr double kAfterStopSeconds = 0.5;
  // How often a followed file's size is looked at while waiting.
  static constexpr int kFollowPollMillis = 20;

  static constexpr size_t kChunkBytes = 1u << 20;
  static constexpr size_t kChunksAhead = 4;

  ReplayInput();
  ~ReplayInput();  // stops the reading thread
  ReplayInput(const ReplayInput&) = delete;
  ReplayInput& operator=(const ReplayInput&) = delete;

  // Opens `path` ("-": standard input). InputError when it cannot be
  // opened or read (`*not_found` set when it does not exist).
  // With follow.follow, a regular file is followed (above); a pipe waits
  // for its writer anyway.
  Status Open(const std::string& path, ReplayInputHooks hooks = {}, bool* not_found = nullptr,
              Follow follow = {});
  // A followed replay's DEM_Stop was read: its reader waits no longer
  // than kAfterStopSeconds for more. Any thread.
  void StopFollowing();

  ReplaySource* source();
  // A broadcast's: called before each of its deltas is fetched
  // (BroadcastSource::SetWaiting); other inputs never call it.
  void SetWaiting(std::function<void()> waiting) {
    if (broadcast_ != nullptr) broadcast_->SetWaiting(std::move(waiting));
  }
  Compression compression() const { return compression_; }
  // A mapped plain file: file() holds its bytes.
  bool mapped() const { return mapped_; }
  // A recorded broadcast's directory.
  bool broadcast() const { return broadcast_ != nullptr; }
  MappedFile& file() { return file_; }
  // Once the parse read the source to its end: waits for the reading
  // thread to be done (its hooks' results are then safe to read).
  void WaitForReader();
  // After a parse failed: whether the stream underneath failed too, seen
  // within at most `max_bytes` more decoded bytes (discarded). A bzip2
  // block's bytes come out before its checksum is checked, so a damaged
  // block reads as a bad replay first; this finds the real cause, at a
  // bounded cost (a bomb is not decoded to its end). Ok when the stream
  // is sound as far as that, or the input is mapped.
  Status StreamFailure(size_t max_bytes);
  // The status to report for a failed parse: the stream's own failure
  // (StreamFailure, looking kFailureLookahead bytes ahead: many bzip2
  // blocks of 900 kB at most), else `parse`.
  static constexpr size_t kFailureLookahead = 16u << 20;
  Status FailureOf(const Status& parse);
  // Bytes of the input as given read so far (all of them once the parse
  // reached the end); a mapped file's size.
  uint64_t input_bytes() const;

 private:
  class Stream;
  Compression compression_ = Compression::kNone;
  bool mapped_ = false;
  MappedFile file_;
  std::unique_ptr<MemorySource> memory_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<BroadcastSource> broadcast_;
};

}  // namespace gem

#endif  // GEM_CORE_INPUT_REPLAY_INPUT_H_
