// Bad input: a clear Status (what and where), never a crash, a hang or an
// unbounded allocation. The process's address space is capped so that an
// allocation sized from damaged input fails the test.
#include <sys/resource.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/util/bit_writer.h"
#include "core/input/demo_stream.h"
#include "core/parser/parser.h"
#include "gtest/gtest.h"
#include "tests/support/replay_fixture.h"
#include "tests/support/test_env.h"

namespace gem::testing {
namespace {

class CapMemory : public ::testing::Environment {
 public:
  void SetUp() override {
#if !defined(__SANITIZE_ADDRESS__)
    // (AddressSanitizer reserves terabytes of address space for its shadow
    // memory, and reports an absurd allocation itself.)
    struct rlimit lim = {size_t{2} << 30, size_t{2} << 30};  // 2 GiB
    setrlimit(RLIMIT_AS, &lim);
#endif
  }
};
const auto* const kCap = ::testing::AddGlobalTestEnvironment(new CapMemory);

Status ParseBytes(const std::string& bytes, ReplayMetadata* meta = nullptr,
                  Sink* sink = nullptr) {
  Parser p(sink);
  Status s = p.Parse(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (meta) *meta = p.metadata();
  return s;
}

std::string Header() { return std::string("PBDEMS2\0", 8) + std::string(8, '\0'); }

void Varint(uint64_t v, std::string* out) {
  do {
    uint8_t b = v & 0x7F;
    v >>= 7;
    if (v) b |= 0x80;
    out->push_back(static_cast<char>(b));
  } while (v);
}

TEST(BadInput, EmptyJunkAndMagicOnly) {
  Status empty = ParseBytes("");
  EXPECT_EQ(empty.code(), Status::Code::kNotAReplay);
  EXPECT_NE(empty.ToString().find("empty"), std::string::npos);

  Status junk = ParseBytes("this is not a replay at all, just some text\n");
  EXPECT_EQ(junk.code(), Status::Code::kNotAReplay);
  EXPECT_NE(junk.ToString().find("PBDEMS2"), std::string::npos);
  EXPECT_NE(junk.ToString().find("at byte 0"), std::string::npos);

  Status magic = ParseBytes(std::string("PBDEMS2\0", 8));
  EXPECT_FALSE(magic.ok());
  Status header_only = ParseBytes(Header());
  EXPECT_FALSE(header_only.ok()) << "a replay without any frame has no signon";
}

TEST(BadInput, Source1DemoIsRefusedAsSuch) {
  std::string demo = std::string("HL2DEMO\0", 8) + std::string(1064, '\x01');
  Status s = ParseBytes(demo);
  EXPECT_EQ(s.code(), Status::Code::kUnsupported);
  EXPECT_NE(s.message().find("Source 1"), std::string::npos) << s.ToString();
}

TEST(BadInput, HugeSizesAreRefusedBeforeAllocating) {
  {  // a frame claiming 4 GiB
    std::string f = Header();
    Varint(kDemFileHeader, &f);
    Varint(0, &f);
    Varint(0xFFFFFFF0u, &f);
    Status s = ParseBytes(f);
    EXPECT_FALSE(s.ok());
    EXPECT_TRUE(s.has_offset());
    EXPECT_EQ(s.offset(), 16u);
  }
  {  // a compressed frame whose snappy header claims a huge length
    std::string f = Header();
    Varint(kDemPacket | kDemIsCompressed, &f);
    Varint(0, &f);
    std::string payload;
    Varint(0x7FFFFFFF, &payload);  // snappy's length prefix
    payload += "xyz";
    Varint(payload.size(), &f);
    f += payload;
    Status s = ParseBytes(f);
    EXPECT_EQ(s.code(), Status::Code::kCorrupt);
    EXPECT_EQ(s.offset(), 16u);
  }
  {  // a packet whose inner message claims more bytes than it has
    BitWriter inner;
    inner.WriteUBitVar(55);
    inner.WriteVarUint32(1u << 30);
    std::string packet;
    packet.push_back(0x1A);  // CDemoPacket field 3, length-delimited
    Varint(inner.bytes().size(), &packet);
    packet += inner.str();
    std::string f = Header();
    Varint(kDemPacket, &f);
    Varint(1, &f);
    Varint(packet.size(), &f);
    f += packet;
    Status s = ParseBytes(f);
    EXPECT_EQ(s.code(), Status::Code::kCorrupt);
    EXPECT_NE(s.message().find("claims"), std::string::npos) << s.ToString();
  }
}

// Records what a parse reports, frame by frame.
class EventLog : public Sink {
 public:
  void OnEntityCreated(const TickInfo& t, const EntityRef& r,
                       std::span<const FieldChange> s) override {
    Add(t, 'c', r.index, s.size());
  }
  void OnEntityUpdated(const TickInfo& t, const EntityRef& r,
                       std::span<const FieldChange> c) override {
    Add(t, 'u', r.index, c.size());
  }
  void OnEntityDeleted(const TickInfo& t, const EntityRef& r) override { Add(t, 'd', r.index, 0); }
  void OnStringTableEntry(const TickInfo& t, const StringTable&, int32_t i) override {
    Add(t, 's', i, 0);
  }
  // Rows of the game's tables (Dota's combat log, chat events, ...): filed
  // under the frame they came in, when it ends (rows written before the
  // first frame or after the last are not a frame's).
  void OnTableRow(uint32_t table, std::span<const MatchValue>) override {
    frame_rows_.push_back(table);
  }
  void OnFrameEnd(const TickInfo& t) override {
    for (uint32_t table : frame_rows_) Add(t, 'l', table, 0);
    frame_rows_.clear();
  }
  struct Event {
    uint64_t frame_offset;
    char kind;
    int64_t a, b;
    bool operator==(const Event& o) const {
      return frame_offset == o.frame_offset && kind == o.kind && a == o.a && b == o.b;
    }
  };
  std::vector<Event> events;

 private:
  std::vector<uint32_t> frame_rows_;
  void Add(const TickInfo& t, char kind, int64_t a, int64_t b) {
    events.push_back({t.offset, kind, a, b});
  }
};

TEST(BadInput, CutsAfterTheSignonKeepEverythingBeforeTheCut) {
  GEM_REQUIRE_FIXTURE(path, "dota2_haste_auto-20240102-2233-start.dem");
  std::string bytes;
  ASSERT_TRUE(ReadFile(path, &bytes));
  EventLog full;
  ReplayMetadata full_meta;
  ASSERT_TRUE(ParseBytes(bytes, &full_meta, &full).ok());

  int truncated = 0, refused = 0;
  for (int k = 1; k < 60; ++k) {
    size_t cut = bytes.size() * k / 60 + 3;
    EventLog log;
    ReplayMetadata meta;
    Status s = ParseBytes(bytes.substr(0, cut), &meta, &log);
    if (!s.ok()) {
      // Cut before the signon was complete: refused, and says where.
      ++refused;
      EXPECT_TRUE(s.has_offset()) << s.ToString();
      continue;
    }
    ++truncated;
    EXPECT_TRUE(meta.truncated) << "cut at " << cut;
    EXPECT_LE(meta.bytes_read, cut);
    // What was reported is exactly the full parse's events up to the last
    // whole frame.
    ASSERT_LE(log.events.size(), full.events.size());
    for (size_t i = 0; i < log.events.size(); ++i) {
      ASSERT_TRUE(log.events[i] == full.events[i]) << "cut " << cut << " event " << i;
    }
    if (!log.events.empty() && log.events.size() < full.events.size()) {
      EXPECT_GT(full.events[log.events.size()].frame_offset, log.events.back().frame_offset);
    }
  }
  EXPECT_GE(truncated, 30);  // the signon is the first ~40% of this file
  std::printf("cuts: %d read up to the cut, %d refused before the signon ended\n", truncated,
              refused);
}

TEST(BadInput, CutsAtEveryPlaceNeverCrash) {
  GEM_REQUIRE_FIXTURE(path, "dota2_haste_nekit.dem");
  std::string bytes;
  ASSERT_TRUE(ReadFile(path, &bytes));
  // Every byte of the first 400 (header and first frames), then a spread.
  std::vector<size_t> cuts;
  for (size_t i = 0; i < 400; ++i) cuts.push_back(i);
  for (size_t i = 400; i < bytes.size(); i += bytes.size() / 150) cuts.push_back(i);
  for (size_t cut : cuts) {
    ReplayMetadata meta;
    Status s = ParseBytes(bytes.substr(0, cut), &meta);
    if (s.ok()) {
      EXPECT_TRUE(meta.truncated) << cut;
    } else {
      EXPECT_FALSE(s.message().empty());
    }
  }
}

TEST(BadInput, FlippedBytesGiveAStatusNotACrash) {
  for (const char* name : {"dota2_haste_nekit.dem", "dota2_haste_auto-20240102-2233-start.dem",
                           "cs2_demofilenet_14155_de_dust2.dem",
                           "deadlock_demofilenet_hltv_10524_new_player_basics.dem"}) {
    std::string path = FixturePath(name);
    if (path.empty()) {
      std::printf("SKIPPED: fixture %s not found\n", name);
      continue;
    }
    std::string bytes;
    ASSERT_TRUE(ReadFile(path, &bytes));
    std::mt19937 rng(12345);
    int errors = 0;
    for (int trial = 0; trial < 60; ++trial) {
      std::string damaged = bytes;
      size_t at = 16 + rng() % (damaged.size() - 16);
      damaged[at] = static_cast<char>(damaged[at] ^ (1 + rng() % 255));
      ReplayMetadata meta;
      Status s = ParseBytes(damaged, &meta);
      if (!s.ok()) {
        ++errors;
        EXPECT_TRUE(s.has_offset()) << s.ToString();
        EXPECT_LE(s.offset(), damaged.size());
      }
    }
    std::printf("%s: 60 single-byte flips, %d reported as damaged\n", name, errors);
  }
}

TEST(BadInput, LegacyHeaderIsRecognised) {
  // The 2014 beta layout: magic, one offset, then DEM_FileHeader at byte 12.
  std::string f = std::string("PBDEMS2\0", 8) + std::string(4, '\0');
  Varint(kDemFileHeader, &f);
  Varint(0, &f);
  Varint(2, &f);
  f += std::string("\x0a\x00", 2);
  f += std::string(16, '\0');
  Status s = ParseBytes(f);
  EXPECT_EQ(s.code(), Status::Code::kUnsupported);
  EXPECT_NE(s.message().find("legacy replay not supported"), std::string::npos);
}

}  // namespace
}  // namespace gem::testing
