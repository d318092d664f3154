#include "indexer/row_buffer.h"

#include <cstring>
#include <string>
#include <vector>

namespace gem::index {
namespace {

// How each value is recorded: its tag, then 8 bytes for kInt and kReal,
// a 4-byte size and the bytes for kText and kBlob, nothing for kNull.
enum Tag : char { kInt = 'i', kReal = 'r', kText = 't', kBlob = 'b', kNull = 'n' };

}  // namespace

RowBuffer& RowBuffer::Begin(uint8_t stmt) {
  row_start_ = bytes_.size();
  const char header[2] = {static_cast<char>(stmt), 0};
  bytes_.append(header, 2);
  return *this;
}

void RowBuffer::PutTag(char tag) {
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

namespace {

// Binds the values of the row at `p` (after its header) to parameters
// first + 1, first + 2, ... of `stmt`; returns the end of the row.
const char* BindRow(const char* p, int values, Stmt* stmt, int first) {
  for (int i = 1; i <= values; ++i) {
    const char tag = *p++;
    switch (tag) {
      case kInt:
      case kReal: {
        if (tag == kInt) {
          int64_t v;
          std::memcpy(&v, p, 8);
          stmt->Int(first + i, v);
        } else {
          double v;
          std::memcpy(&v, p, 8);
          stmt->Real(first + i, v);
        }
        p += 8;
        break;
      }
      case kText:
      case kBlob: {
        uint32_t size;
        std::memcpy(&size, p, 4);
        p += 4;
        const std::string_view v(p, size);
        p += size;
        if (tag == kText) stmt->Text(first + i, v); else stmt->Blob(first + i, v);
        break;
      }
      default:
        // Unbound: NULL already (a fresh statement, or one that Stmt::Run
        // cleared), which saves SQLite a call per NULL column.
        break;
    }
  }
  return p;
}

// The end of the row whose values start at `p`.
const char* SkipRow(const char* p, int values) {
  for (int i = 0; i < values; ++i) {
    const char tag = *p++;
    if (tag == kInt || tag == kReal) {
      p += 8;
    } else if (tag == kText || tag == kBlob) {
      uint32_t size;
      std::memcpy(&size, p, 4);
      p += 4 + size;
    }
  }
  return p;
}

}  // namespace

Status RowBuffer::RunAll(std::span<Insert> inserts) const {
  // Each statement's rows, in recorded order; rows of different tables
  // need no order between them, and rows of one table go many to a
  // statement run.
  std::vector<std::vector<const char*>> rows(inserts.size());
  const char* p = bytes_.data();
  const char* end = p + bytes_.size();
  while (p < end) {
    const uint8_t index = static_cast<uint8_t>(p[0]);
    const int values = static_cast<uint8_t>(p[1]);
    if (index >= inserts.size()) {
      return Status::InvalidArgument("a recorded row names no statement");
    }
    if (values != inserts[index].columns()) {
      return Status::InvalidArgument("a recorded row has " + std::to_string(values) +
                                     " values for " + std::to_string(inserts[index].columns()) +
                                     " columns");
    }
    rows[index].push_back(p);
    p = SkipRow(p + 2, values);
  }
  for (size_t s = 0; s < inserts.size(); ++s) {
    Insert& insert = inserts[s];
    const std::vector<const char*>& of = rows[s];
    const size_t many = static_cast<size_t>(insert.rows_per_many());
    const int columns = insert.columns();
    size_t i = 0;
    for (; many > 1 && i + many <= of.size(); i += many) {
      for (size_t k = 0; k < many; ++k) {
        BindRow(of[i + k] + 2, columns, &insert.many(), static_cast<int>(k) * columns);
      }
      GEM_RETURN_IF_ERROR(insert.many().Run());
    }
    for (; i < of.size(); ++i) {
      BindRow(of[i] + 2, columns, &insert.one(), 0);
      GEM_RETURN_IF_ERROR(insert.one().Run());
    }
  }
  return Status::Ok();
}

}  // namespace gem::index
