#include "core/cs2/weapons.h"

#include <cstdio>
#include <string>

#include "core/cs2/utility_held.h"

namespace gem::cs2 {
namespace {

constexpr const char* kSniper = "sniper";
constexpr const char* kTier1 = "tier_one_rifle";
constexpr const char* kTier2 = "tier_two_rifle";
constexpr const char* kSmg = "smg_shotgun";
constexpr const char* kUpgraded = "upgraded_pistol";
constexpr const char* kStarter = "starter_pistol";

constexpr WeaponInfo kWeapons[] = {
    {1, "deagle", "pistol", kUpgraded, 2, 230},
    {2, "elite", "pistol", kUpgraded, 2, 240},
    {3, "fiveseven", "pistol", kUpgraded, 2, 240},
    {4, "glock", "pistol", kStarter, 1, 240},
    {7, "ak47", "rifle", kTier1, 5, 215},
    {8, "aug", "rifle", kTier1, 5, 220},
    {9, "awp", "sniper", kSniper, 6, 200},
    {10, "famas", "rifle", kTier2, 4, 220},
    {11, "g3sg1", "sniper", kSniper, 6, 215},
    {13, "galilar", "rifle", kTier2, 4, 215},
    {14, "m249", "machine_gun", kSmg, 3, 195},
    {16, "m4a1", "rifle", kTier1, 5, 225},
    {17, "mac10", "smg", kSmg, 3, 240},
    {19, "p90", "smg", kSmg, 3, 230},
    {23, "mp5sd", "smg", kSmg, 3, 235},
    {24, "ump45", "smg", kSmg, 3, 230},
    {25, "xm1014", "shotgun", kSmg, 3, 220},
    {26, "bizon", "smg", kSmg, 3, 240},
    {27, "mag7", "shotgun", kSmg, 3, 225},
    {28, "negev", "machine_gun", kSmg, 3, 150},
    {29, "sawedoff", "shotgun", kSmg, 3, 210},
    {30, "tec9", "pistol", kUpgraded, 2, 240},
    {31, "taser", "other", nullptr, 0, 220},
    {32, "hkp2000", "pistol", kStarter, 1, 240},
    {33, "mp7", "smg", kSmg, 3, 220},
    {34, "mp9", "smg", kSmg, 3, 240},
    {35, "nova", "shotgun", kSmg, 3, 220},
    {36, "p250", "pistol", kUpgraded, 2, 240},
    {38, "scar20", "sniper", kSniper, 6, 215},
    {39, "sg556", "rifle", kTier1, 5, 210},
    {40, "ssg08", "sniper", kTier2, 4, 230},
    {42, "knife", "knife", nullptr, 0, 250},
    {43, "flashbang", "grenade", nullptr, 0, 245},
    {44, "hegrenade", "grenade", nullptr, 0, 245},
    {45, "smokegrenade", "grenade", nullptr, 0, 245},
    {46, "molotov", "grenade", nullptr, 0, 245},
    {47, "decoy", "grenade", nullptr, 0, 245},
    {48, "incgrenade", "grenade", nullptr, 0, 245},
    {49, "c4", "other", nullptr, 0, 250},
    {59, "knife_t", "knife", nullptr, 0, 250},
    {60, "m4a1_silencer", "rifle", kTier1, 5, 225},
    {61, "usp_silencer", "pistol", kStarter, 1, 240},
    {63, "cz75a", "pistol", kUpgraded, 2, 240},
    {64, "revolver", "pistol", kUpgraded, 2, 180},
};
// Knives past this item are skins of the knife.
constexpr int64_t kFirstKnifeSkin = 500;
constexpr int64_t kLastKnifeSkin = 599;

}  // namespace

std::span<const WeaponInfo> Weapons() { return kWeapons; }

const WeaponInfo* WeaponOfItem(int64_t item) {
  if (item >= kFirstKnifeSkin && item <= kLastKnifeSkin) item = 42;
  for (const WeaponInfo& w : kWeapons) {
    if (w.item == item) return &w;
  }
  return nullptr;
}

std::string WeaponsTableSql() {
  std::string sql =
      "CREATE TABLE weapons(  -- a CS2 weapon: its item, the name events give it, its kind, its "
      "duel group and top speed (core/cs2/weapons.h)\n"
      "  weapon TEXT PRIMARY KEY,  -- the name weapon_fire and player_death give it, no weapon_ "
      "prefix (ak47, m4a1_silencer, usp_silencer)\n"
      "  item INTEGER,  -- the game's item definition index (a weapon entity's "
      "m_iItemDefinitionIndex; knives past 500 are knife)\n"
      "  kind TEXT,  -- pistol, smg, rifle, sniper, shotgun, machine_gun, knife, grenade, other\n"
      "  duel_group TEXT,  -- gem's assignment to HLTV's 2025 rating groups (HLTV publishes no "
      "list): sniper, tier_one_rifle, tier_two_rifle, smg_shotgun, upgraded_pistol, "
      "starter_pistol; NULL for knives, grenades, the taser and the bomb\n"
      "  tier INTEGER,  -- the group's tier: sniper 6, tier_one_rifle 5, tier_two_rifle 4, "
      "smg_shotgun 3, upgraded_pistol 2, starter_pistol 1; NULL without a group\n"
      "  max_speed REAL,  -- the top speed holding it, units a second: the game's max player speed "
      "(unscoped), as WangChuDi/cs-demo-analyzer-mod lists it (weapon_accurate_speed.go; its "
      "revolver's 180 marked approximate)\n"
      "  price INTEGER  -- the buy menu's price, for grenades only (kills.utility_value's); NULL "
      "for the rest\n"
      ") WITHOUT ROWID;\nINSERT INTO weapons VALUES\n";
  bool first = true;
  for (const WeaponInfo& w : kWeapons) {
    char row[192];
    const int64_t price = GrenadePrice(w.name);
    std::snprintf(row, sizeof row, "%s('%s', %d, '%s', %s%s%s, %s, %.1f, %s)",
                  first ? "  " : ",\n  ", w.name, w.item, w.kind, w.group ? "'" : "",
                  w.group ? w.group : "NULL", w.group ? "'" : "",
                  w.tier ? std::to_string(w.tier).c_str() : "NULL", w.max_speed,
                  price ? std::to_string(price).c_str() : "NULL");
    sql += row;
    first = false;
  }
  sql += ";\n";
  return sql;
}

void HeldWeapons::OnChanged(const Entity& e) { pawns_.Mark(e); }

void HeldWeapons::OnFrameEnd(match::MatchContext& ctx) {
  pawns_.TakeMarked(ctx, [&](const Entity& pawn, Held& h) {
    const std::optional<int64_t> handle = match::ReadInt(active_, &pawn);
    const Entity* weapon = ctx.ByHandle(handle);
    if (weapon == nullptr) return;  // names none: what it held stands
    h.handle = *handle;
    h.item = match::ReadInt(item_, weapon);
  });
}

const WeaponInfo* HeldWeapons::Last(match::MatchContext& ctx, const Entity* e) {
  Held* h = pawns_.Find(e);
  if (h == nullptr || h->handle < 0) return nullptr;
  if (const Entity* weapon = ctx.ByHandle(h->handle)) {
    if (const std::optional<int64_t> now = match::ReadInt(item_, weapon)) h->item = now;
  }
  return h->item ? WeaponOfItem(*h->item) : nullptr;
}

}  // namespace gem::cs2
