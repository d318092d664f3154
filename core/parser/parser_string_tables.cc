// Parser: the string tables' part (see core/string_tables/string_table.h): their
// creation and updates, the snapshots of full packets, and what follows
// from new entries (class baselines, the sink's rows).
#include <snappy.h>

#include <charconv>
#include <string>

#include "core/parser/parser.h"
#include "core/string_tables/string_table_messages.h"
#include "core/util/proto_wire.h"

namespace gem {
namespace {

// Largest string-table payload accepted after decompression (checked,
// with the compressed size, before anything is allocated).
constexpr size_t kMaxStringTableData = 256u << 20;

}  // namespace

Status Parser::ApplyStringTableSnapshot(std::string_view msg) {
  if (!ReadStringTableSnapshot(msg, &snapshot_)) {
    return Status::Corrupt("string table snapshot does not parse");
  }
  // A later part's signon fills its staged tables, which the join compares.
  StringTables& tables = joining_ ? staged_tables_ : tables_;
  for (const SnapshotTable& t : snapshot_) {
    StringTable* table = tables.Find(t.name);
    if (table == nullptr) continue;  // snapshots never create tables
    // A snapshot is a checkpoint, not an event. Where it contradicts data
    // the create/update stream already gave, it was not taken at this tick
    // (some recorders write end-of-recording tables into the first full
    // packet): the whole table's snapshot is then ignored.
    bool agrees = true;
    for (size_t i = 0; i < t.items.size() && agrees; ++i) {
      const StringTableEntry* e = table->Find(static_cast<int64_t>(i));
      if (e == nullptr) break;
      const SnapshotTable::Item& item = t.items[i];
      agrees = e->name == item.str &&
               (!item.has_data || e->data.empty() || e->data == item.data);
    }
    if (!agrees) {
      ++counters_.string_table_snapshots_ignored;
      continue;
    }
    changed_.clear();
    for (size_t i = 0; i < t.items.size(); ++i) {
      const SnapshotTable::Item& item = t.items[i];
      table->ApplySnapshotEntry(static_cast<int32_t>(i), item.str, item.has_data, item.data,
                                &changed_);
    }
    if (!joining_) ReportEntries(table);
  }
  return Status::Ok();
}

Status Parser::OnCreateStringTable(const uint8_t* data, size_t size) {
  CreateStringTableMessage msg;
  if (!ReadCreateStringTable(std::string_view(reinterpret_cast<const char*>(data), size),
                             &msg)) {
    return Status::Corrupt("create string table does not parse");
  }
  const std::string name(msg.name);
  std::string_view entries = msg.string_data;
  if (msg.data_compressed) {
    std::string_view raw = msg.string_data;
    if (raw.substr(0, 4) == "LZSS") {
      return Status::Unsupported("string table " + name +
                                 " is LZSS-compressed (the Source 2 betas of 2014-2015)");
    }
    size_t out = 0;
    if (!snappy::GetUncompressedLength(raw.data(), raw.size(), &out) ||
        out > kMaxStringTableData || out > raw.size() * 22 + 32) {
      return Status::Corrupt("string table " + name + " has a bad snappy length");
    }
    table_data_.resize(out);
    if (!snappy::RawUncompress(raw.data(), raw.size(), table_data_.data())) {
      return Status::Corrupt("string table " + name + " does not decompress");
    }
    entries = table_data_;
  }
  if (joining_) {
    // A later part's signon: staged, compared at the join (JoinTables).
    StringTable* staged = staged_tables_.Create(name, msg.settings);
    changed_.clear();
    return staged->ApplyEntries(reinterpret_cast<const uint8_t*>(entries.data()),
                                entries.size(), msg.num_entries, &changed_);
  }
  StringTable* table = tables_.Create(name, msg.settings);
  if (parts_.size() > 1) part_table_ids_.push_back(table->id());
  if (sink_) sink_->OnStringTableCreated(tick_, *table);
  changed_.clear();
  Status s = table->ApplyEntries(reinterpret_cast<const uint8_t*>(entries.data()),
                                 entries.size(), msg.num_entries, &changed_);
  ReportEntries(table);
  return s;
}

Status Parser::OnUpdateStringTable(const uint8_t* data, size_t size) {
  UpdateStringTableMessage msg;
  if (!ReadUpdateStringTable(std::string_view(reinterpret_cast<const char*>(data), size),
                             &msg)) {
    return Status::Corrupt("update string table does not parse");
  }
  StringTable* table = TableOfPart(msg.table_id);
  if (table == nullptr) {
    return Status::Corrupt("update of string table " + std::to_string(msg.table_id) +
                           ", which does not exist");
  }
  changed_.clear();
  Status s = table->ApplyEntries(reinterpret_cast<const uint8_t*>(msg.string_data.data()),
                                 msg.string_data.size(), msg.num_changed_entries, &changed_);
  if (!joining_) ReportEntries(table);
  return s;
}

void Parser::FindRecorder() {
  meta_.recorder_name.clear();
  meta_.recorder_steam_id = 0;
  if (!meta_.client_recording || meta_.recorder_slot < 0) return;
  const StringTable* users = tables_.Find("userinfo");
  const StringTableEntry* e = users == nullptr ? nullptr : users->Find(meta_.recorder_slot);
  if (e == nullptr) return;
  // CMsgPlayerInfo: name (1), xuid (2, fixed64), steamid (4, fixed64).
  WireReader r(e->data);
  while (r.Next()) {
    if (r.field() == 1 && r.wire_type() == 2) meta_.recorder_name.assign(r.bytes());
    if ((r.field() == 2 || r.field() == 4) && r.wire_type() == 1 && r.varint() != 0) {
      meta_.recorder_steam_id = r.varint();
    }
  }
}

StringTable* Parser::TableOfPart(int32_t id) {
  if (joining_) return staged_tables_.Get(id);
  if (parts_.size() <= 1) return tables_.Get(id);
  // A later part numbers its tables in its own creation order.
  return id >= 0 && static_cast<size_t>(id) < part_table_ids_.size()
             ? tables_.Get(part_table_ids_[id])
             : nullptr;
}

Status Parser::JoinTables() {
  for (size_t id = 0; id < staged_tables_.size(); ++id) {
    const StringTable* staged = staged_tables_.Get(static_cast<int32_t>(id));
    StringTable* held = tables_.Find(staged->name());
    if (held == nullptr) {
      held = tables_.Create(staged->name(), staged->settings());
      if (sink_) sink_->OnStringTableCreated(tick_, *held);
    }
    part_table_ids_.push_back(held->id());
    changed_.clear();
    for (size_t i = 0; i < staged->size(); ++i) {
      const StringTableEntry& e = staged->entry(i);
      held->RestateEntry(static_cast<int32_t>(i), e.name, e.data, &changed_);
    }
    parts_.back().restated_entries += changed_.size();
    ReportEntries(held);
  }
  staged_tables_.Clear();
  return Status::Ok();
}

void Parser::ReportEntries(StringTable* table) {
  const bool baselines = table->name() == "instancebaseline";
  const bool game_reads = !changed_.empty() && game_->ReadsTable(*table);
  for (int32_t index : changed_) {
    if (baselines) {
      const StringTableEntry& e = table->entry(index);
      int32_t class_id = 0;
      auto res = std::from_chars(e.name.data(), e.name.data() + e.name.size(), class_id);
      if (res.ec == std::errc() && res.ptr == e.name.data() + e.name.size()) {
        entities_->SetBaseline(class_id, e.data);
      } else {
        ++counters_.skipped_alternate_baselines;  // "classid:n" and the like
      }
    }
    if (sink_) sink_->OnStringTableEntry(tick_, *table, index);
    if (game_reads) game_->OnStringTableEntry(tick_, *table, index);
  }
}

}  // namespace gem
