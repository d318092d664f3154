#include "core/input/replay_input.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "core/input/broadcast_file.h"
#include "core/input/broadcast_http.h"

namespace gem {

// The reading thread and the parse's side of it. The thread fills chunks
// (decoded replay bytes) and queues them, waiting while kChunksAhead are
// queued; the parse takes them into its window (`window_`), which holds
// the bytes from position() on.
class ReplayInput::Stream : public ReplaySource {
 public:
  Stream(int fd, std::string name, std::vector<uint8_t> first, Compression c,
         ReplayInputHooks hooks, Follow follow)
      : fd_(fd), name_(std::move(name)), hooks_(std::move(hooks)), follow_(follow),
        decoder_(Decompressor::New(c)) {
    if (pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
    thread_ = std::thread([this, first = std::move(first)]() mutable { Run(std::move(first)); });
  }

  ~Stream() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    // A read of a pipe that sends nothing more (a writer that stalls)
    // would keep the thread, and the process, waiting: wake it.
    if (wake_[1] >= 0 && ::write(wake_[1], "x", 1) < 0) {
    }
    Join();
    ::close(fd_);
    if (wake_[0] >= 0) ::close(wake_[0]);
    if (wake_[1] >= 0) ::close(wake_[1]);
  }

  Status Peek(size_t n, const uint8_t** data, size_t* got) override {
    while (window_end_ - window_begin_ < n && !ended_) {
      std::vector<uint8_t> chunk;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return !full_.empty() || finished_; });
        if (full_.empty()) {
          ended_ = true;
          end_status_ = final_;
          break;
        }
        chunk = std::move(full_.front());
        full_.pop_front();
      }
      cv_.notify_all();
      Append(chunk);
      std::lock_guard<std::mutex> lock(mu_);
      chunk.clear();
      free_.push_back(std::move(chunk));
    }
    *data = window_.data() + window_begin_;
    *got = std::min(n, window_end_ - window_begin_);
    if (*got < n && !end_status_.ok()) return end_status_;
    return Status::Ok();
  }

  void Consume(size_t n) override {
    n = std::min(n, window_end_ - window_begin_);
    window_begin_ += n;
    position_ += n;
  }

  uint64_t position() const override { return position_; }

  Status Failure(size_t max_bytes) {
    if (!decoder_) return Status::Ok();  // plain bytes: no decoder to blame
    size_t discarded = 0;
    for (;;) {
      std::unique_lock<std::mutex> lock(mu_);
      // A reader waiting on a stalled pipe has no verdict to give.
      cv_.wait(lock, [&] { return !full_.empty() || finished_ || stalled_; });
      if (full_.empty() && !finished_) return Status::Ok();
      if (full_.empty()) return final_.ok() || final_.IsRecoverable() ? Status::Ok() : final_;
      if (discarded >= max_bytes) return Status::Ok();
      discarded += full_.front().size();
      free_.push_back(std::move(full_.front()));
      full_.pop_front();
      lock.unlock();
      cv_.notify_all();
    }
  }

  void Join() {
    if (thread_.joinable()) thread_.join();
  }

  uint64_t input_bytes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return input_bytes_;
  }

  void StopFollowing() { stop_following_.store(true, std::memory_order_relaxed); }

 private:
  // The window keeps the unconsumed bytes at its front (moved there when
  // the new chunk would not fit behind them); it grows only by what came.
  void Append(const std::vector<uint8_t>& chunk) {
    if (window_.size() - window_end_ < chunk.size() && window_begin_ > 0) {
      std::memmove(window_.data(), window_.data() + window_begin_, window_end_ - window_begin_);
      window_end_ -= window_begin_;
      window_begin_ = 0;
    }
    if (window_.size() - window_end_ < chunk.size()) window_.resize(window_end_ + chunk.size());
    std::memcpy(window_.data() + window_end_, chunk.data(), chunk.size());
    window_end_ += chunk.size();
  }

  // Thread: a chunk to fill (recycled), or none when asked to stop.
  bool TakeEmpty(std::vector<uint8_t>* chunk) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return stop_ || full_.size() < kChunksAhead; });
    if (stop_) return false;
    if (!free_.empty()) {
      *chunk = std::move(free_.back());
      free_.pop_back();
    }
    chunk->resize(kChunkBytes);
    return true;
  }

  bool Queue(std::vector<uint8_t>* chunk, size_t size) {
    chunk->resize(size);
    if (size == 0) return true;
    if (hooks_.replay_bytes) hooks_.replay_bytes(chunk->data(), size);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_) return false;
      full_.push_back(std::move(*chunk));
    }
    cv_.notify_all();
    return true;
  }

  // Whether a read would wait (a pipe with nothing in it now): then what
  // was decoded goes to the parse first, not when a chunk is full, so a
  // stalled writer does not hold back the bytes it did send.
  bool InputStalls() const {
    if (follow_.follow) {
      // A regular file always polls as readable: it stalls when the
      // reading has caught up with its size.
      struct stat st;
      return fstat(fd_, &st) == 0 && static_cast<uint64_t>(st.st_size) <= read_so_far_;
    }
    pollfd fd{fd_, POLLIN, 0};
    return ::poll(&fd, 1, 0) == 0;
  }

  void SetStalled(bool stalled) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stalled_ = stalled;
    }
    if (stalled) cv_.notify_all();
  }

  // A followed file's reading is at its end: whether more bytes came
  // (read again) before it was stopped, DEM_Stop's grace ran out or it
  // stayed idle too long (then the replay ends here).
  bool WaitForGrowth() {
    using Clock = std::chrono::steady_clock;
    SetStalled(true);
    bool grew = false;
    for (;;) {
      const double limit = stop_following_.load(std::memory_order_relaxed)
                               ? std::min(follow_.idle_seconds, ReplayInput::kAfterStopSeconds)
                               : follow_.idle_seconds;
      const double idle = std::chrono::duration<double>(Clock::now() - last_growth_).count();
      if (idle >= limit) break;
      const double left_ms = (limit - idle) * 1000;
      const int wait_ms = static_cast<int>(
          std::clamp(left_ms, 1.0, static_cast<double>(ReplayInput::kFollowPollMillis)));
      pollfd wake{wake_[0], POLLIN, 0};
      const int polled = wake_[0] >= 0 ? ::poll(&wake, 1, wait_ms) : (usleep(wait_ms * 1000), 0);
      if (polled > 0) break;  // the parse is done with the stream
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (stop_) break;  // the same, without a wake pipe
      }
      struct stat st;
      if (fstat(fd_, &st) == 0 && static_cast<uint64_t>(st.st_size) > read_so_far_) {
        grew = true;
        break;
      }
    }
    SetStalled(false);
    return grew;
  }

  // Before a read that would wait: the chunk so far goes to the parse and
  // a fresh one comes back. False when asked to stop.
  bool HandOverIfStalled(std::vector<uint8_t>* chunk, size_t* filled) {
    if (*filled == 0 || !InputStalls()) return true;
    if (!Queue(chunk, *filled) || !TakeEmpty(chunk)) return false;
    *filled = 0;
    return true;
  }

  // Reads up to `room` input bytes; 0 at the end. Not ok on a read error.
  Status Read(uint8_t* buf, size_t room, size_t* got) {
    *got = 0;
    for (;;) {
      if (wake_[0] >= 0 && !follow_.follow) {
        const bool stalls = InputStalls();
        if (stalls) {
          {
            std::lock_guard<std::mutex> lock(mu_);
            stalled_ = true;
          }
          cv_.notify_all();
        }
        pollfd fds[2] = {{fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
        const int polled = ::poll(fds, 2, -1);
        if (stalls) {
          std::lock_guard<std::mutex> lock(mu_);
          stalled_ = false;
        }
        if (polled < 0) {
          if (errno == EINTR) continue;
          return Status::InputError("cannot wait for " + name_ + ": " + std::strerror(errno));
        }
        if (fds[1].revents != 0) return Status::Ok();  // stopped: as if at the end
      }
      const ssize_t n = ::read(fd_, buf, room);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Status::InputError("cannot read " + name_ + ": " + std::strerror(errno));
      if (n == 0 && follow_.follow && WaitForGrowth()) continue;
      if (n > 0) {
        read_so_far_ += static_cast<uint64_t>(n);
        last_growth_ = std::chrono::steady_clock::now();
      }
      *got = static_cast<size_t>(n);
      if (n > 0) {
        if (hooks_.input_bytes) hooks_.input_bytes(buf, *got);
        std::lock_guard<std::mutex> lock(mu_);
        input_bytes_ += *got;
      }
      return Status::Ok();
    }
  }

  void Run(std::vector<uint8_t> input) {
    Status s = decoder_ ? Decode(std::move(input)) : Copy(std::move(input));
    {
      std::lock_guard<std::mutex> lock(mu_);
      final_ = s;
      finished_ = true;
    }
    cv_.notify_all();
  }

  // A plain replay from a pipe: the chunks are what was read.
  Status Copy(std::vector<uint8_t> first) {
    if (hooks_.input_bytes) hooks_.input_bytes(first.data(), first.size());
    {
      std::lock_guard<std::mutex> lock(mu_);
      input_bytes_ += first.size();
    }
    std::vector<uint8_t> chunk;
    if (!TakeEmpty(&chunk)) return Status::Ok();
    std::memcpy(chunk.data(), first.data(), first.size());
    size_t filled = first.size();
    for (;;) {
      if (!HandOverIfStalled(&chunk, &filled)) return Status::Ok();
      size_t got = 0;
      GEM_RETURN_IF_ERROR(Read(chunk.data() + filled, kChunkBytes - filled, &got));
      filled += got;
      if (got == 0 || filled == kChunkBytes) {
        if (!Queue(&chunk, filled)) return Status::Ok();
        if (got == 0) return Status::Ok();
        if (!TakeEmpty(&chunk)) return Status::Ok();
        filled = 0;
      }
    }
  }

  Status Decode(std::vector<uint8_t> input) {
    if (hooks_.input_bytes) hooks_.input_bytes(input.data(), input.size());
    {
      std::lock_guard<std::mutex> lock(mu_);
      input_bytes_ += input.size();
    }
    size_t in_begin = 0, in_end = input.size();
    input.resize(std::max(input.size(), kInputBytes));
    bool input_ended = false;
    std::vector<uint8_t> chunk;
    if (!TakeEmpty(&chunk)) return Status::Ok();
    size_t filled = 0;
    for (;;) {
      if (in_begin == in_end && !input_ended) {
        if (!HandOverIfStalled(&chunk, &filled)) return Status::Ok();
        size_t got = 0;
        GEM_RETURN_IF_ERROR(Read(input.data(), input.size(), &got));
        in_begin = 0;
        in_end = got;
        input_ended = got == 0;
      }
      size_t used = 0, produced = 0;
      Status s = decoder_->Decode(input.data() + in_begin, in_end - in_begin, &used,
                                  chunk.data() + filled, kChunkBytes - filled, &produced);
      in_begin += used;
      filled += produced;
      if (!s.ok() || filled == kChunkBytes || (input_ended && used == 0 && produced == 0)) {
        // What decoded before the damage is the replay's, up to it.
        if (!Queue(&chunk, filled)) return Status::Ok();
        if (!s.ok()) return s;
        if (input_ended && used == 0 && produced == 0) return decoder_->Finish();
        if (!TakeEmpty(&chunk)) return Status::Ok();
        filled = 0;
      }
    }
  }

  static constexpr size_t kInputBytes = 256u << 10;

  const int fd_;
  int wake_[2] = {-1, -1};  // written when the parse is done with the stream
  const std::string name_;
  const ReplayInputHooks hooks_;
  const Follow follow_;
  std::unique_ptr<Decompressor> decoder_;
  // The reading thread's: bytes read from fd_, and when the last came.
  uint64_t read_so_far_ = 0;
  std::chrono::steady_clock::time_point last_growth_ = std::chrono::steady_clock::now();
  std::atomic<bool> stop_following_{false};
  std::thread thread_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<uint8_t>> full_;  // decoded, for the parse
  std::vector<std::vector<uint8_t>> free_;  // taken, to fill again
  bool stop_ = false;
  bool finished_ = false;
  bool stalled_ = false;  // the thread waits for input that has not come
  Status final_;
  uint64_t input_bytes_ = 0;

  // The parse's side, touched by the parse only.
  std::vector<uint8_t> window_;
  size_t window_begin_ = 0, window_end_ = 0;
  uint64_t position_ = 0;
  bool ended_ = false;
  Status end_status_;
};

ReplayInput::ReplayInput() = default;
ReplayInput::~ReplayInput() = default;

ReplaySource* ReplayInput::source() {
  if (broadcast_) return broadcast_.get();
  if (stream_) return stream_.get();
  return memory_.get();
}

Status ReplayInput::StreamFailure(size_t max_bytes) {
  return stream_ ? stream_->Failure(max_bytes) : Status::Ok();
}

Status ReplayInput::FailureOf(const Status& parse) {
  Status stream = StreamFailure(kFailureLookahead);
  return stream.ok() ? parse : stream;
}

void ReplayInput::WaitForReader() {
  if (stream_) stream_->Join();
}

void ReplayInput::StopFollowing() {
  if (stream_) stream_->StopFollowing();
}

uint64_t ReplayInput::input_bytes() const {
  if (broadcast_) return broadcast_->fragment_bytes();
  return stream_ ? stream_->input_bytes() : file_.size();
}

Status ReplayInput::Open(const std::string& path, ReplayInputHooks hooks, bool* not_found,
                         Follow follow) {
  if (not_found != nullptr) *not_found = false;
  if (IsBroadcastUrl(path)) {
    std::unique_ptr<HttpFragments> relay;
    GEM_RETURN_IF_ERROR(HttpFragments::Open(path, follow.idle_seconds, &relay));
    return BroadcastSource::Open(std::move(relay), path, std::move(hooks.input_bytes),
                                 std::move(hooks.replay_bytes), &broadcast_);
  }
  const bool from_stdin = path == "-";
  const std::string name = from_stdin ? std::string("standard input") : path;
  int fd = from_stdin ? ::dup(STDIN_FILENO) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (not_found != nullptr) *not_found = errno == ENOENT;
    return Status::InputError("cannot open " + name + ": " + std::strerror(errno));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return Status::InputError("cannot stat " + name + ": " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return BroadcastSource::Open(
        std::make_unique<DirectoryFragments>(path, follow.follow ? follow.idle_seconds : 0), name,
                                 std::move(hooks.input_bytes), std::move(hooks.replay_bytes),
                                 &broadcast_);
  }
  // The first bytes tell the compression. A regular file is peeked at
  // without moving; anything else is read, and what was read goes first
  // into the stream.
  const bool peek_in_place = S_ISREG(st.st_mode) && !from_stdin;
  follow.follow = follow.follow && peek_in_place;  // a pipe waits anyway
  // (A file's first bytes may also be a saved broadcast's: more of them.)
  std::vector<uint8_t> first(peek_in_place ? BroadcastFile::kHeadBytes : 4);
  size_t have = 0;
  const auto opened = std::chrono::steady_clock::now();
  while (have < first.size()) {
    const ssize_t n = peek_in_place ? ::pread(fd, first.data() + have, first.size() - have,
                                              static_cast<off_t>(have))
                                    : ::read(fd, first.data() + have, first.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return Status::InputError("cannot read " + name + ": " + std::strerror(err));
    }
    if (n == 0) {
      // A followed file may not have its first bytes yet.
      const double waited =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - opened).count();
      if (!follow.follow || waited >= follow.idle_seconds) break;
      usleep(kFollowPollMillis * 1000);
      continue;
    }
    have += static_cast<size_t>(n);
  }
  first.resize(have);
  compression_ = DetectCompression(first.data(), first.size());
  if (peek_in_place && compression_ == Compression::kNone &&
      LooksLikeBroadcast(first.data(), first.size())) {
    if (follow.follow) {
      ::close(fd);
      return Status::InputError(name + " is a broadcast saved as one file: --follow reads a "
                                       "replay or a broadcast's directory as they grow");
    }
    return BroadcastSource::Open(std::make_unique<BroadcastFile>(fd, name), name,
                                 std::move(hooks.input_bytes), std::move(hooks.replay_bytes),
                                 &broadcast_);
  }
  if (peek_in_place && compression_ == Compression::kNone && !follow.follow) {
    ::close(fd);
    GEM_RETURN_IF_ERROR(file_.Open(path, not_found));
    mapped_ = true;
    memory_ = std::make_unique<MemorySource>(file_.data(), file_.size());
    return Status::Ok();
  }
  if (peek_in_place) first.clear();  // pread did not move the offset
  stream_ = std::make_unique<Stream>(fd, name, std::move(first), compression_, std::move(hooks),
                                     follow);
  return Status::Ok();
}

}  // namespace gem
