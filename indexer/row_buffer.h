// RowBuffer: rows to insert, recorded on one thread and run on another.
//
// The parser's thread should only parse: each row it has for SQLite (a
// combat-log entry, a string-table entry, an entity's creation state) is
// recorded here as its statement's number and its values, strings copied,
// and the packing worker inserts them (see change_pipeline.h). Recording a
// row costs a few appends; inserting it costs SQLite thousands of
// instructions, now off the parser's thread.
#ifndef GEM_INDEXER_ROW_BUFFER_H_
#define GEM_INDEXER_ROW_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/util/status.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

class Stmt;

class RowBuffer {
 public:
  // Starts a row of statement `stmt`, an index into the statements that
  // RunAll() is given. Its values follow, in parameter order (the first
  // value binds parameter 1); a row may have at most 255.
  RowBuffer& Begin(uint8_t stmt);
  // Inline: rows of many columns (a combat-log entry's) are recorded on
  // the parser's thread, a value at a time.
  RowBuffer& Int(int64_t v) {
    char* p = Tagged(kInt, 8);
    std::memcpy(p, &v, 8);
    return *this;
  }
  RowBuffer& Real(double v) {
    char* p = Tagged(kReal, 8);
    std::memcpy(p, &v, 8);
    return *this;
  }
  RowBuffer& Text(std::string_view v) {
    Tagged(kText, 0);
    PutBytes(v);
    return *this;
  }
  RowBuffer& Blob(std::string_view v) {
    Tagged(kBlob, 0);
    PutBytes(v);
    return *this;
  }
  RowBuffer& Null() {
    Tagged(kNull, 0);
    return *this;
  }
  // `n` NULL values (1-255) in one tag: a sparse row's runs of NULLs cost
  // a byte each, and nothing when inserted (they stay unbound).
  RowBuffer& Nulls(int n) {
    char* p = Tagged(kNulls, 1);
    data_[row_start_ + 1] = static_cast<char>(static_cast<uint8_t>(data_[row_start_ + 1]) + n - 1);
    p[0] = static_cast<char>(n);
    return *this;
  }

  bool empty() const { return size_ == 0; }
  size_t bytes() const { return size_; }
  void clear() { size_ = 0; }

  // Inserts every row with its statement (`inserts[stmt]`), many rows to
  // a statement run where there are enough; each table's rows in the order
  // they were recorded (rows of different tables in no set order). Stops
  // at the first failure. A row must have one value per column of its
  // insert; a row that has not, or names no insert, is a failure (and
  // nothing of the buffer is inserted). The inserts' parameters must be
  // unbound (NULL) when RunAll starts, as Stmt::Run leaves them; NULL
  // values are left unbound.
  Status RunAll(std::span<Insert> inserts) const;

 private:
  // How each value is recorded: its tag, then 8 bytes for kInt and kReal,
  // a 4-byte size and the bytes for kText and kBlob, nothing for kNull, a
  // count byte for kNulls.
  enum Tag : char { kInt = 'i', kReal = 'r', kText = 't', kBlob = 'b', kNull = 'n', kNulls = 'N' };
  // Room for `n` more bytes, at the end (the buffer grows by doubling
  // and is kept: a batch's rows allocate nothing once it has grown).
  char* Extend(size_t n) {
    if (n > capacity_ - size_) Grow(n);
    char* p = data_.get() + size_;
    size_ += n;
    return p;
  }
  void Grow(size_t n);
  // A value's tag (counted in the row's header) and room for `n` bytes.
  char* Tagged(char tag, size_t n) {
    char* p = Extend(1 + n);
    ++data_[row_start_ + 1];  // the row's value count
    p[0] = tag;
    return p + 1;
  }
  void PutBytes(std::string_view v) {
    const uint32_t size = static_cast<uint32_t>(v.size());
    char* p = Extend(4 + v.size());
    std::memcpy(p, &size, 4);
    if (!v.empty()) std::memcpy(p + 4, v.data(), v.size());
  }
  friend const char* BindRowValues(const char* p, int values, Stmt* stmt, int first);
  friend const char* SkipRowValues(const char* p, int values);

  // Per row: stmt, value count, then tagged values.
  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  size_t row_start_ = 0;   // where the current row's header is
};

}  // namespace gem::index

#endif  // GEM_INDEXER_ROW_BUFFER_H_
