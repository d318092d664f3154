#include "core/util/status.h"

namespace gem {

const char* Status::CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "ok";
    case Code::kNotAReplay:
      return "not a replay";
    case Code::kUnsupported:
      return "unsupported replay";
    case Code::kCorrupt:
      return "corrupt data";
    case Code::kTruncated:
      return "truncated replay";
    case Code::kInputError:
      return "cannot read input";
    case Code::kIoError:
      return "I/O error";
    case Code::kCannotCreate:
      return "cannot create output";
    case Code::kInvalidArgument:
      return "invalid argument";
  }
  return "unknown error";
}

Status Status::WithContext(std::string_view context, uint64_t offset) const {
  if (ok()) return *this;
  Status s = *this;
  s.message_ = std::string(context) + ": " + message_;
  if (s.offset_ == kNoOffset) s.offset_ = offset;
  return s;
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string out = CodeName(code_);
  if (has_offset()) out += " at byte " + std::to_string(offset_);
  out += ": ";
  out += message_;
  return out;
}

}  // namespace gem
