// The parts table: the files an index was read from (one for a replay, one
// per file of a split recording; Parser::ParseParts), with how each joins
// the one before.
#ifndef GEM_INDEXER_PARTS_TABLE_H_
#define GEM_INDEXER_PARTS_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/parser/parser.h"
#include "core/util/status.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

// A file as given (its name and checksum are the indexer's to know).
struct PartFile {
  std::string name;
  std::string sha256;
  uint64_t bytes = 0;
};

// One row per part the parser read; `files` in the same order (a part
// without one, a stream whose checksum is not kept, gets NULLs).
Status WriteParts(Db* db, const std::vector<PartInfo>& parts, const std::vector<PartFile>& files,
                  bool replace);

}  // namespace gem::index

#endif  // GEM_INDEXER_PARTS_TABLE_H_
