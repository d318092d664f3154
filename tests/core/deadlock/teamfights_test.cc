// core/deadlock/teamfights.h: boon's rule on hand-placed damage, with each
// expected row worked out by hand: the 5 s and 1,500-unit edges (at the
// edge is in, one tick or unit past is out), the tie between two fights,
// the 3-hero floor, teammates and self-damage, damage with no position,
// and which fight a kill counts for.
#include <cstdint>
#include <string>
#include <vector>

#include "core/deadlock/tables.h"
#include "core/deadlock/teamfights.h"
#include "core/events/sink.h"
#include "core/match/match_context.h"
#include "gtest/gtest.h"

namespace gem::deadlock {
namespace {

constexpr double kInterval = 1.0 / 64;  // 5 s = 320 ticks

struct Row {
  int64_t fight, start_tick, end_tick;
  double x, y;
  int64_t heroes;
  std::string slots;
  int64_t events, damage, kills;
};

class Rows : public Sink {
 public:
  void OnTableRow(uint32_t table, std::span<const MatchValue> v) override {
    ASSERT_EQ(table, kTeamfights);
    ASSERT_EQ(v.size(), kTeamfightColumns);
    rows.push_back({v[kFightNumber].i, v[kFightStartTick].i, v[kFightEndTick].i, v[kFightX].r,
                    v[kFightY].r, v[kFightHeroes].i, std::string(v[kFightSlots].s),
                    v[kFightEvents].i, v[kFightDamage].i, v[kFightKills].i});
  }
  std::vector<Row> rows;
};

// Six players: slots 0-2 Amber (2), 3-5 Sapphire (3), each where `at` says.
class Fights : public ::testing::Test {
 protected:
  Fights() : players_(6) {
    for (int s = 0; s < 6; ++s) players_[s].team = s < 3 ? 2 : 3;
  }
  void Place(int slot, double x, double y) {
    players_[slot].placed = true;
    players_[slot].x = x;
    players_[slot].y = y;
  }
  void Hit(int attacker, int victim, int64_t damage = 10) {
    fights_.OnDamage(attacker, victim, MatchValue::Int(damage), MatchValue::Real(1.0));
  }
  void End(int64_t tick) { fights_.OnFrameEnd(tick, kInterval, players_); }
  std::vector<Row> Written() {
    Rows sink;
    match::MatchContext ctx(nullptr, nullptr, nullptr, &sink);
    fights_.Write(ctx);
    return sink.rows;
  }

  Teamfights fights_;
  std::vector<Teamfights::Player> players_;
};

TEST_F(Fights, JoinsAtTheEdgesOfTimeAndDistance) {
  Place(0, 1000, 0);
  Place(3, 0, 0);
  Hit(0, 3, 100);  // at the victim: (0, 0)
  End(100);
  Hit(3, 0, 50);  // at (1000, 0): 1,000 from (0, 0); centroid now (500, 0)
  End(200);
  Place(4, 500, 1500);
  Hit(1, 4, 7);  // exactly 1,500 units and 320 ticks on: joins
  End(520);
  Place(5, 500, 1000);
  Hit(2, 5);  // 321 ticks after the last: a fight of its own (2 heroes: dropped)
  End(841);
  const std::vector<Row> rows = Written();
  ASSERT_EQ(rows.size(), 1u);
  const Row& r = rows[0];
  EXPECT_EQ(r.fight, 1);
  EXPECT_EQ(r.start_tick, 100);
  EXPECT_EQ(r.end_tick, 520);
  EXPECT_DOUBLE_EQ(r.x, 1500.0 / 3);  // the mean of (0,0), (1000,0), (500,1500)
  EXPECT_DOUBLE_EQ(r.y, 500.0);
  EXPECT_EQ(r.heroes, 4);
  EXPECT_EQ(r.slots, "[0,1,3,4]");
  EXPECT_EQ(r.events, 3);
  EXPECT_EQ(r.damage, 157);
  EXPECT_EQ(r.kills, 0);
}

TEST_F(Fights, OnePastTheRadiusStartsAnother) {
  Place(3, 0, 0);
  Place(4, 0, 1500.001);
  Place(5, 0, 1500.001);
  Hit(0, 3);
  Hit(1, 3);
  Hit(2, 4);  // just past 1,500 from (0, 0)
  Hit(5, 0);  // 0 is not placed: at the attacker, (0, 1500.001)
  Hit(5, 1);
  End(10);
  const std::vector<Row> rows = Written();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].slots, "[0,1,3]");
  EXPECT_EQ(rows[1].slots, "[0,1,2,4,5]");
  EXPECT_EQ(rows[1].events, 3);
  EXPECT_DOUBLE_EQ(rows[1].y, 1500.001);
  EXPECT_EQ(fights_.unplaced(), 0u);
}

TEST_F(Fights, ATieGoesToTheFightStartedLast) {
  Place(3, -1000, 0);
  Place(4, 1000, 0);
  Hit(0, 3);
  Hit(1, 4);  // 2,000 apart: two fights
  End(10);
  Place(5, 0, 0);
  Hit(2, 5);  // 1,000 from each
  End(11);
  const std::vector<Row> rows = Written();
  ASSERT_EQ(rows.size(), 1u);  // the first keeps 2 heroes
  EXPECT_EQ(rows[0].start_tick, 10);
  EXPECT_EQ(rows[0].slots, "[1,2,4,5]");
}

TEST_F(Fights, LeavesOutTeammatesSelfDamageAndTheUnplaced) {
  Place(0, 0, 0);
  Place(1, 0, 0);
  Place(3, 0, 0);
  Hit(0, 1);  // teammates
  Hit(3, 3);  // self
  Hit(0, 3);
  End(5);
  players_[4].team = -1;  // a team not known
  Hit(4, 0);
  Hit(2, 5);  // neither placed
  End(6);
  EXPECT_EQ(fights_.unplaced(), 1u);
  EXPECT_TRUE(Written().empty());  // 2 heroes
}

TEST_F(Fights, AKillCountsForItsVictimsLastFight) {
  Place(3, 0, 0);
  Place(4, 5000, 0);
  Hit(0, 3);
  Hit(1, 3);
  Hit(2, 4);  // far: another fight
  fights_.OnKill(3);  // same frame: after its damage
  End(10);
  Hit(5, 2);  // 2's position is not placed; 5's is not either
  fights_.OnKill(2);  // no event has 2 as victim
  fights_.OnKill(4);  // its fight has 2 heroes: the kill goes with it
  End(2000);
  Place(0, 0, 0);
  Hit(0, 3);  // 3 dies again, long after: the same fight if still active, else a new one
  End(2001);
  fights_.OnKill(3);
  End(2002);
  const std::vector<Row> rows = Written();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].slots, "[0,1,3]");
  EXPECT_EQ(rows[0].kills, 1);
}

}  // namespace
}  // namespace gem::deadlock
