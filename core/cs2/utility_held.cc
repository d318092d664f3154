#include "core/cs2/utility_held.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace gem::cs2 {
namespace {

// By position in Held::counts.
struct Grenade {
  const char* name;  // as events name it
  int64_t price;     // CS2's buy menu
};
constexpr Grenade kGrenades[] = {{"flashbang", 200}, {"hegrenade", 300}, {"smokegrenade", 300},
                                 {"molotov", 400},   {"incgrenade", 500}, {"decoy", 50}};
enum Kind : size_t { kFlash, kHe, kSmoke, kMolotov, kIncendiary, kDecoy };
// The ammo readers' order (HeldUtility::ammo_: types 13 to 17) by kind;
// the fire grenade's type (16) is told apart after.
constexpr size_t kAmmoKind[] = {kHe, kFlash, kSmoke, kMolotov, kDecoy};
constexpr int64_t kMolotovItem = 46, kIncendiaryItem = 48;
constexpr uint32_t kMaxWeapons = 64;  // m_hMyWeapons entries looked at

}  // namespace

int64_t GrenadePrice(std::string_view name) {
  for (const Grenade& g : kGrenades) {
    if (name == g.name) return g.price;
  }
  return 0;
}

void HeldUtility::OnChanged(const Entity& e) { pawns_.Mark(e); }

void HeldUtility::OnFrameEnd(match::MatchContext& ctx) {
  pawns_.TakeMarked(ctx, [&](const Entity& pawn, Held& h) {
    // A dead pawn's hands are empty: what it held alive stands.
    if (match::ReadInt(life_, &pawn).value_or(-1) == 0) Read(ctx, pawn, &h);
  });
}

void HeldUtility::Read(match::MatchContext& ctx, const Entity& e, Held* h) {
  h->counts.fill(0);
  h->known = true;
  std::optional<int64_t> fire;
  for (size_t i = 0; i < std::size(ammo_); ++i) {
    // Clamped: a hostile replay's count must not overflow the value.
    const int64_t n = std::clamp<int64_t>(match::ReadInt(ammo_[i], &e).value_or(0), 0, 1 << 16);
    if (kAmmoKind[i] == kMolotov) {
      fire = n;
    } else {
      h->counts[kAmmoKind[i]] = n;
    }
  }
  if (fire.value_or(0) == 0) return;
  // Which fire grenade: the entity the pawn holds of either, else the team.
  std::optional<size_t> kind;
  const uint32_t length = static_cast<uint32_t>(
      std::clamp<int64_t>(match::ReadInt(weapons_length_, &e).value_or(0), 0, kMaxWeapons));
  for (uint32_t i = 0; i < length && !kind; ++i) {
    const uint32_t id = weapons_.FieldOf(e, 1, static_cast<uint16_t>(i));
    if (id == ClassFields::kInvalid) continue;
    const Entity* weapon = ctx.ByHandle(match::AsInt(e.state.Get(e.fields->slot(id)).value));
    const std::optional<int64_t> item = match::ReadInt(item_, weapon);
    if (item == kMolotovItem) kind = kMolotov;
    if (item == kIncendiaryItem) kind = kIncendiary;
  }
  if (!kind) kind = match::ReadInt(team_, &e).value_or(0) == 3 ? kIncendiary : kMolotov;
  h->counts[*kind] = *fire;
}

bool HeldUtility::Last(const Entity* e, std::string* json, int64_t* value) {
  const Held* found = pawns_.Find(e);
  if (found == nullptr || !found->known) return false;
  const Held& h = *found;
  json->assign(1, '{');
  *value = 0;
  for (size_t k = 0; k < kKinds; ++k) {
    if (h.counts[k] == 0) continue;
    if (json->size() > 1) json->push_back(',');
    json->push_back('"');
    json->append(kGrenades[k].name);
    json->append("\":");
    char digits[24];
    const std::to_chars_result r = std::to_chars(digits, digits + sizeof digits, h.counts[k]);
    json->append(digits, r.ptr);
    *value += h.counts[k] * kGrenades[k].price;
  }
  json->push_back('}');
  return true;
}

}  // namespace gem::cs2
