#include "core/dota/file_info.h"

#include "core/dota/tables.h"
#include "proto/demo.pb.h"

namespace gem::dota {

TableSpec FileInfoPlayersTable() {
  TableSpec t;
  t.name = "file_info_players";
  t.comment =
      "a player the replay's file info lists (CDemoFileInfo's game_info.dota.player_info), in "
      "its order. Only complete replays carry the file info, at their end; the match layer's "
      "players table reads the entities instead";
  t.columns = {
      {"slot", "INTEGER PRIMARY KEY",
       "the player's position in the file info's list, from 0 (gem does not match it to "
       "players.slot)"},
      {"hero_name", "TEXT", "the player's hero, as the file info names it (npc_dota_hero_axe)"},
      {"player_name", "TEXT", "the player's name, as the file info gives it"},
      {"steam_id", "INTEGER",
       "the player's 64-bit Steam id (steamid; 0 when the file info gives none)"},
      {"game_team", "INTEGER", "the player's team (game_team: 2 Radiant, 3 Dire)"},
      {"is_fake_client", "INTEGER", "1 for a bot (is_fake_client), else 0"}};
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
