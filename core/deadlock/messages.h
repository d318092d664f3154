// Deadlock's user messages, read by hand from the wire (field numbers as
// proto/citadel_usermessages.proto gives them, Valve's).
//
// MessageFields keeps a message's top-level fields by number, the last
// occurrence winning (protobuf's rule), without allocating: the tables'
// code then asks for each field in the type it means. A field may come in
// another wire type than this build's (a build that sends Damage's
// pre_damage as a varint, a later one as a float): Real() takes both, the
// integer readers refuse a float and a length-delimited field, and every
// reader answers nullopt for a field the message did not send, so an
// absent or retyped field becomes NULL, never a made-up 0.
#ifndef GEM_CORE_DEADLOCK_MESSAGES_H_
#define GEM_CORE_DEADLOCK_MESSAGES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/util/proto_wire.h"

namespace gem::deadlock {

// CitadelUserMessageIds (Valve's), the ones gem reads.
enum UserMessage : uint32_t {
  kMsgDamage = 300,
  kMsgMapPing = 303,
  kMsgAbilitiesChanged = 309,
  kMsgChatWheel = 312,
  kMsgChatMsg = 314,
  kMsgPostMatchDetails = 316,
  kMsgHeroKilled = 319,
  kMsgReturnIdol = 320,
  kMsgGameOver = 346,
  kMsgBossKilled = 347,
  kMsgBossDamaged = 348,
  kMsgMidBossSpawned = 349,
  kMsgRejuvStatus = 350,
  kMsgKillStreak = 351,
  kMsgPlayerRespawned = 353,
  kMsgFlexSlotUnlocked = 356,
  kMsgItemPurchaseNotification = 360,
  kMsgImportantAbilityUsed = 365,
  kMsgBannedHeroes = 366,
};

// An entity handle in a message: 14 index bits; 0xFFFFFF (Valve's default)
// or any value with the index bits all set names no entity.
inline constexpr uint32_t kNoHandle = 0xFFFFFF;

class MessageFields {
 public:
  static constexpr uint32_t kMaxField = 63;

  // Reads `data`; false when the message is malformed (then nothing is
  // kept). Fields above kMaxField are passed over.
  bool Parse(const uint8_t* data, size_t size);

  bool Has(uint32_t f) const { return f <= kMaxField && (present_ >> f) & 1; }
  // A varint field as the protobuf type says: int32 (a negative one comes
  // as ten bytes), uint32, uint64, bool.
  std::optional<int32_t> Int32(uint32_t f) const;
  std::optional<uint32_t> Uint32(uint32_t f) const;
  std::optional<uint64_t> Uint64(uint32_t f) const;
  std::optional<bool> Bool(uint32_t f) const;
  // A float field (fixed32), or an integer one of an older build.
  std::optional<double> Real(uint32_t f) const;
  // A length-delimited field: a string, or an embedded message.
  std::optional<std::string_view> Bytes(uint32_t f) const;
  // An embedded CMsgVector (x = 1, y = 2, z = 3); false when absent or
  // malformed. A missing coordinate is 0, as the engine writes it.
  bool Vector(uint32_t f, double xyz[3]) const;

 private:
  uint64_t present_ = 0;
  uint8_t wire_type_[kMaxField + 1];
  uint64_t value_[kMaxField + 1];
  std::string_view bytes_[kMaxField + 1];
};

// Every value of repeated varint field `f` of a message, packed or not,
// in order, as int64 of the varint's bits read as `int32` (signed) or
// `uint32`. False when the message is malformed.
bool RepeatedVarints(const uint8_t* data, size_t size, uint32_t f, bool is_signed,
                     std::vector<int64_t>* out);

// Calls `fn` with each occurrence of length-delimited field `f` of a
// message, in order; stops early when `fn` returns false. False when the
// message is malformed.
template <typename Fn>
bool ForEachBytes(const uint8_t* data, size_t size, uint32_t f, Fn&& fn);

// Valve's CUtlStringToken of a name (ability and item ids, m_nAbilityID):
// MurmurHash2 of the lower-cased bytes, seeded 0x31415926.
uint32_t StringToken(std::string_view name);

template <typename Fn>
bool ForEachBytes(const uint8_t* data, size_t size, uint32_t f, Fn&& fn) {
  WireReader r(data, size);
  while (r.Next()) {
    if (r.field() == f && r.wire_type() == 2 && !fn(r.bytes())) return r.ok();
  }
  return r.ok();
}

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_MESSAGES_H_
