// GameEventRegistry's text form and the choice of a known list.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/cs2/event_lists.h"
#include "core/deadlock/event_lists.h"
#include "core/dota/event_lists.h"
#include "core/events/game_events.h"
#include "proto/gameevents.pb.h"

namespace gem {
namespace {

TEST(GameEventRegistry, TextHoldsEveryDescriptorInOrder) {
  GameEventRegistry r;
  ASSERT_TRUE(r.LoadText("# a comment\n\n7 player_hurt userid:9 health:5\n2 round_start\n").ok());
  const GameEventRegistry::Descriptor* d = r.Find(7);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->name, "player_hurt");
  ASSERT_EQ(d->keys.size(), 2u);
  EXPECT_EQ(d->keys[0], (std::pair<std::string, int32_t>("userid", 9)));
  EXPECT_EQ(d->keys[1], (std::pair<std::string, int32_t>("health", 5)));
  ASSERT_NE(r.Find(2), nullptr);
  EXPECT_TRUE(r.Find(2)->keys.empty());
  EXPECT_EQ(r.ToText(), "2 round_start\n7 player_hurt userid:9 health:5\n");
}

TEST(GameEventRegistry, TextOfAProtobufListReadsBackTheSame) {
  proto::CMsgSource1LegacyGameEventList list;
  auto* d = list.add_descriptors();
  d->set_eventid(40);
  d->set_name("weapon_fire");
  auto* k = d->add_keys();
  k->set_name("weapon");
  k->set_type(1);
  GameEventRegistry a, b;
  a.Load(list);
  ASSERT_TRUE(b.LoadText(a.ToText()).ok());
  EXPECT_EQ(b.ToText(), "40 weapon_fire weapon:1\n");
}

TEST(GameEventRegistry, BadLinesAreRefusedAndLeaveNothing) {
  for (const char* bad : {"x player_hurt\n", "7\n", "7 hurt userid\n", "7 hurt userid:x\n",
                          "7 hurt :5\n", "-1 hurt\n", "7 a\n7 b\n"}) {
    GameEventRegistry r;
    ASSERT_TRUE(r.LoadText("1 fine\n").ok());
    const Status s = r.LoadText(bad);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_FALSE(r.loaded()) << bad;
  }
}

TEST(GameEventRegistry, AProtobufListReplacesWhatIsHeld) {
  GameEventRegistry r;
  ASSERT_TRUE(r.LoadText("1 from_a_known_list\n").ok());
  proto::CMsgSource1LegacyGameEventList list;
  list.add_descriptors()->set_eventid(2);
  list.mutable_descriptors(0)->set_name("from_the_replay");
  r.Load(list);
  EXPECT_EQ(r.Find(1), nullptr);
  EXPECT_EQ(r.ToText(), "2 from_the_replay\n");
}

TEST(ClosestEventList, TheLatestAtOrBeforeElseTheEarliestAfter) {
  const KnownEventList known[] = {{14132, 10679, "a"}, {14011, 10072, "b"},
                                  {14160, 10772, "c"}, {14132, 10500, "d"}};
  EXPECT_EQ(ClosestEventList(known, 14155, 10772)->text, "a");
  EXPECT_EQ(ClosestEventList(known, 14132, 10679)->text, "a");
  EXPECT_EQ(ClosestEventList(known, 14132, 10600)->text, "d");
  EXPECT_EQ(ClosestEventList(known, 20000, 1)->text, "c");
  EXPECT_EQ(ClosestEventList(known, 13000, 99999)->text, "b");
  EXPECT_EQ(ClosestEventList({}, 14155, 10772), nullptr);
}

TEST(KnownEventLists, EveryBuiltInListReads) {
  for (const auto lists : {cs2::KnownEventLists(), dota::KnownEventLists(),
                           deadlock::KnownEventLists()}) {
    ASSERT_FALSE(lists.empty());
    for (const KnownEventList& k : lists) {
      GameEventRegistry r;
      EXPECT_TRUE(r.LoadText(k.text).ok()) << k.network_protocol << "-" << k.build_num;
      EXPECT_TRUE(r.loaded());
      EXPECT_GT(k.build_num, 0);
    }
  }
}

}  // namespace
}  // namespace gem
