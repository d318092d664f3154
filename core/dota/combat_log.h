// Dota 2 combat log: CMsgDOTACombatLogEntry records, from the three places
// replays carry them, with their name indexes resolved through the
// CombatLogNames string table as it stands when the record arrives (an
// index the table lacks resolves to "" and is counted):
// - DOTA_UM_CombatLogDataHLTV: one record per message (current replays);
// - DOTA_UM_CombatLogBulkData: a list of records;
// - the legacy `dota_combatlog` game event (older replays), whose keys are
//   mapped onto the same record fields.
#ifndef GEM_CORE_DOTA_COMBAT_LOG_H_
#define GEM_CORE_DOTA_COMBAT_LOG_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/events/events.h"
#include "core/util/status.h"
#include "proto/dota_usermessages.pb.h"

namespace gem {
class StringTable;
}

namespace gem::dota {

// One Dota combat-log entry. `entry` holds every raw field (name fields
// are indexes into the CombatLogNames table); the names are resolved as
// the table stood when the entry arrived ("" when the index has no entry).
struct CombatLogEntry {
  enum class Source : uint8_t {
    kHltv,             // DOTA_UM_CombatLogDataHLTV
    kBulk,             // DOTA_UM_CombatLogBulkData
    kLegacyGameEvent,  // the dota_combatlog game event
  };
  Source source = Source::kHltv;
  const proto::CMsgDOTACombatLogEntry* entry = nullptr;
  std::string_view type_name;  // "DOTA_COMBATLOG_DAMAGE", or "" if unknown
  std::string_view target_name;
  std::string_view target_source_name;
  std::string_view attacker_name;
  std::string_view damage_source_name;
  std::string_view inflictor_name;
  std::string_view value_name;  // purchases: the item's name
};
const char* CombatLogSourceName(CombatLogEntry::Source source);

// The combat log's user messages (EDotaUserMessages).
constexpr uint32_t kDotaUmCombatLogBulkData = 470;
constexpr uint32_t kDotaUmCombatLogDataHltv = 554;

// DOTA_COMBATLOG_TYPES used by gem.
constexpr int32_t kCombatLogDamage = 0;
constexpr int32_t kCombatLogHeal = 1;
constexpr int32_t kCombatLogDeath = 4;
constexpr int32_t kCombatLogGold = 8;
// DOTA_COMBATLOG_GAME_STATE with value 6: the game has ended.
constexpr int32_t kCombatLogGameState = 9;
constexpr int32_t kCombatLogXp = 10;
constexpr int32_t kCombatLogPurchase = 11;
constexpr int32_t kCombatLogBuyback = 12;
constexpr uint32_t kGameStatePostGame = 6;

class CombatLogDecoder {
 public:
  using Callback = std::function<void(const CombatLogEntry&)>;

  // `names` (CombatLogNames) may be null: names then resolve to "".
  // Each name index the table lacks counts in unresolved_names().
  Status DecodeHltv(const uint8_t* data, size_t size, const StringTable* names,
                    const Callback& emit);
  Status DecodeBulk(const uint8_t* data, size_t size, const StringTable* names,
                    const Callback& emit);
  // Returns false when `event` is not a dota_combatlog event.
  bool DecodeLegacy(const GameEvent& event, const StringTable* names,
                    const Callback& emit);

  // Entries decoded, and name indexes that named nothing (a set name field
  // whose index CombatLogNames lacks; a purchase's value too).
  uint64_t entries() const { return entries_; }
  uint64_t unresolved_names() const { return unresolved_; }

 private:
  std::string_view Resolve(const StringTable* names, bool has, uint64_t index);

  void Emit(CombatLogEntry::Source source, const proto::CMsgDOTACombatLogEntry& e,
            const StringTable* names, const Callback& emit);

  uint64_t entries_ = 0;
  uint64_t unresolved_ = 0;
  proto::CMsgDOTACombatLogEntry entry_;
  proto::CDOTAUserMsg_CombatLogBulkData bulk_;
  std::string type_name_;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_COMBAT_LOG_H_
