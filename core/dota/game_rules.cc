#include "core/dota/game_rules.h"

namespace gem::dota {

void GameRules::OnFrameEnd(match::MatchContext& ctx, ReplayMetadata* meta) {
  if (meta->game_start_tick >= 0) return;
  const Entity* rules = rules_.Get(ctx);
  if (rules == nullptr) return;
  const Value v = start_.Read(*rules);
  if (v.kind == ValueKind::kFloat && v.f != 0.0f) {
    meta->game_start_tick = ctx.frame().tick;
    meta->game_start_time = v.f;
  }
}

void GameRules::Finish(match::MatchContext& ctx, ReplayMetadata* meta) {
  const Entity* rules = rules_.Get(ctx);
  if (rules == nullptr) return;
  bool used = false;
  const std::optional<int64_t> id = match::ReadInt(match_id_, rules);
  if (meta->match_id == 0 && id && *id != 0) {
    meta->match_id = static_cast<uint64_t>(*id);
    used = true;
  }
  const std::optional<int64_t> mode = match::ReadInt(game_mode_, rules);
  if (meta->game_mode == 0 && mode && *mode != 0) {
    meta->game_mode = static_cast<int32_t>(*mode);
    used = true;
  }
  const std::optional<int64_t> winner = match::ReadInt(winner_, rules);
  if (meta->game_winner == 0 && winner && *winner != 0) {
    meta->game_winner = static_cast<int32_t>(*winner);
    used = true;
  }
  if (used && meta->match_source.empty()) meta->match_source = "gamerules";
  else if (used) meta->match_source += "+gamerules";
}

}  // namespace gem::dota
