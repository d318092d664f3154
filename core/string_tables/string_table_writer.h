// Writing string table entries in the bit-packed form string_table.h
// describes: for tools that write replays (gem-synth's updates, gem-dump
// split's restarted signons). The parser never writes.
#ifndef GEM_CORE_STRING_TABLES_STRING_TABLE_WRITER_H_
#define GEM_CORE_STRING_TABLES_STRING_TABLE_WRITER_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/string_tables/string_table.h"

namespace gem {

// The bits of a create or update message's entries: `indices` (ascending)
// of `entries`, each with its name when `with_name(index)` says (a new
// entry; names never change after), its name compressed against the
// message's earlier names, and its data uncompressed, sized as `settings`
// say. The result is padded to whole bytes.
std::string EncodeStringTableEntries(const StringTableSettings& settings,
                                     const std::vector<StringTableEntry>& entries,
                                     std::span<const int32_t> indices,
                                     const std::function<bool(int32_t)>& with_name);

}  // namespace gem

#endif  // GEM_CORE_STRING_TABLES_STRING_TABLE_WRITER_H_
