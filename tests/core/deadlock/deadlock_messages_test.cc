// core/deadlock/messages.h: the hand-written wire readers against messages
// written by protobuf's own generated classes (proto/citadel_usermessages
// .proto), the drift between builds, damaged bytes; and every damaged
// version of each Damage message of the 10524 fixture through the message
// tables (the fuzz target's code, run over a fixed set of inputs).
#include <string>
#include <vector>

#include "core/deadlock/known_names.h"
#include "core/deadlock/messages.h"
#include "core/deadlock/post_match.h"
#include "gtest/gtest.h"
#include "proto/citadel_match_record.pb.h"
#include "proto/citadel_usermessages.pb.h"
#include "tests/fuzz/targets.h"

namespace gem::deadlock {
namespace {

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

TEST(DeadlockMessages, ReadsWhatProtobufWrote) {
  proto::CCitadelUserMessage_Damage m;
  m.set_damage(-5);  // int32: ten bytes on the wire
  m.set_entindex_victim(81);
  m.set_flags(0x1234567890ull);
  m.set_ability_id(0xF0000001u);
  m.set_pre_damage(36.25f);
  m.set_is_secondary_stat(true);
  m.mutable_origin()->set_x(-1.5f);
  m.mutable_origin()->set_z(7.0f);
  const std::string wire = m.SerializeAsString();
  MessageFields f;
  ASSERT_TRUE(f.Parse(Bytes(wire), wire.size()));
  EXPECT_EQ(f.Int32(1), -5);
  EXPECT_EQ(f.Int32(6), 81);
  EXPECT_EQ(f.Uint64(13), 0x1234567890ull);
  EXPECT_EQ(f.Uint32(14), 0xF0000001u);
  EXPECT_EQ(f.Real(27), 36.25);
  EXPECT_EQ(f.Bool(24), true);
  double xyz[3];
  ASSERT_TRUE(f.Vector(5, xyz));
  EXPECT_EQ(xyz[0], -1.5);
  EXPECT_EQ(xyz[1], 0.0);  // not sent: the engine's 0
  EXPECT_EQ(xyz[2], 7.0);
  // Not sent: nothing, not 0.
  EXPECT_FALSE(f.Int32(12).has_value());
  EXPECT_FALSE(f.Real(28).has_value());
  EXPECT_FALSE(f.Vector(23, xyz));
}

TEST(DeadlockMessages, OlderBuildsIntegerFieldsReadAsReals) {
  proto::CCitadelUserMessage_Damage m;
  m.set_pre_damage_deprecated(41);
  m.set_damage_absorbed_deprecated(-3);
  const std::string wire = m.SerializeAsString();
  MessageFields f;
  ASSERT_TRUE(f.Parse(Bytes(wire), wire.size()));
  EXPECT_EQ(f.Real(2), 41.0);
  EXPECT_EQ(f.Real(10), -3.0);
}

TEST(DeadlockMessages, AFieldOfAnotherWireTypeIsNull) {
  // Field 1 as a string, field 3 as a float: a build that retyped them.
  proto::CCitadelUserMsg_ChatMsg chat;
  chat.set_text("gg");
  std::string wire = chat.SerializeAsString();
  MessageFields f;
  ASSERT_TRUE(f.Parse(Bytes(wire), wire.size()));
  EXPECT_FALSE(f.Int32(2).has_value());
  EXPECT_FALSE(f.Real(2).has_value());
  EXPECT_EQ(f.Bytes(2), "gg");
  const std::string as_float("\x0d\x00\x00\x80\x3f", 5);  // field 1, fixed32 1.0f
  ASSERT_TRUE(f.Parse(Bytes(as_float), as_float.size()));
  EXPECT_FALSE(f.Int32(1).has_value());
  EXPECT_EQ(f.Real(1), 1.0);
}

TEST(DeadlockMessages, TheLastOccurrenceWins) {
  proto::CCitadelUserMsg_ChatMsg a, b;
  a.set_player_slot(3);
  b.set_player_slot(9);
  const std::string wire = a.SerializeAsString() + b.SerializeAsString();
  MessageFields f;
  ASSERT_TRUE(f.Parse(Bytes(wire), wire.size()));
  EXPECT_EQ(f.Int32(1), 9);
}

TEST(DeadlockMessages, DamagedBytesAreRefused) {
  proto::CCitadelUserMsg_ChatMsg chat;
  chat.set_player_slot(2);
  chat.set_text("a longer line of chat");
  const std::string wire = chat.SerializeAsString();
  MessageFields f;
  // Every cut inside the text's bytes runs past the end.
  for (size_t cut = 4; cut < wire.size(); ++cut) {
    EXPECT_FALSE(f.Parse(Bytes(wire), cut)) << cut;
    EXPECT_FALSE(f.Has(1)) << "nothing kept after a refusal";
  }
  const std::string group = "\x0b";  // a start-group tag
  EXPECT_FALSE(f.Parse(Bytes(group), group.size()));
}

TEST(DeadlockMessages, RepeatedVarintsPackedOrNot) {
  proto::CCitadelUserMsg_BannedHeroes bans;  // proto2: unpacked
  for (uint32_t id : {7u, 300u, 0xFFFFFFFFu}) bans.add_banned_hero_ids(id);
  std::string wire = bans.SerializeAsString();
  std::vector<int64_t> ids;
  ASSERT_TRUE(RepeatedVarints(Bytes(wire), wire.size(), 1, false, &ids));
  EXPECT_EQ(ids, (std::vector<int64_t>{7, 300, 0xFFFFFFFFll}));
  // The same ids packed (a later build's choice): tag 0x0a, length, values.
  const std::string packed = std::string("\x0a\x08\x07\xac\x02\xff\xff\xff\xff\x0f", 10);
  ids.clear();
  ASSERT_TRUE(RepeatedVarints(Bytes(packed), packed.size(), 1, false, &ids));
  EXPECT_EQ(ids, (std::vector<int64_t>{7, 300, 0xFFFFFFFFll}));
  ids.clear();
  EXPECT_FALSE(RepeatedVarints(Bytes(packed), packed.size() - 1, 1, false, &ids));
}

TEST(DeadlockMessages, StringTokensAsTheGameComputesThem) {
  // m_nSubclassID of the 10524 fixture's ability entities, beside their
  // EntityNames names: the game's own tokens.
  EXPECT_EQ(StringToken("citadel_ability_melee_parry"), 664285540u);
  EXPECT_EQ(StringToken("citadel_ability_bull_heal"), 4072270083u);
  EXPECT_EQ(StringToken("citadel_ability_bull_charge"), 2824119765u);
  // Lower-cased first.
  EXPECT_EQ(StringToken("Citadel_Ability_Melee_Parry"), 664285540u);
  // The urn's (urn.h), as boon's name tables list them.
  EXPECT_EQ(StringToken("ability_golden_idol"), 2521299219u);
  EXPECT_EQ(StringToken("modifier_citadel_idol_return"), 3388847715u);
}

// The damage matrix names each hit's coarse category (boon, deadlock-api's
// users: "Bullet", "Ability", "Melee", "Misc", "UnknownAbility") beside its
// specific source (snake_case); only the categories are skipped in totals.
TEST(DeadlockMessages, DamageCategoriesAreCapitalisedWordsWithoutUnderscores) {
  for (const char* category : {"Bullet", "Ability", "Melee", "Misc", "UnknownAbility"}) {
    EXPECT_TRUE(deadlock::IsDamageCategory(category)) << category;
  }
  for (const char* source : {"citadel_weapon_astro_set", "upgrade_magic_shock", "healing_rite",
                             "Upgrade_Thing", "bullet", "", "_"}) {
    EXPECT_FALSE(deadlock::IsDamageCategory(source)) << source;
  }
}

// The names gem knows of ids a replay does not name (known_names.h), found
// by the tokens boon's name tables publish for them, and only as their
// own kind.
TEST(DeadlockMessages, KnownNamesByTheirPublishedTokens) {
  EXPECT_EQ(KnownModifierName(1398909042u), "modifier_citadel_stunned");
  EXPECT_EQ(KnownModifierName(3388847715u), "modifier_citadel_idol_return");
  EXPECT_EQ(KnownModifierName(1443635676u), "midboss_modifier_damage_resistance");
  EXPECT_EQ(KnownItemName(3399065363u), "upgrade_sprint_booster");
  EXPECT_EQ(KnownModifierName(3399065363u), "");
  EXPECT_EQ(KnownItemName(1398909042u), "");
  EXPECT_EQ(KnownItemName(0x7EADBEEFu), "");
  uint32_t last = 0;
  for (const KnownName& k : KnownNames()) {
    EXPECT_EQ(k.token, StringToken(k.name)) << k.name;
    EXPECT_GE(k.token, last) << k.name;
    last = k.token;
  }
  EXPECT_GT(KnownNames().size(), 60u);
}

TEST(DeadlockMessages, EveryDamagedDamageMessageIsSurvived) {
  // The fixture's first Damage message (gem-dump trace --payload 300).
  const std::string hex =
      "0815180220012a0f0db2f48443150dd86f441d93d8b5c230363856405668027804800104a0011"
      "5a80101ba010f0d04f1683c15a5f87f3f1df8db9a3bcd01b1f2783fd50100000000dd0119d013"
      "42e50100000000e801f907";
  std::string wire;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    wire.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  MessageFields f;
  ASSERT_TRUE(f.Parse(Bytes(wire), wire.size()));
  ASSERT_EQ(f.Int32(1), 21);
  ASSERT_EQ(f.Int32(29), 1017);
  const uint8_t type_damage = 0;  // Specs()' first type
  std::string input;
  for (size_t cut = 0; cut <= wire.size(); ++cut) {
    input = std::string(1, static_cast<char>(type_damage)) + wire.substr(0, cut);
    EXPECT_EQ(fuzz::DeadlockUserMessages(Bytes(input), input.size()), 0);
  }
  for (size_t at = 0; at < wire.size(); ++at) {
    for (uint8_t bit = 1; bit != 0; bit = static_cast<uint8_t>(bit << 1)) {
      for (uint8_t kind = 0; kind < 19; ++kind) {
        input = std::string(1, static_cast<char>(kind)) + wire;
        input[1 + at] = static_cast<char>(input[1 + at] ^ bit);
        EXPECT_EQ(fuzz::DeadlockUserMessages(Bytes(input), input.size()), 0);
      }
    }
  }
}

TEST(DeadlockMessages, EveryDamagedPostMatchRecordIsSurvived) {
  // A small record with every kind of part: a player with stats, souls by
  // source, an item and a death; an objective; a damage matrix; a path.
  proto::CMsgMatchMetaDataContents contents;
  proto::RecordMatchInfo* info = contents.mutable_match_info();
  info->set_duration_s(2100);
  proto::RecordPlayer* p = info->add_players();
  p->set_player_slot(1);
  p->set_hero_id(19);
  proto::RecordPlayerStats* st = p->add_stats();
  st->set_time_stamp_s(300);
  st->add_gold_sources()->set_gold(40);
  p->add_items()->set_item_id(664285540u);
  p->add_death_details()->mutable_death_pos()->set_x(3.0f);
  info->add_objectives()->set_destroyed_time_s(900);
  proto::RecordDamageMatrix* matrix = info->mutable_damage_matrix();
  matrix->add_sample_time_s(600);
  matrix->mutable_source_details()->add_source_name("x");
  proto::RecordDamageSource* source = matrix->add_damage_dealers()->add_damage_sources();
  source->set_source_details_index(0);
  source->add_damage_to_players()->add_damage(7);
  proto::RecordPath* path = info->mutable_match_paths()->add_paths();
  path->add_x_pos(1);
  path->add_y_pos(2);
  proto::CCitadelUserMsg_PostMatchDetails m;
  m.set_match_details(contents.SerializeAsString());
  const std::string wire = m.SerializeAsString();
  std::string input;
  for (size_t cut = 0; cut <= wire.size(); ++cut) {
    input = std::string(1, '\0') + wire.substr(0, cut);
    EXPECT_EQ(fuzz::DeadlockUserMessages(Bytes(input), input.size()), 0);
  }
  for (size_t at = 0; at < wire.size(); ++at) {
    for (uint8_t bit = 1; bit != 0; bit = static_cast<uint8_t>(bit << 1)) {
      input = std::string(1, '\0') + wire;
      input[1 + at] = static_cast<char>(input[1 + at] ^ bit);
      EXPECT_EQ(fuzz::DeadlockUserMessages(Bytes(input), input.size()), 0);
    }
  }
}

}  // namespace
}  // namespace gem::deadlock
