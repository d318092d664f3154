#include "core/string_tables/string_table_writer.h"

#include <algorithm>

#include "core/util/bit_writer.h"

namespace gem {

std::string EncodeStringTableEntries(const StringTableSettings& settings,
                                     const std::vector<StringTableEntry>& entries,
                                     std::span<const int32_t> indices,
                                     const std::function<bool(int32_t)>& with_name) {
  BitWriter w;
  // The names of the entries of this message, for name compression.
  std::vector<const std::string*> history;
  int32_t last = -1;
  for (int32_t index : indices) {
    if (index == last + 1) {
      w.WriteBool(true);
    } else {
      w.WriteBool(false);
      w.WriteVarUint32(static_cast<uint32_t>(index - last - 2));
    }
    last = index;
    const StringTableEntry& entry = entries[index];
    const bool named = with_name(index);
    w.WriteBool(named);
    if (named) {
      // The longest prefix shared with one of the last 32 names.
      size_t best_len = 0, best_pos = 0;
      const size_t first = history.size() > 32 ? history.size() - 32 : 0;
      for (size_t h = first; h < history.size(); ++h) {
        const std::string& base = *history[h];
        size_t n = 0;
        while (n < base.size() && n < entry.name.size() && n < 31 && base[n] == entry.name[n]) ++n;
        if (n > best_len) best_len = n, best_pos = h - first;
      }
      if (best_len >= 2) {
        w.WriteBool(true);
        w.WriteBits(static_cast<uint32_t>(best_pos), 5);
        w.WriteBits(static_cast<uint32_t>(best_len), 5);
        w.WriteString(std::string_view(entry.name).substr(best_len));
      } else {
        w.WriteBool(false);
        w.WriteString(entry.name);
      }
    }
    history.push_back(&entry.name);
    w.WriteBool(!entry.data.empty());
    if (!entry.data.empty()) {
      if (settings.user_data_fixed_size) {
        const uint64_t bits = static_cast<uint64_t>(std::max(0, settings.user_data_size_bits));
        for (uint64_t b = 0; b < bits; ++b) {
          const size_t byte = b / 8;
          const uint8_t v = byte < entry.data.size() ? static_cast<uint8_t>(entry.data[byte]) : 0;
          w.WriteBool((v >> (b % 8)) & 1);
        }
      } else {
        if (settings.flags & 1) w.WriteBool(false);  // not compressed
        if (settings.using_varint_bitcounts) {
          w.WriteUBitVar(static_cast<uint32_t>(entry.data.size()));
        } else {
          w.WriteBits(static_cast<uint32_t>(entry.data.size()), 17);
        }
        w.WriteBytes(entry.data);
      }
    }
  }
  return w.str();
}

}  // namespace gem
