#include "core/string_tables/string_table.h"

#include <snappy.h>

#include <algorithm>

#include "core/util/bit_reader.h"

namespace gem {
namespace {

constexpr int kHistorySize = 32;
// Longest name accepted; real names are at most a few hundred bytes.
constexpr size_t kMaxNameLength = 1u << 16;
// Largest entry accepted after decompression.
constexpr size_t kMaxEntryData = 64u << 20;

}  // namespace

Status StringTable::ApplyEntries(const uint8_t* data, size_t size,
                                 int32_t num_entries,
                                 std::vector<int32_t>* changed) {
  BitReader r(data, size);
  // Names of the last 32 entries of this message, as a ring; history_count
  // says how many are valid, oldest at (history_start).
  std::string history[kHistorySize];
  int history_count = 0;
  int history_start = 0;

  int64_t index = -1;
  for (int32_t i = 0; i < num_entries; ++i) {
    if (r.ReadBool()) {
      ++index;
    } else {
      index += static_cast<int64_t>(r.ReadVarUint32()) + 2;
    }

    bool has_name = r.ReadBool();
    if (has_name) {
      if (r.ReadBool()) {
        uint32_t position = r.ReadBits(5);
        uint32_t length = r.ReadBits(5);
        name_scratch_.clear();
        if (static_cast<int>(position) < history_count) {
          const std::string& base =
              history[(history_start + position) % kHistorySize];
          name_scratch_.assign(base, 0, std::min<size_t>(length, base.size()));
        }
        std::string suffix;
        if (!r.ReadString(&suffix, kMaxNameLength)) {
          return Status::Corrupt("string table " + name_ + ": entry " +
                                 std::to_string(i) + " has an unterminated name");
        }
        name_scratch_ += suffix;
      } else if (!r.ReadString(&name_scratch_, kMaxNameLength)) {
        return Status::Corrupt("string table " + name_ + ": entry " +
                               std::to_string(i) + " has an unterminated name");
      }
    }

    bool has_data = r.ReadBool();
    const std::string* value = nullptr;
    if (has_data) {
      bool compressed = false;
      uint64_t bits;
      if (settings_.user_data_fixed_size) {
        bits = static_cast<uint64_t>(std::max(0, settings_.user_data_size_bits));
      } else {
        if (settings_.flags & 1) compressed = r.ReadBool();
        uint64_t bytes = settings_.using_varint_bitcounts ? r.ReadUBitVar()
                                                          : r.ReadBits(17);
        bits = bytes * 8;
      }
      if (bits > r.bits_left()) {
        return Status::Corrupt("string table " + name_ + ": entry " +
                               std::to_string(i) + " claims " +
                               std::to_string(bits / 8) +
                               " bytes of data, more than the message holds");
      }
      data_scratch_.resize((bits + 7) / 8);
      r.ReadBitsAsBytes(reinterpret_cast<uint8_t*>(data_scratch_.data()), bits);
      value = &data_scratch_;
      if (compressed) {
        size_t raw = 0;
        if (!snappy::GetUncompressedLength(data_scratch_.data(),
                                           data_scratch_.size(), &raw) ||
            raw > kMaxEntryData || raw > data_scratch_.size() * 22 + 32) {
          return Status::Corrupt("string table " + name_ + ": entry " +
                                 std::to_string(i) +
                                 " has a bad snappy length");
        }
        snappy_scratch_.resize(raw);
        if (!snappy::RawUncompress(data_scratch_.data(), data_scratch_.size(),
                                   snappy_scratch_.data())) {
          return Status::Corrupt("string table " + name_ + ": entry " +
                                 std::to_string(i) +
                                 " does not decompress");
        }
        value = &snappy_scratch_;
      }
    }
    if (r.overflowed()) {
      return Status::Corrupt("string table " + name_ + ": entry " +
                             std::to_string(i) +
                             " runs past the end of the message");
    }
    if (index > int64_t{1} << 24) {
      return Status::Corrupt("string table " + name_ + ": entry index " +
                             std::to_string(index) + " is out of range");
    }

    const size_t at = static_cast<size_t>(index);
    // Entries past the end leave empty ones between (damaged input only):
    // no more than the rest of the message could name, so that the memory
    // they take grows with the data, not with a number in it.
    if (at > entries_.size() && at - entries_.size() > r.bits_left() + 1) {
      return Status::Corrupt("string table " + name_ + ": entry index " + std::to_string(index) +
                             " skips past what the rest of the message could fill");
    }
    if (at >= entries_.size()) {
      if (at > entries_.size()) gap_entries_ += at - entries_.size();
      entries_.resize(at + 1);
      // A new entry takes the name it was sent with.
      if (has_name) entries_[at].name = name_scratch_;
    }
    // An existing entry keeps its name whatever the update says.
    StringTableEntry& entry = entries_[at];
    if (value != nullptr) {
      entry.data.assign(*value);
    } else {
      entry.data.clear();
    }

    if (history_count < kHistorySize) {
      history[(history_start + history_count) % kHistorySize] = entry.name;
      ++history_count;
    } else {
      history[history_start] = entry.name;
      history_start = (history_start + 1) % kHistorySize;
    }
    changed->push_back(static_cast<int32_t>(at));
  }
  return Status::Ok();
}

void StringTable::ApplySnapshotEntry(int32_t index, std::string_view name,
                                     bool has_data, std::string_view data,
                                     std::vector<int32_t>* changed) {
  if (index < 0) return;
  const size_t at = static_cast<size_t>(index);
  if (at < entries_.size()) {
    StringTableEntry& entry = entries_[at];
    if (has_data && entry.data.empty() && !data.empty()) {
      entry.data.assign(data);
      changed->push_back(index);
    }
    return;
  }
  if (at > entries_.size()) gap_entries_ += at - entries_.size();
  entries_.resize(at + 1);
  entries_[at].name.assign(name);
  entries_[at].data.assign(has_data ? data : std::string_view());
  changed->push_back(index);
}

void StringTable::RestateEntry(int32_t index, std::string_view name, std::string_view data,
                               std::vector<int32_t>* changed) {
  if (index < 0) return;
  const size_t at = static_cast<size_t>(index);
  if (at >= entries_.size()) {
    if (at > entries_.size()) gap_entries_ += at - entries_.size();
    entries_.resize(at + 1);
  } else if (entries_[at].name == name && entries_[at].data == data) {
    return;
  }
  entries_[at].name.assign(name);
  entries_[at].data.assign(data);
  changed->push_back(index);
}

StringTable* StringTables::Create(std::string name,
                                  const StringTableSettings& settings) {
  int32_t id = static_cast<int32_t>(tables_.size());
  by_name_.emplace(name, id);
  tables_.push_back(std::make_unique<StringTable>(id, std::move(name), settings));
  return tables_.back().get();
}

StringTable* StringTables::Find(std::string_view name) {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : tables_[it->second].get();
}

void StringTables::Clear() {
  tables_.clear();
  by_name_.clear();
}

}  // namespace gem
