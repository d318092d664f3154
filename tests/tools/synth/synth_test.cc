// gem-synth's replays: valid for the parser, deterministic for a seed, and
// their full packets restate exactly the state the deltas built (the
// parser applies only the first non-delta packet, so this is checked by
// decoding the last full packet into a fresh entity manager).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "core/util/bit_reader.h"
#include "core/input/demo_stream.h"
#include "core/entities/entities.h"
#include "core/input/inner_messages.h"
#include "proto/demo.pb.h"
#include "tests/support/replay_fixture.h"
#include "tests/support/test_env.h"
#include "tools/synth/match.h"
#include "tools/synth/replay_writer.h"
#include "tools/synth/world.h"

namespace gem {
namespace {

constexpr char kAuto[] = "dota2_haste_auto-20240102-2233-start.dem";

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

// Writes a synthetic replay; returns its counters and the ActiveModifiers
// entries gem-synth encoded (its own copy of the table) if asked.
void Synthesize(const std::string& fixture, double minutes, uint64_t seed,
                const std::string& out, synth::MatchCounters* counters = nullptr,
                std::vector<StringTableEntry>* modifiers = nullptr) {
  synth::World world;
  ASSERT_TRUE(world.Load(fixture).ok());
  synth::MatchOptions options;
  options.minutes = minutes;
  options.seed = seed;
  synth::ReplayWriter writer;
  ASSERT_TRUE(writer.Open(out).ok());
  synth::Match match(&world, options);
  ASSERT_TRUE(match.Run(&writer, nullptr).ok());
  ASSERT_TRUE(writer.Close().ok());
  if (counters != nullptr) *counters = match.counters();
  if (modifiers != nullptr) {
    synth::SimTable* t = world.FindTable("ActiveModifiers");
    ASSERT_NE(t, nullptr);
    *modifiers = t->entries;
  }
}

// path text -> value JSON, for every value of an entity's state.
std::map<std::string, std::string> StateOf(const Entity& e) {
  struct Lister : FieldState::Visitor {
    const Entity* e;
    std::map<std::string, std::string> out;
    void Visit(uint32_t id, const Value& v) override {
      std::string json;
      v.AppendJson(&json);
      out[e->fields->path(id).ToString()] = json;
    }
  } lister;
  lister.e = &e;
  e.state.VisitAll(e.fields->layout(), &lister);
  return lister.out;
}

TEST(SynthTest, ReplayParsesToTheEndWithEveryMessage) {
  GEM_REQUIRE_FIXTURE(fixture, kAuto);
  const std::string out = TempPath("synth_parse.dem");
  synth::MatchCounters counters;
  std::vector<StringTableEntry> encoded;
  Synthesize(fixture, 0.5, 3, out, &counters, &encoded);
  auto parsed = testing::ParseReplayFile(out, nullptr);
  ASSERT_TRUE(parsed->status.ok()) << parsed->status.ToString();
  const Parser& p = *parsed->parser;
  EXPECT_FALSE(p.metadata().truncated);
  EXPECT_EQ(p.metadata().playback_ticks, 900);
  EXPECT_EQ(p.current().tick, 900u);
  EXPECT_EQ(testing::GameCounter(p, "combatlog_total"), counters.combat_log);
  EXPECT_GT(counters.combat_log, 900u);  // ~33 a second
  EXPECT_GT(p.entities().counters().created, 850u);
  EXPECT_EQ(p.entities().counters().missing_baselines, 0u);
  EXPECT_GT(counters.modifiers_added, 100u);
  // The string-table updates decode to the entries gem-synth encoded
  // (appends with compressed names, reused entries, removals).
  const StringTable* decoded = p.string_tables().Find("ActiveModifiers");
  ASSERT_NE(decoded, nullptr);
  ASSERT_EQ(decoded->size(), encoded.size());
  for (size_t i = 0; i < encoded.size(); ++i) {
    EXPECT_EQ(decoded->entry(i).name, encoded[i].name) << "entry " << i;
    EXPECT_EQ(decoded->entry(i).data, encoded[i].data) << "entry " << i;
  }
}

TEST(SynthTest, SameSeedSameBytesOtherSeedOtherBytes) {
  GEM_REQUIRE_FIXTURE(fixture, kAuto);
  std::string a, b, c;
  Synthesize(fixture, 0.2, 11, TempPath("seed_a.dem"));
  Synthesize(fixture, 0.2, 11, TempPath("seed_b.dem"));
  Synthesize(fixture, 0.2, 12, TempPath("seed_c.dem"));
  ASSERT_TRUE(testing::ReadFile(TempPath("seed_a.dem"), &a));
  ASSERT_TRUE(testing::ReadFile(TempPath("seed_b.dem"), &b));
  ASSERT_TRUE(testing::ReadFile(TempPath("seed_c.dem"), &c));
  EXPECT_GT(a.size(), 100000u);
  EXPECT_TRUE(a == b) << "same seed, different bytes";
  EXPECT_FALSE(a == c) << "different seeds, same bytes";
}

TEST(SynthTest, FullPacketRestatesTablesAndEntities) {
  GEM_REQUIRE_FIXTURE(fixture, kAuto);
  const std::string out = TempPath("synth_full.dem");
  Synthesize(fixture, 1, 5, out);  // one full packet, at the last tick
  auto parsed = testing::ParseReplayFile(out, nullptr);
  ASSERT_TRUE(parsed->status.ok()) << parsed->status.ToString();
  Parser& p = *parsed->parser;

  // The last full packet of the file.
  DemoStream stream(parsed->file.data(), parsed->file.size());
  ASSERT_TRUE(stream.Open().ok());
  proto::CDemoFullPacket full;
  int full_packets = 0;
  for (;;) {
    Frame frame;
    bool end = false;
    ASSERT_TRUE(stream.Next(&frame, &end).ok());
    if (end) break;
    if (frame.command == kDemFullPacket) {
      ASSERT_TRUE(full.ParseFromArray(frame.data, static_cast<int>(frame.size)));
      ++full_packets;
    }
  }
  ASSERT_EQ(full_packets, 1);

  // String tables: the snapshot holds every entry of the final tables.
  ASSERT_EQ(static_cast<size_t>(full.string_table().tables_size()), p.string_tables().size());
  for (const auto& t : full.string_table().tables()) {
    const StringTable* ours = p.string_tables().Find(t.table_name());
    ASSERT_NE(ours, nullptr) << t.table_name();
    ASSERT_EQ(static_cast<size_t>(t.items_size()), ours->size()) << t.table_name();
    for (int i = 0; i < t.items_size(); ++i) {
      EXPECT_EQ(t.items(i).str(), ours->entry(i).name) << t.table_name() << " " << i;
      EXPECT_EQ(t.items(i).data(), ours->entry(i).data) << t.table_name() << " " << i;
    }
  }

  // Entities: decode the full packet's svc_PacketEntities from scratch.
  const std::string& data = full.packet().data();
  BitReader r(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  PacketEntities msg;
  std::string entity_message;
  while (r.bits_left() >= 8 && entity_message.empty()) {
    const uint32_t type = r.ReadUBitVar();
    const uint32_t size = r.ReadVarUint32();
    std::string bytes(size, '\0');
    r.ReadBytes(reinterpret_cast<uint8_t*>(bytes.data()), size);
    if (type == kSvcPacketEntities) entity_message = bytes;
  }
  ASSERT_FALSE(entity_message.empty());
  ASSERT_TRUE(ReadPacketEntities(reinterpret_cast<const uint8_t*>(entity_message.data()),
                                 entity_message.size(), &msg));
  EXPECT_FALSE(msg.is_delta);
  EntityManager fresh(&p.schema(), nullptr);
  fresh.SetMaxClasses(p.metadata().max_classes);
  const StringTable* baselines = p.string_tables().Find("instancebaseline");
  ASSERT_NE(baselines, nullptr);
  for (size_t i = 0; i < baselines->size(); ++i) {
    fresh.SetBaseline(std::atoi(baselines->entry(i).name.c_str()), baselines->entry(i).data);
  }
  ASSERT_TRUE(fresh.Apply(msg, TickInfo{}).ok());

  size_t live = 0, values = 0;
  for (int32_t i = 0; i < EntityManager::kMaxEntities; ++i) {
    const Entity* built = p.entities().Get(i);
    const Entity* restated = fresh.Get(i);
    ASSERT_EQ(built == nullptr, restated == nullptr) << "entity " << i;
    if (built == nullptr) continue;
    ++live;
    EXPECT_EQ(built->class_id, restated->class_id);
    EXPECT_EQ(built->serial, restated->serial);
    const auto a = StateOf(*built), b = StateOf(*restated);
    values += a.size();
    EXPECT_EQ(a, b) << "entity " << i << " " << built->fields->serializer()->name;
  }
  EXPECT_GT(live, 900u);
  EXPECT_GT(values, 50000u);
}


// What a parse tells of one entity index, in order.
class IndexLog : public Sink {
 public:
  explicit IndexLog(int32_t index) : index_(index) {}
  void OnEntityCreated(const TickInfo& t, const EntityRef& e,
                       std::span<const FieldChange>) override {
    Log(t, e, "created");
  }
  void OnEntityUpdated(const TickInfo& t, const EntityRef& e,
                       std::span<const FieldChange> changes) override {
    Log(t, e, "updated " + std::to_string(changes.size()));
  }
  void OnEntityLeft(const TickInfo& t, const EntityRef& e) override { Log(t, e, "left"); }
  void OnEntityDeleted(const TickInfo& t, const EntityRef& e) override { Log(t, e, "deleted"); }
  std::vector<std::string> log;
  std::vector<uint64_t> lifetimes;

 private:
  void Log(const TickInfo& t, const EntityRef& e, const std::string& what) {
    if (e.index != index_) return;
    log.push_back(std::to_string(t.tick) + " " + what);
    lifetimes.push_back(e.lifetime);
  }
  int32_t index_;
};

// A client's recording: an entity leaves the recorder's view, changes
// unseen, and is sent whole again at its index, serial and class. The
// parse keeps one lifetime, and the return is one update of what changed.
TEST(SynthTest, AnEntityThatComesBackIntoViewKeepsItsLifetime) {
  GEM_REQUIRE_FIXTURE(fixture, kAuto);
  const std::string out = TempPath("synth_pov.dem");
  synth::World world;
  ASSERT_TRUE(world.Load(fixture).ok());
  synth::ReplayWriter writer;
  ASSERT_TRUE(writer.Open(out).ok());
  ASSERT_TRUE(world.WritePrefix(&writer).ok());
  const uint32_t t0 = world.start_tick() + 2;
  synth::SimEntity* creep = world.Create(world.ClassId("CDOTA_BaseNPC_Creep_Lane"));
  ASSERT_NE(creep, nullptr);
  const int32_t index = creep->index;
  ASSERT_TRUE(world.Set(creep, "m_iHealth", Value::Int(550)));
  ASSERT_TRUE(world.FlushPacket(t0, &writer).ok());
  world.Leave(creep);
  ASSERT_TRUE(world.FlushPacket(t0 + 2, &writer).ok());
  ASSERT_TRUE(world.Set(creep, "m_iHealth", Value::Int(300)));  // unseen
  ASSERT_TRUE(world.Set(creep, "m_iMaxHealth", Value::Int(551)));
  ASSERT_TRUE(world.FlushPacket(t0 + 4, &writer).ok());
  world.Enter(creep);
  ASSERT_TRUE(world.FlushPacket(t0 + 6, &writer).ok());
  world.Enter(creep);  // again, nothing new: no change to tell
  ASSERT_TRUE(world.FlushPacket(t0 + 8, &writer).ok());
  ASSERT_TRUE(world.WriteEnd(t0 + 8, &writer).ok());
  ASSERT_TRUE(writer.Close().ok());

  IndexLog sink(index);
  auto parsed = testing::ParseReplayFile(out, &sink);
  ASSERT_TRUE(parsed->status.ok()) << parsed->status.ToString();
  EXPECT_EQ(sink.log, (std::vector<std::string>{
                          std::to_string(t0) + " created", std::to_string(t0 + 2) + " left",
                          std::to_string(t0 + 6) + " updated 2"}));
  for (uint64_t l : sink.lifetimes) EXPECT_EQ(l, sink.lifetimes.front());
  const Entity* e = parsed->parser->entities().Get(index);
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->active);
  auto value = [&](const char* name) {
    const uint32_t id = e->fields->FindByName(name);
    return id == ClassFields::kInvalid ? Value::None() : e->state.Get(e->fields->slot(id)).value;
  };
  EXPECT_TRUE(value("m_iHealth").SameAs(Value::Int(300)));
  EXPECT_TRUE(value("m_iMaxHealth").SameAs(Value::Int(551)));
  EXPECT_EQ(parsed->parser->entities().counters().recreated_kept, 2u);
  EXPECT_EQ(parsed->parser->entities().counters().left, 1u);
}

}  // namespace
}  // namespace gem
