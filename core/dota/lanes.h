// Lanes: each hero's lane and role in the laning phase, by OpenDota's rule
// (odota/core's getLaneFromPosData over odota/parser's lane_pos), written
// as the lanes table once the window has closed: at the first sample past
// 600 s (every sample in it is in by then), else at the end of the parse.
//
// The positions are the timeline's: every sample of the player's hero
// with game_time <= 600 (hero selection and the pre-game included, as
// OpenDota's are, from the time the players are known) and a position.
// Each
// is a cell of a 128 x 128 grid, cx = round(x / 128 + 128) and
// cy = round(y / 128 + 128) (OpenDota's Math.round of cellX + vecX / 128,
// halves up), and each cell a lane by OpenDota's map: with i = 192 - cy
// and j = cx - 64 (cells off the grid count for nothing),
//   |i - (127 - j)| < 8       2 mid
//   j < 27 or i < 27          3 top
//   j >= 100 or i >= 100      1 bot
//   i < 50                    5 Dire jungle
//   i >= 77                   4 Radiant jungle
//   otherwise                 2 mid
// taken in that order. The lane is the one most samples fall in; a tie
// goes to the lane that reached the count first with the samples taken
// cell by cell, cx ascending then cy ascending (OpenDota's order). The
// player roams when that lane holds under 45% of the samples. The role:
// bot is Radiant's safe lane (1) and Dire's off lane (3), top the other
// way round, mid 2, either jungle 4.
//
// Not followed: OpenDota also rounds a coordinate to one decimal before
// the cell on samples after the horn, which moves a sample whose
// coordinate lies within 0.05 of a cell's half; gem's samples are not
// OpenDota's instants anyway (the timeline samples index ticks, OpenDota
// game seconds).
#ifndef GEM_CORE_DOTA_LANES_H_
#define GEM_CORE_DOTA_LANES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "core/match/match_context.h"
#include "core/events/match_rows.h"
#include "core/events/table_spec.h"

namespace gem::dota {

TableSpec LanesTable();

// OpenDota's lane of grid cell (cx, cy), 1-5; 0 off the grid.
int LaneOfCell(int64_t cx, int64_t cy);
// The grid cell of a world coordinate.
int64_t CellOf(double world);

class Lanes {
 public:
  // A timeline sample of slot's hero (the row's tick, game_time, x, y and
  // team). The first one past the window writes the rows.
  void OnSample(match::MatchContext& ctx, int slot, int64_t tick, const MatchValue& team,
                const MatchValue& game_time, const MatchValue& x, const MatchValue& y);
  // Writes a row for every slot with a position in the window. A sample
  // taken before the clock was known counts when its clock, counted back
  // from `start_tick` as the timeline's is, is in it.
  void Finish(match::MatchContext& ctx, std::optional<int64_t> start_tick);

 private:
  using Cell = std::pair<int64_t, int64_t>;  // (cx, cy)
  struct Player {
    MatchValue team;
    std::map<Cell, int64_t> cells;  // samples in each
  };
  struct Pending {
    int slot;
    int64_t tick;
    MatchValue team;
    Cell cell;
  };
  void Count(int slot, const MatchValue& team, Cell cell);

  bool written_ = false;
  std::map<int, Player> players_;
  std::vector<Pending> pending_;  // samples without a clock yet
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_LANES_H_
