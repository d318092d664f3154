// Deadlock's user messages (core/deadlock/match_messages.h) over the state
// the 10524 fixture ends with: its entities, classes and string tables.
#include <string>
#include <vector>

#include "core/deadlock/match_messages.h"
#include "core/deadlock/messages.h"
#include "core/deadlock/modifiers.h"
#include "core/deadlock/post_match.h"
#include "core/deadlock/teamfights.h"
#include "tests/fuzz/targets.h"

namespace gem::fuzz {
namespace {

// Takes every row and chat line, and looks at every value.
class CheckingSink : public Sink {
 public:
  void OnTableRow(uint32_t, std::span<const MatchValue> row) override {
    for (const MatchValue& v : row) {
      if (v.kind == MatchValue::Kind::kText) sum_ += v.s.size() ? v.s.back() : 0;
    }
  }
  void OnChatMessage(const TickInfo&, const ChatMessage& m) override {
    sum_ += m.text.size();
  }
  uint64_t sum_ = 0;
};

class Host : public deadlock::MessageHost {
 public:
  int32_t SlotOfEntity(match::MatchContext& ctx, int32_t index) override {
    const Entity* e = ctx.Get(index);
    if (e == nullptr) return -1;
    // Controllers and pawns are players (a pawn's slot: any, for the urn).
    const std::string_view c = ctx.ClassName(e->class_id);
    return c == "CCitadelPlayerController" ? index - 1 : c == "CCitadelPlayerPawn" ? 0 : -1;
  }
  MatchValue Clock(match::MatchContext&) override { return MatchValue::Real(1.5); }
  // The damage between players goes to the teamfights, which the module
  // keeps: fed here too, so that their sweep sees what fuzzed messages give.
  void OnPlayerDamage(match::MatchContext& ctx, int32_t attacker, int32_t victim,
                      MatchValue damage) override {
    fights.OnDamage(attacker, victim, damage, Clock(ctx));
    fights.OnFrameEnd(ctx.tick(), 1.0 / 64, players);
  }
  Host() : players(64) {
    for (size_t i = 0; i < players.size(); ++i) {
      players[i] = {true, 100.0 * static_cast<double>(i), 0.0, static_cast<int64_t>(2 + (i & 1))};
    }
  }
  deadlock::Teamfights fights;
  std::vector<deadlock::Teamfights::Player> players;  // by slot: teams 2 and 3 in turn
};

}  // namespace

int DeadlockUserMessages(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::span<const match::UserMessageSpec> specs = deadlock::MatchMessages::Specs();
  const uint32_t type = specs[data[0] % specs.size()].type;
  ++data;
  --size;
  // The readers, asked every field in every type.
  deadlock::MessageFields m;
  if (m.Parse(data, size)) {
    double xyz[3];
    for (uint32_t f = 0; f <= deadlock::MessageFields::kMaxField + 1; ++f) {
      static_cast<void>(m.Int32(f));
      static_cast<void>(m.Uint32(f));
      static_cast<void>(m.Uint64(f));
      static_cast<void>(m.Bool(f));
      static_cast<void>(m.Real(f));
      static_cast<void>(m.Bytes(f));
      static_cast<void>(m.Vector(f, xyz));
    }
  }
  std::vector<int64_t> values;
  static_cast<void>(deadlock::RepeatedVarints(data, size, 1, true, &values));
  // The tables, over a real match's state.
  const Parser* world = ParsedFixture("deadlock_demofilenet_hltv_10524_new_player_basics.dem");
  if (world == nullptr) return 0;
  CheckingSink sink;
  match::MatchContext ctx(&world->schema(), &world->entities(), &world->string_tables(), &sink);
  deadlock::MatchMessages messages;
  Host host;
  messages.OnMessage(ctx, host, type, data, size);
  // As a post-match record (user message 316), whatever the type byte.
  deadlock::PostMatch record(&messages);
  record.OnMessage(ctx, data, size);
  // The same bytes as an ActiveModifiers entry, set twice (a life, then
  // its update or end), looked up, and ended by the finish.
  StringTable table(0, "ActiveModifiers", StringTableSettings{});
  std::vector<int32_t> changed;
  deadlock::Urn urn;
  deadlock::Modifiers modifiers(&messages, &urn);
  for (int round = 0; round < 2; ++round) {
    table.ApplySnapshotEntry(size > 0 && data[0] % 4 == 0 ? 0 : 1, "0", true,
                             std::string_view(reinterpret_cast<const char*>(data), size),
                             &changed);
    for (int32_t index : changed) modifiers.OnEntry(ctx, host, table, index);
    changed.clear();
    modifiers.OnFrameEnd(ctx, host);
    urn.OnFrameEnd(ctx, false);
  }
  modifiers.Finish(ctx);
  urn.OnFrameEnd(ctx, true);
  return 0;
}

}  // namespace gem::fuzz
