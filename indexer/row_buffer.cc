#include "indexer/row_buffer.h"

#include <cstring>

namespace gem::index {

RowBuffer& RowBuffer::Begin(uint8_t stmt) {
  row_start_ = bytes_.size();
  const char header[2] = {static_cast<char>(stmt), 0};
  bytes_.append(header, 2);
  return *this;
}

void RowBuffer::PutTag(Tag tag) {
  ++bytes_[row_start_ + 1];  // the row's value count
  bytes_.push_back(tag);
}

void RowBuffer::PutBytes(std::string_view v) {
  const uint32_t size = static_cast<uint32_t>(v.size());
  bytes_.append(reinterpret_cast<const char*>(&size), 4);
  bytes_.append(v);
}

RowBuffer& RowBuffer::Int(int64_t v) {
  PutTag(kInt);
  bytes_.append(reinterpret_cast<const char*>(&v), 8);
  return *this;
}

RowBuffer& RowBuffer::Real(double v) {
  PutTag(kReal);
  bytes_.append(reinterpret_cast<const char*>(&v), 8);
  return *this;
}

RowBuffer& RowBuffer::Text(std::string_view v) {
  PutTag(kText);
  PutBytes(v);
  return *this;
}

RowBuffer& RowBuffer::Blob(std::string_view v) {
  PutTag(kBlob);
  PutBytes(v);
  return *this;
}

RowBuffer& RowBuffer::Null() {
  PutTag(kNull);
  return *this;
}

Status RowBuffer::RunAll(std::span<Stmt> stmts) const {
  const char* p = bytes_.data();
  const char* end = p + bytes_.size();
  while (p < end) {
    const uint8_t index = static_cast<uint8_t>(p[0]);
    const int values = static_cast<uint8_t>(p[1]);
    p += 2;
    if (index >= stmts.size()) return Status::InvalidArgument("a recorded row names no statement");
    Stmt& stmt = stmts[index];
    for (int i = 1; i <= values; ++i) {
      const char tag = *p++;
      switch (tag) {
        case kInt:
        case kReal: {
          char raw[8];
          std::memcpy(raw, p, 8);
          p += 8;
          if (tag == kInt) {
            int64_t v;
            std::memcpy(&v, raw, 8);
            stmt.Int(i, v);
          } else {
            double v;
            std::memcpy(&v, raw, 8);
            stmt.Real(i, v);
          }
          break;
        }
        case kText:
        case kBlob: {
          uint32_t size;
          std::memcpy(&size, p, 4);
          p += 4;
          const std::string_view v(p, size);
          p += size;
          if (tag == kText) stmt.Text(i, v); else stmt.Blob(i, v);
          break;
        }
        default:
          // Unbound: NULL already (a fresh statement, or one that Stmt::Run
          // cleared), which saves SQLite a call per NULL column.
          break;
      }
    }
    GEM_RETURN_IF_ERROR(stmt.Run());
  }
  return Status::Ok();
}

}  // namespace gem::index
