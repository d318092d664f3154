// The decode_faults table: each entity packet that did not decode to its
// end (core/entities/decode_fault.h), and the entities it made stale.
#ifndef GEM_INDEXER_DECODE_FAULTS_TABLE_H_
#define GEM_INDEXER_DECODE_FAULTS_TABLE_H_

#include <vector>

#include "core/entities/decode_fault.h"
#include "core/util/status.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

// Writes every fault, replacing what the table held (a live run writes it
// at its end, once the refreshes are known).
Status WriteDecodeFaults(Db* db, const std::vector<DecodeFault>& faults);

}  // namespace gem::index

#endif  // GEM_INDEXER_DECODE_FAULTS_TABLE_H_
