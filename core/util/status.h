// Status: the result of an operation that can fail, in the LevelDB style.
//
// A Status is either ok or carries a code, a message and, when the failure
// is tied to a place in the input, the byte offset of that place. Codes split
// into fatal errors (the input cannot be used) and recoverable damage
// (everything before the damage is usable; see IsRecoverable()).
//
// No function in core/ throws; every failure is reported through a Status.
#ifndef GEM_CORE_UTIL_STATUS_H_
#define GEM_CORE_UTIL_STATUS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace gem {

class Status {
 public:
  enum class Code : uint8_t {
    kOk = 0,
    kNotAReplay,       // not a Source 2 demo at all (wrong magic, empty)
    kUnsupported,      // a demo we recognise but cannot read (Source 1, legacy)
    kCorrupt,          // malformed data: bad size, bad protobuf, bit overflow
    kTruncated,        // the input ends in the middle of a frame (recoverable)
    kInputError,       // the input cannot be opened or read (missing, no access)
    kIoError,          // writing failed (disk full, output I/O error)
    kCannotCreate,     // the output cannot be created (no such directory, exists)
    kInvalidArgument,  // the caller asked for something impossible
  };

  static constexpr uint64_t kNoOffset = UINT64_MAX;

  Status() = default;  // ok

  static Status Ok() { return Status(); }
  static Status NotAReplay(std::string_view msg, uint64_t offset = kNoOffset) {
    return Status(Code::kNotAReplay, msg, offset);
  }
  static Status Unsupported(std::string_view msg, uint64_t offset = kNoOffset) {
    return Status(Code::kUnsupported, msg, offset);
  }
  static Status Corrupt(std::string_view msg, uint64_t offset = kNoOffset) {
    return Status(Code::kCorrupt, msg, offset);
  }
  static Status Truncated(std::string_view msg, uint64_t offset = kNoOffset) {
    return Status(Code::kTruncated, msg, offset);
  }
  static Status InputError(std::string_view msg) {
    return Status(Code::kInputError, msg, kNoOffset);
  }
  static Status IoError(std::string_view msg) {
    return Status(Code::kIoError, msg, kNoOffset);
  }
  static Status CannotCreate(std::string_view msg) {
    return Status(Code::kCannotCreate, msg, kNoOffset);
  }
  static Status InvalidArgument(std::string_view msg) {
    return Status(Code::kInvalidArgument, msg, kNoOffset);
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  bool has_offset() const { return offset_ != kNoOffset; }
  uint64_t offset() const { return offset_; }

  // Truncation is the one kind of damage that leaves everything before it
  // usable: a parser stops there and reports what it read.
  bool IsRecoverable() const { return code_ == Code::kTruncated; }

  // Returns a copy whose message is prefixed with `context: `, and which
  // takes `offset` when it has none yet. Used to say where in the replay an
  // inner failure happened without the inner code knowing the file layout.
  Status WithContext(std::string_view context,
                     uint64_t offset = kNoOffset) const;

  // "corrupt data at byte 1234: <message>"
  std::string ToString() const;

  static const char* CodeName(Code code);

 private:
  Status(Code code, std::string_view msg, uint64_t offset)
      : code_(code), message_(msg), offset_(offset) {}

  Code code_ = Code::kOk;
  std::string message_;
  uint64_t offset_ = kNoOffset;
};

// Returns early from the enclosing function when `expr` is not ok.
#define GEM_RETURN_IF_ERROR(expr)        \
  do {                                   \
    ::gem::Status gem_status_ = (expr);  \
    if (!gem_status_.ok()) return gem_status_; \
  } while (0)

}  // namespace gem

#endif  // GEM_CORE_UTIL_STATUS_H_
