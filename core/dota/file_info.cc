#include "core/dota/file_info.h"

#include "core/dota/tables.h"
#include "proto/demo.pb.h"

namespace gem::dota {

TableSpec FileInfoPlayersTable() {
  TableSpec t;
  t.name = "file_info_players";
  t.comment =
      "players the replay's file info lists (complete replays only; the match layer's "
      "players table reads the entities)";
  t.columns = {{"slot", "INTEGER PRIMARY KEY"}, {"hero_name", "TEXT"},
               {"player_name", "TEXT"},         {"steam_id", "INTEGER"},
               {"game_team", "INTEGER"},        {"is_fake_client", "INTEGER"}};
  return t;
}

Status ReadGameInfo(match::MatchContext& ctx, const uint8_t* data, size_t size,
                    ReplayMetadata* meta, std::vector<FileInfoPick>* picks) {
  proto::CGameInfo info;
  if (!info.ParseFromArray(data, static_cast<int>(size))) {
    return Status::Corrupt("file info's game info does not parse");
  }
  if (!info.has_dota()) return Status::Ok();
  const auto& d = info.dota();
  meta->match_id = d.match_id();
  meta->game_mode = d.game_mode();
  meta->game_winner = d.game_winner();
  meta->league_id = d.leagueid();
  if (d.match_id() != 0 || d.game_mode() != 0 || d.game_winner() != 0) {
    meta->match_source = "file_info";
  }
  int64_t slot = 0;
  for (const auto& p : d.player_info()) {
    const MatchValue row[] = {
        MatchValue::Int(slot++),
        MatchValue::Text(p.hero_name()),
        MatchValue::Text(p.player_name()),
        MatchValue::Int(static_cast<int64_t>(p.steamid())),
        MatchValue::Int(p.game_team()),
        MatchValue::Int(p.is_fake_client() ? 1 : 0),
    };
    ctx.Row(kFileInfoPlayers, row);
  }
  picks->clear();
  for (const auto& e : d.picks_bans()) {
    picks->push_back({e.is_pick(), static_cast<int64_t>(e.team()), e.hero_id()});
  }
  return Status::Ok();
}

}  // namespace gem::dota
