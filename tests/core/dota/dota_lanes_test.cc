// OpenDota's lane rule as core/dota/lanes.h states it, on hand-made
// samples: the map's cells, the rounding of a position to its cell, the
// 45% roaming line on either side, the tie between two lanes, and the
// window's end (samples after 10:00 count for nothing; those before the
// clock count when their clock, counted back, is in the window), and the
// rows written as the window closes, not at the end.
#include <gtest/gtest.h>

#include <optional>
#include <span>
#include <vector>

#include "core/dota/lanes.h"
#include "core/dota/tables.h"
#include "core/match/match_context.h"
#include "core/events/sink.h"

namespace gem::dota {
namespace {

// World coordinates of grid cell (cx, cy)'s centre.
double World(int64_t cell) { return (static_cast<double>(cell) - 128) * 128; }

class LaneRows : public Sink {
 public:
  void OnTableRow(uint32_t table, std::span<const MatchValue> row) override {
    if (table == kLanes) rows.emplace_back(row.begin(), row.end());
  }
  std::vector<std::vector<MatchValue>> rows;
};

struct Player {
  LaneRows sink;
  match::MatchContext ctx{nullptr, nullptr, nullptr, &sink};
  Lanes lanes;
  int64_t tick = 0;
  Player() { ctx.SetTickInterval(1.0 / 30); }
  // `n` samples of slot 0 (Radiant) at cell (cx, cy), the clock at 0.
  void At(int64_t cx, int64_t cy, int n, MatchValue clock = MatchValue::Real(0)) {
    for (int i = 0; i < n; ++i) {
      lanes.OnSample(ctx, 0, tick += 30, MatchValue::Int(2), clock, MatchValue::Real(World(cx)),
                     MatchValue::Real(World(cy)));
    }
  }
  // The row: lane, is_roaming, samples, lane_samples.
  std::vector<int64_t> Row(std::optional<int64_t> start_tick = std::nullopt) {
    lanes.Finish(ctx, start_tick);
    if (sink.rows.size() != 1) return {};
    const std::vector<MatchValue>& r = sink.rows[0];
    return {r[2].is_null() ? -1 : r[2].i, r[6].is_null() ? -1 : r[6].i, r[7].i,
            r[8].is_null() ? -1 : r[8].i};
  }
};

// Cells of each lane (cx = j + 64, cy = 192 - i).
constexpr int64_t kBot[] = {170, 80};      // j 106, i 112
constexpr int64_t kTop[] = {70, 180};      // j 6, i 12
constexpr int64_t kMid[] = {128, 128};     // j 64, i 64: the diagonal
constexpr int64_t kDireJungle[] = {110, 150};     // j 46, i 42
constexpr int64_t kRadiantJungle[] = {140, 105};  // j 76, i 87

TEST(DotaLanes, TheMapsCells) {
  EXPECT_EQ(LaneOfCell(kBot[0], kBot[1]), 1);
  EXPECT_EQ(LaneOfCell(kMid[0], kMid[1]), 2);
  EXPECT_EQ(LaneOfCell(kTop[0], kTop[1]), 3);
  EXPECT_EQ(LaneOfCell(kRadiantJungle[0], kRadiantJungle[1]), 4);
  EXPECT_EQ(LaneOfCell(kDireJungle[0], kDireJungle[1]), 5);
  // The mid band is 7 cells either side of the diagonal i = 127 - j.
  // (j 40: the diagonal at i 87; i 95 is the Radiant jungle.)
  EXPECT_EQ(LaneOfCell(64 + 40, 192 - (127 - 40) - 7), 2);
  EXPECT_EQ(LaneOfCell(64 + 40, 192 - (127 - 40) - 8), 4);
  // Mid is tested first: the corners of the diagonal are mid, not top.
  EXPECT_EQ(LaneOfCell(64 + 2, 192 - 125), 2);
  // The middle band between the jungles is mid again.
  EXPECT_EQ(LaneOfCell(64 + 40, 192 - 60), 2);
  // Off the grid.
  EXPECT_EQ(LaneOfCell(63, 128), 0);
  EXPECT_EQ(LaneOfCell(128, 192 - 128), 0);
}

TEST(DotaLanes, APositionRoundsToTheNearestCellHalvesUp) {
  EXPECT_EQ(CellOf(-64.0), 128);  // cell 127.5: up
  EXPECT_EQ(CellOf(-64.01), 127);
  EXPECT_EQ(CellOf(0.0), 128);
  EXPECT_EQ(CellOf(63.99), 128);
  EXPECT_EQ(CellOf(64.0), 129);
}

TEST(DotaLanes, FortyFivePercentInTheLaneIsNotRoaming) {
  Player laner;
  laner.At(kBot[0], kBot[1], 45);
  laner.At(kMid[0], kMid[1], 28);
  laner.At(kTop[0], kTop[1], 27);
  EXPECT_EQ(laner.Row(), (std::vector<int64_t>{1, 0, 100, 45}));
  Player roamer;
  roamer.At(kBot[0], kBot[1], 44);
  roamer.At(kMid[0], kMid[1], 28);
  roamer.At(kTop[0], kTop[1], 28);
  EXPECT_EQ(roamer.Row(), (std::vector<int64_t>{1, 1, 100, 44}));
}

TEST(DotaLanes, ATieGoesToTheLaneCountedFirstInCellOrder) {
  // Top's cell (cx 70) comes before bot's (cx 170), whatever the order
  // the samples came in.
  Player run;
  run.At(kBot[0], kBot[1], 10);
  run.At(kTop[0], kTop[1], 10);
  EXPECT_EQ(run.Row()[0], 3);
}

TEST(DotaLanes, OnlyTheFirstTenMinutesCount) {
  Player run;
  run.At(kBot[0], kBot[1], 5, MatchValue::Real(600));
  run.At(kTop[0], kTop[1], 9, MatchValue::Real(600.001));
  EXPECT_EQ(run.Row(), (std::vector<int64_t>{1, 0, 5, 5}));
}

TEST(DotaLanes, TheRowsAreWrittenAtTheFirstSamplePastTheWindow) {
  Player run;
  run.At(kTop[0], kTop[1], 4, MatchValue());  // ticks 30-120, no clock yet
  run.At(kBot[0], kBot[1], 3, MatchValue::Real(599));
  EXPECT_TRUE(run.sink.rows.empty());
  // The sample that shows the clock past 10:00 has set the start tick:
  // the four before the clock read -18,000 + 30..120 ticks, in the window.
  run.ctx.SetStartTick(-18000 + 600);
  run.At(kMid[0], kMid[1], 1, MatchValue::Real(600.5));
  ASSERT_EQ(run.sink.rows.size(), 1u);
  EXPECT_EQ(run.sink.rows[0][7].i, 7);  // samples
  EXPECT_EQ(run.sink.rows[0][2].i, 3);  // top: 4 of 7
  run.At(kMid[0], kMid[1], 50, MatchValue::Real(700));
  run.lanes.Finish(run.ctx, int64_t{0});
  EXPECT_EQ(run.sink.rows.size(), 1u);  // written once
}

TEST(DotaLanes, SamplesBeforeTheClockCountWhenTheirClockIsInTheWindow) {
  Player run;
  run.At(kTop[0], kTop[1], 4, MatchValue());  // ticks 30-120, no clock yet
  run.At(kBot[0], kBot[1], 3);
  // The clock read 0 at tick 0: the four read 1-4 s.
  EXPECT_EQ(run.Row(int64_t{0}), (std::vector<int64_t>{3, 0, 7, 4}));
  Player late;
  late.At(kTop[0], kTop[1], 4, MatchValue());
  late.At(kBot[0], kBot[1], 3);
  // Read 0 at tick -18,000 (600 s before 0): the four are past 10:00.
  EXPECT_EQ(late.Row(int64_t{-18000}), (std::vector<int64_t>{1, 0, 3, 3}));
  Player never;
  never.At(kTop[0], kTop[1], 4, MatchValue());
  EXPECT_TRUE(never.Row().empty());  // no clock ever: no samples, no row
}

}  // namespace
}  // namespace gem::dota
