#include "tests/fuzz/targets.h"

#include <charconv>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/bit_reader.h"
#include "core/codec/chunk_codec.h"
#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/keyframe_rows.h"
#include "core/codec/state_codec.h"
#include "core/fields/field_decoder.h"
#include "core/fields/field_path.h"
#include "core/input/mapped_file.h"
#include "core/parser/parser.h"
#include "core/string_tables/string_table.h"
#include "tests/support/decoder_specs.h"
#include "tests/fuzz/input_reader.h"

namespace gem::fuzz {
namespace {

// Every decoding rule (tests/support/decoder_specs.h).
std::vector<FieldDecoder> AllDecoders() {
  std::vector<FieldDecoder> out;
  for (const testing::Spec& spec : testing::AllSpecs()) out.push_back(testing::DecoderOf(spec));
  return out;
}

// The auto fixture's class baselines, from its parse (ParsedFixture).
struct EntityWorld {
  const Parser* parser = nullptr;
  std::vector<std::pair<int32_t, std::string>> baselines;
  bool ok = false;
};

const EntityWorld& World() {
  static EntityWorld* world = [] {
    auto* w = new EntityWorld;
    w->parser = ParsedFixture("dota2_haste_auto-20240102-2233-start.dem");
    if (w->parser == nullptr) return w;
    const StringTable* table = w->parser->string_tables().Find("instancebaseline");
    if (table == nullptr) return w;
    for (size_t i = 0; i < table->size(); ++i) {
      const StringTableEntry& e = table->entry(i);
      int32_t class_id = 0;
      auto res = std::from_chars(e.name.data(), e.name.data() + e.name.size(), class_id);
      if (res.ec == std::errc() && res.ptr == e.name.data() + e.name.size()) {
        w->baselines.emplace_back(class_id, e.data);
      }
    }
    w->ok = true;
    return w;
  }();
  return *world;
}

}  // namespace

const Parser* ParsedFixture(const std::string& file) {
  struct Parsed {
    MappedFile mapped;
    std::unique_ptr<Parser> parser;
  };
  // Kept for the process: fuzzers call the targets millions of times.
  static auto* parsed = new std::map<std::string, std::unique_ptr<Parsed>>;
  auto it = parsed->find(file);
  if (it == parsed->end()) {
    auto p = std::make_unique<Parsed>();
    const char* dir = std::getenv("GEM_FIXTURES");
    const std::string path =
        std::string(dir != nullptr && *dir != '\0' ? dir : "../shared/fixtures") + "/" + file;
    if (p->mapped.Open(path).ok()) {
      p->parser = std::make_unique<Parser>(nullptr);
      if (!p->parser->Parse(p->mapped.data(), p->mapped.size()).ok()) p->parser.reset();
    }
    it = parsed->emplace(file, std::move(p)).first;
  }
  return it->second->parser.get();
}

std::unique_ptr<EntityManager> NewAutoFixtureEntities() {
  const EntityWorld& world = World();
  if (!world.ok) return nullptr;
  auto entities = std::make_unique<EntityManager>(&world.parser->schema(), nullptr);
  entities->SetMaxClasses(world.parser->metadata().max_classes);
  for (const auto& [class_id, baseline] : world.baselines) {
    entities->SetBaseline(class_id, baseline);
  }
  return entities;
}

PacketEntities ReadEntityPacket(InputReader* in) {
  PacketEntities msg;
  msg.is_delta = false;
  msg.has_pvs_bits = (in->Byte() & 1) != 0;
  msg.updated_entries = in->U16();
  msg.data = in->rest();
  msg.size = in->rest_size();
  return msg;
}

TableInput ReadTableInput(InputReader* in) {
  TableInput t;
  const uint8_t mode = in->Byte();
  t.settings.user_data_fixed_size = (mode & 1) != 0;
  t.settings.user_data_size = in->Byte();
  t.settings.user_data_size_bits = in->Byte() & 63;
  t.settings.flags = (mode >> 1) & 1;
  t.settings.using_varint_bitcounts = (mode & 4) != 0;
  t.entries = static_cast<int32_t>(in->U32() % 4096);
  return t;
}

int PacketEntitiesUpdate(const uint8_t* data, size_t size) {
  const std::unique_ptr<EntityManager> entities = NewAutoFixtureEntities();
  if (entities == nullptr) return 0;
  InputReader p(data, size);
  PacketEntities msg = ReadEntityPacket(&p);
  const TickInfo tick;
  static_cast<void>(entities->Apply(msg, tick));
  msg.is_delta = true;
  static_cast<void>(entities->Apply(msg, tick));
  return 0;
}

int DemoStream(const uint8_t* data, size_t size) {
  Parser parser(nullptr);
  static_cast<void>(parser.Parse(data, size));
  return 0;
}

int StringTableEntries(const uint8_t* data, size_t size) {
  InputReader p(data, size);
  const auto [s, entries] = ReadTableInput(&p);
  StringTable table(0, "fuzz", s);
  std::vector<int32_t> changed;
  static_cast<void>(table.ApplyEntries(p.rest(), p.rest_size(), entries, &changed));
  static_cast<void>(table.ApplyEntries(p.rest(), p.rest_size(), entries, &changed));
  return 0;
}

int FieldPathsAndDecoders(const uint8_t* data, size_t size) {
  static const std::vector<FieldDecoder> decoders = AllDecoders();
  InputReader p(data, size);
  const uint8_t choice = p.Byte();
  BitReader r(p.rest(), p.rest_size());
  std::vector<FieldPath> paths;
  if (!ReadFieldPaths(&r, &paths).ok()) return 0;
  std::string scratch;
  for (size_t i = 0; i < paths.size() && !r.overflowed(); ++i) {
    const FieldDecoder& d = decoders[(choice + i) % decoders.size()];
    Value v;
    d.Decode(&r, &v, &scratch);
    std::string json;
    v.AppendJson(&json);
  }
  return 0;
}

// The block's rows decoded once (KeyframeRows, with `creation` as each
// entity's creation state) read back what the row readers read: a plain
// row's state, and each logged field's latest change at a few ticks.
static void CheckDecodedRows(std::string_view blob, std::string_view creation) {
  static KeyframeDecompressor decompressor;
  KeyframeRows kept;
  if (!kept.Open(blob, 7, &decompressor)) return;
  KeyframeBlock block;  // the same rows, for the row readers
  if (!block.Open(blob, 7, &decompressor)) __builtin_trap();
  for (int64_t e = 7; e <= kept.last_entity() && e < 7 + 64; ++e) {
    size_t i;
    uint64_t values = 0;
    if (!kept.IndexOf(e, &i) || !kept.Decode(i, 1800, creation, &values)) continue;
    const KeyframeRows::Row& row = kept.row(i);
    std::string_view bytes;
    if (!block.Find(e, &bytes)) __builtin_trap();
    KeyframeReader r;
    if (!r.Open(bytes, 1800)) __builtin_trap();  // Decode opened it
    uint32_t s = row.state.begin;
    if (!kept.NeedsCreationState(i)) {
      StateReader state;
      uint32_t id;
      Value v;
      if (!r.state().empty() && !state.Open(r.state())) __builtin_trap();
      while (!r.state().empty() && state.Next(&id, &v)) {
        if (v.is_none()) continue;
        Value got;
        if (s != row.state.end) kept.Get(kept.state(s), &got);
        if (s == row.state.end || kept.state(s).field != id || !got.SameAs(v)) __builtin_trap();
        ++s;
      }
      if (s != row.state.end) __builtin_trap();
    }
    for (uint32_t s2 = row.state.begin; s2 < row.state.end; ++s2) {
      Value got;
      kept.Get(kept.state(s2), &got);
    }
    uint32_t field;
    bool runs;
    uint64_t count;
    for (uint32_t l = row.later.begin; l < row.later.end; ++l) {
      const KeyframeRows::Later& later = kept.later(l);
      if (!r.NextLater(&field, &runs, &count) || field != later.field || runs != later.runs() ||
          count != later.count()) {
        __builtin_trap();
      }
      if (runs) {
        // The runs as the row lists them, and the one holding a few ticks.
        std::vector<RunRef> refs;
        RunRef ref;
        while (r.NextRun(&ref)) refs.push_back(ref);
        if (refs.size() != count) __builtin_trap();
        for (uint32_t i = 0; i < count; ++i) {
          const KeyframeRows::Run& run = kept.run(later.begin + i);
          if (run.page != refs[i].page || run.offset != refs[i].offset ||
              run.length != refs[i].length || 1800 + int64_t{run.tick} != refs[i].first_tick) {
            __builtin_trap();
          }
        }
        for (uint64_t offset : {uint64_t{0}, uint64_t{1}, uint64_t{100}, uint64_t{UINT32_MAX}}) {
          int64_t want = -1;
          for (uint32_t i = 0; i < count; ++i) {
            if (static_cast<uint64_t>(refs[i].first_tick - 1800) <= offset) want = later.begin + i;
          }
          if (kept.LatestRun(later, offset) != want) __builtin_trap();
        }
        continue;
      }
      std::vector<std::pair<int64_t, Value>> changes;
      int64_t tick;
      Value v;
      while (r.NextLogged(&tick, &v)) changes.emplace_back(tick, v);
      for (uint64_t offset : {uint64_t{0}, uint64_t{1}, uint64_t{100}, uint64_t{UINT32_MAX}}) {
        Value got;
        const bool any = kept.LatestLogged(later, offset, &got);
        const std::pair<int64_t, Value>* want = nullptr;
        for (const auto& c : changes) {
          if (static_cast<uint64_t>(c.first - 1800) <= offset) want = &c;
        }
        if (any != (want != nullptr) || (any && !got.SameAs(want->second))) __builtin_trap();
      }
    }
  }
}

int ChunkAndStateCodecs(const uint8_t* data, size_t size) {
  const std::string_view blob(reinterpret_cast<const char*>(data), size);
  ChunkReader chunk;
  if (chunk.Open(blob, 1000)) {
    // Every change, and the last at or before a few ticks: LastAtOrBefore
    // must answer as Next does wherever Next reads without damage.
    std::vector<int64_t> ticks;
    std::vector<Value> values;
    int64_t tick;
    Value v;
    while (chunk.Next(&tick, &v)) {
      ticks.push_back(tick);
      values.push_back(v);
    }
    const bool whole = chunk.ok();
    for (int64_t at : {int64_t{999}, int64_t{1000}, int64_t{1005}, int64_t{1100}, INT64_MAX}) {
      ChunkReader last;
      if (!last.Open(blob, 1000)) __builtin_trap();
      int64_t got_tick = 0;
      Value got;
      const size_t n = last.LastAtOrBefore(at, &got_tick, &got);
      size_t want = 0;
      while (want < ticks.size() && ticks[want] <= at) ++want;
      // Next stops at damage; LastAtOrBefore reads no further than it must.
      if (!whole && want == ticks.size()) continue;
      if (!last.ok() || n != want) __builtin_trap();
      if (n > 0 && (got_tick != ticks[n - 1] || !got.SameAs(values[n - 1]))) __builtin_trap();
    }
  }
  StateReader state;
  if (state.Open(blob)) {
    uint32_t id;
    Value v;
    while (state.Next(&id, &v)) {
    }
  }
  std::string merged;
  const size_t half = size / 2;
  static_cast<void>(MergeStates(blob.substr(0, half), blob.substr(half), &merged));
  // A keyframe block, and each of its rows read through (a row on its own
  // too: the blob as one row).
  static KeyframeDecompressor decompressor;
  KeyframeBlock block;
  std::vector<std::string_view> rows = {blob};
  if (block.Open(blob, 7, &decompressor)) {
    std::string_view row;
    for (int64_t e = block.first_entity(); e <= block.last_entity() && e < 7 + 64; ++e) {
      if (block.Find(e, &row)) rows.push_back(row);
    }
  }
  CheckDecodedRows(blob, blob.substr(0, half));
  for (std::string_view row : rows) {
    KeyframeReader r;
    if (!r.Open(row, 1800)) continue;
    StateReader s;
    if (s.Open(r.state())) {
      uint32_t id;
      Value v;
      while (s.Next(&id, &v)) {
      }
    }
    uint32_t field;
    bool runs;
    uint64_t count;
    int64_t tick;
    Value v;
    RunRef ref;
    while (r.NextLater(&field, &runs, &count)) {
      while (r.NextLogged(&tick, &v) || r.NextRun(&ref)) {
      }
    }
  }
  return 0;
}

}  // namespace gem::fuzz
