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
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

class RowBuffer {
 public:
  // Starts a row of statement `stmt`, an index into the statements that
  // RunAll() is given. Its values follow, in parameter order (the first
  // value binds parameter 1); a row may have at most 255.
  RowBuffer& Begin(uint8_t stmt);
  RowBuffer& Int(int64_t v);
  RowBuffer& Real(double v);
  RowBuffer& Text(std::string_view v);
  RowBuffer& Blob(std::string_view v);
  RowBuffer& Null();

  bool empty() const { return bytes_.empty(); }
  size_t bytes() const { return bytes_.size(); }
  void clear() { bytes_.clear(); }

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
  void PutTag(char tag);
  void PutBytes(std::string_view v);

  std::string bytes_;      // per row: stmt, value count, then tagged values
  size_t row_start_ = 0;   // where the current row's header is
};

}  // namespace gem::index

#endif  // GEM_INDEXER_ROW_BUFFER_H_
