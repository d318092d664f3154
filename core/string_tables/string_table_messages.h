// The string-table messages, read without copying their data:
// svc_CreateStringTable, svc_UpdateStringTable (see proto/netmessages.proto)
// and the snapshots of CDemoStringTables (proto/demo.proto). Views point
// into the message bytes.
#ifndef GEM_CORE_STRING_TABLES_STRING_TABLE_MESSAGES_H_
#define GEM_CORE_STRING_TABLES_STRING_TABLE_MESSAGES_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/string_tables/string_table.h"

namespace gem {

struct CreateStringTableMessage {
  std::string_view name;             // 1
  int32_t num_entries = 0;           // 2
  StringTableSettings settings;      // 3, 4, 5, 6, 10
  std::string_view string_data;      // 7
  bool data_compressed = false;      // 9
};
bool ReadCreateStringTable(std::string_view msg, CreateStringTableMessage* out);

struct UpdateStringTableMessage {
  int32_t table_id = -1;             // 1
  int32_t num_changed_entries = 0;   // 2
  std::string_view string_data;      // 3
};
bool ReadUpdateStringTable(std::string_view msg, UpdateStringTableMessage* out);

// One table of a CDemoStringTables snapshot.
struct SnapshotTable {
  struct Item {
    std::string_view str;   // 1
    std::string_view data;  // 2
    bool has_data = false;
  };
  std::string_view name;    // table_t.table_name
  std::vector<Item> items;  // table_t.items (clientside items are not read)
};
// Reads every table of a snapshot; `tables` is reused.
bool ReadStringTableSnapshot(std::string_view msg, std::vector<SnapshotTable>* tables);

}  // namespace gem

#endif  // GEM_CORE_STRING_TABLES_STRING_TABLE_MESSAGES_H_
