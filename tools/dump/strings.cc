// gem-dump strings: the final string tables, one entry per line:
// table, entry_index, key (JSON-quoted), value_len, value_crc32.
#include <fmt/core.h>

#include <cstdio>
#include <string>

#include "core/input/demo_stream.h"
#include "core/util/exit_codes.h"
#include "core/string_tables/string_table.h"
#include "core/fields/value.h"
#include "tools/cli/crc32.h"
#include "tools/dump/commands.h"

namespace gem::dump {

namespace {

// Prints every change of the named table as it happens.
class HistorySink : public Sink {
 public:
  explicit HistorySink(std::string table) : table_(std::move(table)) {}
  void OnStringTableEntry(const TickInfo& t, const StringTable& table,
                          int32_t index) override {
    if (table.name() != table_) return;
    const StringTableEntry& e = table.entry(index);
    key_.clear();
    AppendJsonString(e.name, &key_);
    fmt::print("{}\t{}\t{}\t{}\t{}\t{:08x}\n", t.tick, DemoCommandName(t.command), index, key_,
               e.data.size(), cli::Crc32(e.data));
  }

 private:
  std::string table_;
  std::string key_;
};

}  // namespace

int RunStrings(const Args& args) {
  if (args.size() == 3 && args[0] == "--history") {
    fmt::print("tick\tframe\tentry_index\tkey\tvalue_len\tvalue_crc32\n");
    HistorySink sink(args[1]);
    return ParseReplay(args[2], &sink, [](const Parser&) {});
  }
  if (args.size() != 1) {
    fmt::print(stderr, "usage: gem-dump strings [--history TABLE] REPLAY.dem\n");
    return cli::kExitUsage;
  }
  return ParseReplay(args[0], nullptr, [](const Parser& p) {
    fmt::print("table\tentry_index\tkey\tvalue_len\tvalue_crc32\n");
    const StringTables& tables = p.string_tables();
    std::string key;
    for (size_t t = 0; t < tables.size(); ++t) {
      const StringTable* table = tables.Get(static_cast<int32_t>(t));
      for (size_t i = 0; i < table->size(); ++i) {
        const StringTableEntry& e = table->entry(i);
        key.clear();
        AppendJsonString(e.name, &key);
        fmt::print("{}\t{}\t{}\t{}\t{:08x}\n", table->name().c_str(), i, key, e.data.size(),
                   cli::Crc32(e.data));
      }
    }
  });
}

}  // namespace gem::dump
