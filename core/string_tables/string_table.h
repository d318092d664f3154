// String tables: numbered lists of (name, data) entries shared by the server.
//
// Entries are bit-packed (not protobuf). Each entry of a create or update
// message is:
//   1. its index: one bit "next entry", else a varint jump: index += v + 2;
//   2. optionally its name: plain, or "the first n characters of the name of
//      one of the last 32 entries of this message (oldest first), then this";
//   3. optionally its data: a compressed flag if the table allows snappy,
//      then a size in bytes (ubit var, or 17 bits when the table was created
//      without varint sizes) - or the table's fixed size in bits.
// Rules (they follow the replay itself; see the string-table seed):
// - every entry counts towards the 32-name history, with the name it has;
// - an entry's name never changes once it exists;
// - an update without data clears the entry's data.
//
// Snapshots (DEM_StringTables, and the tables inside full packets) apply to
// existing tables only and only fill gaps: an entry without data takes the
// snapshot's data, entries past the end are added. (Whether a snapshot may
// be applied at all is the parser's call; see parser.h.)
#ifndef GEM_CORE_STRING_TABLES_STRING_TABLE_H_
#define GEM_CORE_STRING_TABLES_STRING_TABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/util/status.h"

namespace gem {

struct StringTableEntry {
  std::string name;
  std::string data;
};

struct StringTableSettings {
  bool user_data_fixed_size = false;
  int32_t user_data_size = 0;       // bytes, when fixed
  int32_t user_data_size_bits = 0;  // bits, when fixed
  int32_t flags = 0;                // bit 0: entries may be snappy-compressed
  bool using_varint_bitcounts = false;
};

class StringTable {
 public:
  StringTable(int32_t id, std::string name, const StringTableSettings& s)
      : id_(id), name_(std::move(name)), settings_(s) {}

  int32_t id() const { return id_; }
  const std::string& name() const { return name_; }
  const StringTableSettings& settings() const { return settings_; }
  size_t size() const { return entries_.size(); }
  const StringTableEntry& entry(size_t i) const { return entries_[i]; }
  // nullptr when there is no entry i.
  const StringTableEntry* Find(int64_t i) const {
    return i >= 0 && static_cast<size_t>(i) < entries_.size() ? &entries_[i]
                                                              : nullptr;
  }

  // Decodes `num_entries` bit-packed entries and applies them. The indexes
  // of the entries set are appended to `changed` (in message order).
  // Corrupt on malformed data; entries decoded before the damage stay.
  Status ApplyEntries(const uint8_t* data, size_t size, int32_t num_entries,
                      std::vector<int32_t>* changed);

  // Applies one snapshot entry (see the file comment). Appends `index` to
  // `changed` when the entry is new or gets data.
  void ApplySnapshotEntry(int32_t index, std::string_view name, bool has_data,
                          std::string_view data, std::vector<int32_t>* changed);

  // Restates entry `index` as (name, data), as a later part of a split
  // recording creates its tables afresh (Parser::ParseParts). Appends
  // `index` to `changed` when the entry is new or differs.
  void RestateEntry(int32_t index, std::string_view name, std::string_view data,
                    std::vector<int32_t>* changed);

  // Entries reached past the end of the table (gaps filled with empty
  // entries) - seen only in damaged input; counted, not fatal.
  uint64_t gap_entries() const { return gap_entries_; }

 private:
  int32_t id_;
  std::string name_;
  StringTableSettings settings_;
  std::vector<StringTableEntry> entries_;
  uint64_t gap_entries_ = 0;
  std::string name_scratch_;
  std::string data_scratch_;
  std::string snappy_scratch_;
};

class StringTables {
 public:
  // Creates a table with the next id. Duplicated names keep the first table
  // reachable by name (ids stay distinct).
  StringTable* Create(std::string name, const StringTableSettings& settings);
  StringTable* Get(int32_t id) {
    return id >= 0 && static_cast<size_t>(id) < tables_.size()
               ? tables_[id].get()
               : nullptr;
  }
  const StringTable* Get(int32_t id) const {
    return const_cast<StringTables*>(this)->Get(id);
  }
  StringTable* Find(std::string_view name);
  const StringTable* Find(std::string_view name) const {
    return const_cast<StringTables*>(this)->Find(name);
  }
  size_t size() const { return tables_.size(); }
  // svc_ClearAllStringTables: forget every table; ids restart at 0.
  void Clear();

 private:
  std::vector<std::unique_ptr<StringTable>> tables_;
  std::unordered_map<std::string, int32_t> by_name_;
};

}  // namespace gem

#endif  // GEM_CORE_STRING_TABLES_STRING_TABLE_H_
