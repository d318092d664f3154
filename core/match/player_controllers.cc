#include "core/match/player_controllers.h"

#include "core/util/proto_wire.h"

namespace gem::match {
namespace {

constexpr int64_t kTeamFirstPlaying = 2;
constexpr int64_t kTeamLastPlaying = 3;
constexpr uint32_t kPlayerInfoUserId = 3;  // CMsgPlayerInfo.userid

}  // namespace

bool PlayerControllers::IsController(MatchContext& ctx, int32_t class_id) {
  if (class_id < 0) return false;
  const size_t c = static_cast<size_t>(class_id);
  if (c >= is_controller_.size()) is_controller_.resize(c + 1, -1);
  if (is_controller_[c] < 0) is_controller_[c] = ctx.ClassName(class_id) == class_ ? 1 : 0;
  return is_controller_[c] == 1;
}

void PlayerControllers::OnCreated(MatchContext& ctx, const Entity& e) {
  if (IsController(ctx, e.class_id)) indexes_.insert(e.index);
}

void PlayerControllers::OnDeleted(MatchContext& ctx, const Entity& e) {
  if (IsController(ctx, e.class_id)) indexes_.erase(e.index);
}

const std::vector<PlayerControllers::Player>& PlayerControllers::InPlay(MatchContext& ctx) {
  std::vector<Player>& out = in_play_;
  out.clear();
  for (int32_t index : indexes_) {
    const Entity* c = ctx.Get(index);
    if (c == nullptr || !IsController(ctx, c->class_id)) continue;
    const int64_t team = ReadInt(team_, c).value_or(0);
    if (team < kTeamFirstPlaying || team > kTeamLastPlaying) continue;
    out.push_back({index - 1, c, Pawn(ctx, *c)});
  }
  return out;
}

std::optional<int64_t> PlayerControllers::UserId(MatchContext& ctx, int32_t slot) {
  const StringTable* info = ctx.tables().Find("userinfo");
  const StringTableEntry* entry = info == nullptr ? nullptr : info->Find(slot);
  if (entry == nullptr || entry->data.empty()) return std::nullopt;
  WireReader r(entry->data);
  while (r.Next()) {
    if (r.field() == kPlayerInfoUserId && r.wire_type() == 0) return r.int32();
  }
  return std::nullopt;
}

int32_t PlayerControllers::SlotOfUserId(MatchContext& ctx, int64_t user_id) {
  // Game events name a player by the low byte of its user id; in current
  // replays that is the slot itself: that slot first.
  const int32_t guess = static_cast<int32_t>(user_id & 0xFF);
  if (indexes_.count(guess + 1)) {
    const std::optional<int64_t> id = UserId(ctx, guess);
    if (id && (*id & 0xFF) == guess) return guess;
  }
  for (int32_t index : indexes_) {
    const std::optional<int64_t> id = UserId(ctx, index - 1);
    if (id && (*id & 0xFF) == (user_id & 0xFF)) return index - 1;
  }
  return indexes_.count(static_cast<int32_t>(user_id) + 1) ? static_cast<int32_t>(user_id)
                                                            : -1;
}

int32_t PlayerControllers::SlotOfPawnIndex(MatchContext& ctx, int32_t pawn_index) {
  for (int32_t index : indexes_) {
    const Entity* c = ctx.Get(index);
    if (c == nullptr) continue;
    const std::optional<int64_t> h = ReadInt(pawn_, c);
    if (h && static_cast<int32_t>(*h & kHandleIndexMask) == pawn_index) return index - 1;
  }
  return -1;
}

void PlayerControllers::Record(MatchContext& ctx, const Player& p, std::string_view hero) {
  PlayerRow& row = book_[p.slot];
  row.slot = p.slot;
  row.player_id = MatchValue::Int(UserId(ctx, p.slot).value_or(p.slot));
  row.team = IntCell(ReadInt(team_, p.controller));
  const Value name = name_.Read(*p.controller);
  if (name.kind == ValueKind::kString) row.name.assign(name.s);
  const std::optional<int64_t> steam = ReadInt(steam_, p.controller);
  if (steam && *steam != 0) row.steam_id = static_cast<uint64_t>(*steam);
  row.controller = static_cast<int64_t>(p.controller->lifetime);
  if (p.pawn != nullptr) row.pawn = static_cast<int64_t>(p.pawn->lifetime);
  if (!hero.empty()) row.hero.assign(hero);
}

void PlayerControllers::AppendRows(std::vector<PlayerRow>* out) const {
  for (const auto& [slot, row] : book_) out->push_back(row);
}

}  // namespace gem::match
