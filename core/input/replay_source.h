// ReplaySource: a replay's bytes, read front to back.
//
// DemoStream reads frames through it, so that a replay can come from a
// memory mapping (every byte there at once) or from a stream decompressed
// on another thread (core/input/replay_input.h), with the same code and the same
// errors.
//
// Contract: Peek(n) makes the n bytes at position() readable, or as many
// as the replay has left; the view stays valid until the next Peek (a
// Consume does not end it). A source never holds more than the largest Peek asked of it
// plus one chunk of its producer, and grows only as bytes actually arrive:
// a frame that claims more bytes than the replay has costs nothing before
// the end shows.
#ifndef GEM_CORE_INPUT_REPLAY_SOURCE_H_
#define GEM_CORE_INPUT_REPLAY_SOURCE_H_

#include <cstddef>
#include <cstdint>

#include "core/util/status.h"

namespace gem {

class ReplaySource {
 public:
  virtual ~ReplaySource() = default;
  // *data, *got: the bytes at position(), *got < n only at the end of the
  // replay. Not ok (Truncated, naming where the stream failed) when the
  // bytes stop short of n because the stream underneath failed; *got still
  // counts what did arrive.
  virtual Status Peek(size_t n, const uint8_t** data, size_t* got) = 0;
  // Moves position() on by n (at most the last Peek's *got); the last
  // Peek's view stays readable.
  virtual void Consume(size_t n) = 0;
  // Bytes consumed so far: the offset in the replay.
  virtual uint64_t position() const = 0;
};

// The bytes of a buffer the caller keeps alive (a mapping, a test's data).
class MemorySource : public ReplaySource {
 public:
  MemorySource(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  Status Peek(size_t n, const uint8_t** data, size_t* got) override {
    *data = data_ + pos_;
    *got = n < size_ - pos_ ? n : size_ - pos_;
    return Status::Ok();
  }
  void Consume(size_t n) override { pos_ += n < size_ - pos_ ? n : size_ - pos_; }
  uint64_t position() const override { return pos_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace gem

#endif  // GEM_CORE_INPUT_REPLAY_SOURCE_H_
