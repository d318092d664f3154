#include "indexer/row_buffer.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace gem::index {
RowBuffer& RowBuffer::Begin(uint8_t stmt) {
  row_start_ = size_;
  char* p = Extend(2);
  p[0] = static_cast<char>(stmt);
  p[1] = 0;
  return *this;
}

void RowBuffer::Grow(size_t n) {
  const size_t capacity = std::max<size_t>({capacity_ * 2, size_ + n, 4096});
  std::unique_ptr<char[]> data(new char[capacity]);
  if (size_ > 0) std::memcpy(data.get(), data_.get(), size_);
  data_ = std::move(data);
  capacity_ = capacity;
}

// Binds the values of the row at `p` (after its header) to parameters
// first + 1, first + 2, ... of `stmt`; returns the end of the row.
const char* BindRowValues(const char* p, int values, Stmt* stmt, int first) {
  using Tag = RowBuffer::Tag;
  for (int i = 1; i <= values; ++i) {
    const char tag = *p++;
    switch (tag) {
      case Tag::kNulls:
        i += static_cast<uint8_t>(*p++) - 1;  // left unbound, as a kNull
        break;
      case Tag::kInt:
      case Tag::kReal: {
        if (tag == Tag::kInt) {
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
      case Tag::kText:
      case Tag::kBlob: {
        uint32_t size;
        std::memcpy(&size, p, 4);
        p += 4;
        const std::string_view v(p, size);
        p += size;
        if (tag == Tag::kText) stmt->Text(first + i, v); else stmt->Blob(first + i, v);
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
const char* SkipRowValues(const char* p, int values) {
  using Tag = RowBuffer::Tag;
  for (int i = 0; i < values; ++i) {
    const char tag = *p++;
    if (tag == Tag::kNulls) {
      i += static_cast<uint8_t>(*p++) - 1;
    } else if (tag == Tag::kInt || tag == Tag::kReal) {
      p += 8;
    } else if (tag == Tag::kText || tag == Tag::kBlob) {
      uint32_t size;
      std::memcpy(&size, p, 4);
      p += 4 + size;
    }
  }
  return p;
}

Status RowBuffer::RunAll(std::span<Insert> inserts) const {
  // Each statement's rows, in recorded order; rows of different tables
  // need no order between them, and rows of one table go many to a
  // statement run.
  std::vector<std::vector<const char*>> rows(inserts.size());
  const char* p = data_.get();
  const char* end = p + size_;
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
    p = SkipRowValues(p + 2, values);
  }
  for (size_t s = 0; s < inserts.size(); ++s) {
    Insert& insert = inserts[s];
    const std::vector<const char*>& of = rows[s];
    const size_t many = static_cast<size_t>(insert.rows_per_many());
    const int columns = insert.columns();
    size_t i = 0;
    for (; many > 1 && i + many <= of.size(); i += many) {
      for (size_t k = 0; k < many; ++k) {
        BindRowValues(of[i + k] + 2, columns, &insert.many(), static_cast<int>(k) * columns);
      }
      GEM_RETURN_IF_ERROR(insert.many().Run());
    }
    for (; i < of.size(); ++i) {
      BindRowValues(of[i] + 2, columns, &insert.one(), 0);
      GEM_RETURN_IF_ERROR(insert.one().Run());
    }
  }
  return Status::Ok();
}

}  // namespace gem::index
