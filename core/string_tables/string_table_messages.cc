#include "core/string_tables/string_table_messages.h"

#include "core/util/proto_wire.h"

namespace gem {

bool ReadCreateStringTable(std::string_view msg, CreateStringTableMessage* out) {
  *out = CreateStringTableMessage();
  WireReader r(msg);
  while (r.Next()) {
    switch (r.field()) {
      case 1: out->name = r.bytes(); break;
      case 2: out->num_entries = r.int32(); break;
      case 3: out->settings.user_data_fixed_size = r.varint() != 0; break;
      case 4: out->settings.user_data_size = r.int32(); break;
      case 5: out->settings.user_data_size_bits = r.int32(); break;
      case 6: out->settings.flags = r.int32(); break;
      case 7: out->string_data = r.bytes(); break;
      case 9: out->data_compressed = r.varint() != 0; break;
      case 10: out->settings.using_varint_bitcounts = r.varint() != 0; break;
      default: break;
    }
  }
  return r.ok();
}

bool ReadUpdateStringTable(std::string_view msg, UpdateStringTableMessage* out) {
  *out = UpdateStringTableMessage();
  WireReader r(msg);
  while (r.Next()) {
    switch (r.field()) {
      case 1: out->table_id = r.int32(); break;
      case 2: out->num_changed_entries = r.int32(); break;
      case 3: out->string_data = r.bytes(); break;
      default: break;
    }
  }
  return r.ok();
}

bool ReadStringTableSnapshot(std::string_view msg, std::vector<SnapshotTable>* tables) {
  size_t used = 0;
  WireReader r(msg);
  while (r.Next()) {
    if (r.field() != 1 || r.wire_type() != 2) continue;
    if (used == tables->size()) tables->emplace_back();
    SnapshotTable& t = (*tables)[used++];
    t.name = {};
    t.items.clear();
    WireReader tr(r.bytes());
    while (tr.Next()) {
      if (tr.field() == 1 && tr.wire_type() == 2) {
        t.name = tr.bytes();
      } else if (tr.field() == 2 && tr.wire_type() == 2) {
        SnapshotTable::Item item;
        WireReader ir(tr.bytes());
        while (ir.Next()) {
          if (ir.field() == 1 && ir.wire_type() == 2) item.str = ir.bytes();
          if (ir.field() == 2 && ir.wire_type() == 2) {
            item.data = ir.bytes();
            item.has_data = true;
          }
        }
        if (!ir.ok()) return false;
        t.items.push_back(item);
      }
    }
    if (!tr.ok()) return false;
  }
  tables->resize(used);
  return r.ok();
}

}  // namespace gem
