// DeadlockEvents' post-match record (deadlock_events.h): the
// CMsgMatchMetaDataContents a complete replay carries in its last packet,
// and the rows gem's record_* tables should hold for it.
#include <string>
#include <utility>
#include <vector>

#include "proto/citadel_match_record.pb.h"
#include "proto/citadel_usermessages.pb.h"
#include "tools/synth/deadlock_events.h"
#include "tools/synth/json_truth.h"

namespace gem::synth {

void DeadlockEvents::PostMatchRecord(uint32_t tick) {
  const double seconds_per_tick = world_->tick_interval();
  auto seconds = [&](uint32_t t) {
    return static_cast<uint32_t>((t - start_) * seconds_per_tick);
  };
  proto::CMsgMatchMetaDataContents contents;
  proto::RecordMatchInfo* info = contents.mutable_match_info();
  const uint32_t duration = seconds(tick);
  info->set_duration_s(duration);
  info->set_match_outcome(0);
  info->set_winning_team(1);
  info->set_start_time(1764633600);
  info->set_match_id(31000031);
  info->set_game_mode(1);
  info->set_match_mode(4);
  Truth(Json{{"kind", "record_match"}, {"tick", tick}, {"match_id", 31000031},
             {"duration_s", duration}, {"outcome", 0}, {"winning_team", 1}, {"game_mode", 1},
             {"match_mode", 4}, {"start_time", 1764633600}}
            .dump());
  const char* const sources[] = {"players", "lane_creeps", "neutrals"};
  for (const Player& p : players_) {
    proto::RecordPlayer* r = info->add_players();
    const int64_t kills = world_->GetInt(*p.controller, "m_iPlayerKills", 0);
    const int64_t net_worth =
        world_->GetInt(*p.controller, "m_iGoldNetWorth", 0) + (flaws_ ? 100 : 0);
    const int64_t hero_id = world_->GetInt(*p.controller, "m_nHeroID", 0);
    r->set_account_id(4005897 + static_cast<uint32_t>(p.slot));
    r->set_player_slot(static_cast<uint32_t>(p.slot));
    r->set_team(0);
    r->set_hero_id(static_cast<uint32_t>(hero_id));
    r->set_kills(static_cast<uint32_t>(kills));
    r->set_deaths(2);
    r->set_assists(3);
    r->set_net_worth(static_cast<uint32_t>(net_worth));
    r->set_last_hits(140);
    r->set_denies(12);
    r->set_ability_points(9);
    r->set_assigned_lane(4);
    r->set_level(21);
    r->set_mvp_rank(1);
    Truth(Json{{"kind", "record_players"}, {"slot", p.slot},
               {"account_id", 4005897 + p.slot}, {"team", 0}, {"hero_id", hero_id},
               {"kills", kills}, {"deaths", 2}, {"assists", 3}, {"net_worth", net_worth},
               {"last_hits", 140}, {"denies", 12}, {"ability_points", 9},
               {"assigned_lane", 4}, {"level", 21}, {"abandon_time_s", Null()},
               {"mvp_rank", 1}}
              .dump());
    for (uint32_t at = 0; at <= duration; at += 300) {
      proto::RecordPlayerStats* st = r->add_stats();
      const uint32_t worth = 500 + at * 20;
      st->set_time_stamp_s(at);
      st->set_net_worth(worth);
      st->set_gold_player(at * 5);
      st->set_gold_lane_creep(at * 8);
      st->set_kills(at / 300);
      st->set_player_damage(at * 30);
      st->set_player_damage_taken(at * 25);
      st->set_level(1 + at / 120);
      Truth(Json{{"kind", "record_stats"}, {"slot", p.slot}, {"time_s", at},
                 {"net_worth", worth}, {"souls_player", at * 5}, {"souls_lane_creep", at * 8},
                 {"kills", at / 300}, {"player_damage", at * 30},
                 {"player_damage_taken", at * 25}, {"level", 1 + at / 120},
                 {"souls_boss", Null()}, {"max_health", Null()}}
                .dump());
      // Every fourth player's stats as a build before gold_sources kept
      // them: PlayerStats' own fields alone.
      for (int k = 0; k < 3 && p.slot % 4 != 3; ++k) {
        proto::RecordSoulSource* g = st->add_gold_sources();
        g->set_source(k + 1);
        g->set_kills(at / 60 + static_cast<uint32_t>(k));
        g->set_gold(at * static_cast<uint32_t>(k + 2));
        g->set_gold_orbs(at / 10);
        Truth(Json{{"kind", "record_souls"}, {"slot", p.slot}, {"time_s", at},
                   {"source", sources[k]}, {"kills", at / 60 + k}, {"damage", Null()},
                   {"souls", at * (k + 2)}, {"souls_orbs", at / 10}}
                  .dump());
      }
    }
    for (const Bought& b : bought_) {
      if (b.slot != p.slot) continue;
      proto::RecordItem* item = r->add_items();
      item->set_game_time_s(seconds(b.tick));
      item->set_item_id(b.id);
      item->set_flags(1);
      Truth(Json{{"kind", "record_items"}, {"slot", p.slot}, {"time_s", seconds(b.tick)},
                 {"item_id", b.id}, {"item", b.name}, {"upgrade_id", Null()},
                 {"sold_time_s", Null()}, {"flags", 1}, {"imbued_ability_id", Null()}}
                .dump());
    }
    for (uint32_t d = 1; d <= 2; ++d) {
      proto::RecordDeath* death = r->add_death_details();
      const float x = static_cast<float>(d * 1000.5), y = static_cast<float>(-d * 250.25);
      death->set_game_time_s(d * 600);
      death->set_time_to_kill_s(1.5f * static_cast<float>(d));
      death->set_killer_player_slot(static_cast<uint32_t>(p.slot + 1));
      death->mutable_death_pos()->set_x(x);
      death->mutable_death_pos()->set_y(y);
      death->mutable_death_pos()->set_z(64.0f);
      death->set_death_duration_s(20 + d);
      Truth(Json{{"kind", "record_deaths"}, {"slot", p.slot}, {"time_s", d * 600},
                 {"killer_slot", p.slot + 1}, {"time_to_kill_s", F32(1.5f * d)},
                 {"death_duration_s", 20 + d}, {"x", F32(x)}, {"y", F32(y)}, {"z", 64.0},
                 {"killer_x", Null()}, {"killer_y", Null()}, {"killer_z", Null()}}
                .dump());
    }
  }
  std::vector<std::pair<uint32_t, uint32_t>> objectives = killed_objectives_;
  std::vector<int32_t> teams = killed_teams_;
  if (flaws_) {  // one the replay did not see fall
    objectives.push_back({tick - 900, tick - 300});
    teams.push_back(2);
  }
  for (size_t k = 0; k < objectives.size(); ++k) {
    proto::RecordObjective* o = info->add_objectives();
    const int32_t team = teams[k] == 3 ? 1 : 0;
    o->set_team(team);
    o->set_team_objective_id(static_cast<int32_t>(k));
    o->set_first_damage_time_s(seconds(objectives[k].first));
    o->set_destroyed_time_s(seconds(objectives[k].second));
    o->set_player_damage(5000 + static_cast<uint32_t>(k));
    Truth(Json{{"kind", "record_objectives"}, {"team", team}, {"team_objective_id", k},
               {"legacy_objective_id", Null()},
               {"first_damage_time_s", seconds(objectives[k].first)},
               {"destroyed_time_s", seconds(objectives[k].second)}, {"creep_damage", Null()},
               {"player_damage", 5000 + k}}
              .dump());
  }
  proto::RecordMidBoss* boss = info->add_mid_boss();
  boss->set_team_killed(0);
  boss->set_team_claimed(0);
  const uint32_t boss_time = mid_boss_killed_tick_ ? seconds(mid_boss_killed_tick_) : 720;
  boss->set_destroyed_time_s(boss_time);
  Truth(Json{{"kind", "record_mid_boss"}, {"team_killed", 0}, {"team_claimed", 0},
             {"destroyed_time_s", boss_time}}
            .dump());
  proto::RecordPause* pause = info->add_match_pauses();
  pause->set_game_time_s(900);
  pause->set_pause_duration_s(30);
  pause->set_player_slot(0);
  Truth(Json{{"kind", "record_pauses"}, {"time_s", 900}, {"duration_s", 30}, {"slot", 0}}
            .dump());
  // The damage matrix, as Valve writes it: each cell a running total over
  // the sample times, a cell shorter than they are covering the last ones
  // (a pair that first met late), and each hit counted twice: under its
  // specific source and under its coarse category (Bullet).
  proto::RecordDamageMatrix* matrix = info->mutable_damage_matrix();
  std::vector<uint32_t> times;
  for (uint32_t at = 600; at <= duration; at += 600) {
    matrix->add_sample_time_s(at);
    times.push_back(at);
  }
  struct Source {
    const char* name;
    int stat_type;
    int category;
    uint32_t per_sample;  // the running total grows by this each sample
  };
  const Source source_list[] = {{"citadel_weapon_shiv_set", 0, 0, 900},
                                {"healing_rite", 1, 0, 150},
                                {"Bullet", 0, 1, 900}};
  for (const Source& src : source_list) {
    matrix->mutable_source_details()->add_stat_type(src.stat_type);
    matrix->mutable_source_details()->add_source_name(src.name);
  }
  auto cell = [&](proto::RecordDamageSource* source, int dealer, int target, uint32_t index,
                  size_t first) {
    const Source& src = source_list[index];
    proto::RecordDamageToPlayer* to = source->add_damage_to_players();
    to->set_target_player_slot(static_cast<uint32_t>(target));
    for (size_t k = first; k < times.size(); ++k) {
      const uint32_t value = static_cast<uint32_t>(k - first + 1) * src.per_sample;
      to->add_damage(value);
      Truth(Json{{"kind", "record_damage"}, {"dealer_slot", dealer}, {"target_slot", target},
                 {"source_index", index}, {"source_name", src.name},
                 {"stat_type", src.stat_type}, {"category", src.category}, {"sample", k},
                 {"time_s", times[k]}, {"value", value}, {"gained", src.per_sample}}
                .dump());
    }
  };
  for (const Player& p : players_) {
    proto::RecordDamageDealer* dealer = matrix->add_damage_dealers();
    dealer->set_dealer_player_slot(static_cast<uint32_t>(p.slot));
    for (uint32_t index = 0; index < 3; ++index) {
      proto::RecordDamageSource* source = dealer->add_damage_sources();
      source->set_source_details_index(index);
      cell(source, p.slot, p.slot + 1, index, 0);
      // The weapon (and its category) met a second target only in the
      // last two samples.
      if (index != 1 && times.size() > 2) cell(source, p.slot, p.slot + 2, index, times.size() - 2);
    }
  }
  // A path: ten samples 5 s apart on a 16384-step grid over the map.
  proto::RecordPaths* paths = info->mutable_match_paths();
  paths->set_version(1);
  paths->set_interval_s(5.0f);
  paths->set_x_resolution(16384);
  paths->set_y_resolution(16384);
  for (const Player& p : players_) {
    proto::RecordPath* path = paths->add_paths();
    path->set_player_slot(static_cast<uint32_t>(p.slot));
    path->set_x_min(-10000.0f);
    path->set_y_min(-8000.0f);
    path->set_x_max(10000.0f);
    path->set_y_max(8000.0f);
    for (uint32_t k = 0; k < 10; ++k) {
      const uint32_t xp = 1000 * k, yp = 16384 - 1000 * k, health = 700 - 10 * k;
      path->add_x_pos(xp);
      path->add_y_pos(yp);
      path->add_health(health);
      path->add_combat_type(static_cast<int32_t>(k % 4));
      path->add_move_type(static_cast<int32_t>(k % 9));
      Truth(Json{{"kind", "record_paths"}, {"slot", p.slot}, {"sample", k},
                 {"time_s", 5.0 * k}, {"x", -10000.0 + xp / 16384.0 * 20000.0},
                 {"y", -8000.0 + yp / 16384.0 * 16000.0}, {"health", health},
                 {"combat_type", k % 4}, {"move_type", k % 9}}
                .dump());
    }
  }
  proto::CCitadelUserMsg_PostMatchDetails m;
  m.set_match_details(contents.SerializeAsString());
  Emit(proto::k_EUserMsg_PostMatchDetails, m.SerializeAsString(), "");
}

void DeadlockEvents::Pause(uint32_t tick) {
  const uint32_t since = tick - start_;
  const uint32_t length = every_;  // 30 s
  if (rules_ == nullptr || (since != 20 * minute_ && since != 20 * minute_ + length)) return;
  const bool start = since == 20 * minute_;
  // Server ticks are index ticks in gem-synth's replays.
  if (start) {
    world_->Set(rules_, "m_pGameRules.m_nPauseStartTick", Value::Int(tick));
    world_->Set(rules_, "m_pGameRules.m_iPauseTeam", Value::Int(3));
  } else {
    const int64_t total = world_->GetInt(*rules_, "m_pGameRules.m_nTotalPausedTicks", 0);
    world_->Set(rules_, "m_pGameRules.m_nTotalPausedTicks", Value::Int(total + length));
    world_->Set(rules_, "m_pGameRules.m_iPauseTeam", Value::Int(-1));
  }
  world_->Set(rules_, "m_pGameRules.m_bGamePaused", Value::Bool(start));
  if (!start) {
    Truth(Json{{"kind", "pauses"}, {"tick", tick - length}, {"end_tick", tick},
               {"duration_s", length * world_->tick_interval()}, {"team", 3}}
              .dump());
  }
}

}  // namespace gem::synth
