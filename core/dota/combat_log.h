// Dota 2 combat log: CMsgDOTACombatLogEntry records, from the three places
// replays carry them, with their name indexes resolved through the
// CombatLogNames string table as it stands when the record arrives:
// - DOTA_UM_CombatLogDataHLTV: one record per message (current replays);
// - DOTA_UM_CombatLogBulkData: a list of records;
// - the legacy `dota_combatlog` game event (older replays), whose keys are
//   mapped onto the same record fields.
#ifndef GEM_CORE_DOTA_COMBAT_LOG_H_
#define GEM_CORE_DOTA_COMBAT_LOG_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/events.h"
#include "core/status.h"
#include "proto/dota_usermessages.pb.h"

namespace gem {

class StringTable;

// DOTA_COMBATLOG_GAME_STATE with value 6: the game has ended.
constexpr int32_t kCombatLogGameState = 9;
constexpr uint32_t kGameStatePostGame = 6;
constexpr int32_t kCombatLogPurchase = 11;

class CombatLogDecoder {
 public:
  using Callback = std::function<void(const CombatLogEntry&)>;

  // `names` (CombatLogNames) may be null: names then resolve to "".
  Status DecodeHltv(const uint8_t* data, size_t size, const StringTable* names,
                    const Callback& emit);
  Status DecodeBulk(const uint8_t* data, size_t size, const StringTable* names,
                    const Callback& emit);
  // Returns false when `event` is not a dota_combatlog event.
  bool DecodeLegacy(const GameEvent& event, const StringTable* names,
                    const Callback& emit);

 private:
  void Emit(CombatLogEntry::Source source, const proto::CMsgDOTACombatLogEntry& e,
            const StringTable* names, const Callback& emit);

  proto::CMsgDOTACombatLogEntry entry_;
  proto::CDOTAUserMsg_CombatLogBulkData bulk_;
  std::string type_name_;
};

}  // namespace gem

#endif  // GEM_CORE_DOTA_COMBAT_LOG_H_
