#include "core/deadlock/hero_names.h"

#include <iterator>
#include <vector>

#include "core/deadlock/tables.h"

namespace gem::deadlock {
namespace {

struct DisplayName {
  int64_t id;
  const char* name;
};

// See hero_names.h for the sources.
constexpr DisplayName kDisplayNames[] = {
    {1, "Infernus"},   {2, "Seven"},     {3, "Vindicta"},  {4, "Lady Geist"},
    {6, "Abrams"},     {7, "Wraith"},    {8, "McGinnis"},  {10, "Paradox"},
    {11, "Dynamo"},    {12, "Kelvin"},   {13, "Haze"},     {14, "Holliday"},
    {15, "Bebop"},     {16, "Calico"},   {17, "Grey Talon"}, {18, "Mo & Krill"},
    {19, "Shiv"},      {20, "Ivy"},      {25, "Warden"},   {27, "Yamato"},
    {31, "Lash"},      {35, "Viscous"},  {50, "Pocket"},   {52, "Mirage"},
    {58, "Vyper"},     {60, "Sinclair"},
};

}  // namespace

std::string_view HeroDisplayName(int64_t hero_id) {
  for (const DisplayName& d : kDisplayNames) {
    if (d.id == hero_id) return d.name;
  }
  return {};
}

void HeroNames::Saw(int64_t hero_id, std::string_view internal_name) {
  std::string& name = seen_[hero_id];
  if (name.empty()) name.assign(internal_name);
}

uint64_t HeroNames::Write(match::MatchContext& ctx) const {
  uint64_t unknown = 0;
  std::vector<MatchValue> row(kHeroColumns);
  for (const auto& [id, internal] : seen_) {
    const std::string_view display = HeroDisplayName(id);
    if (display.empty() && internal.empty()) ++unknown;
    row[kHeroId] = MatchValue::Int(id);
    row[kHeroName] = display.empty() ? MatchValue() : MatchValue::Text(display);
    row[kHeroInternalName] = internal.empty() ? MatchValue() : MatchValue::Text(internal);
    const char* source = !internal.empty() && !display.empty() ? "replay+table"
                         : !internal.empty()                   ? "replay"
                         : !display.empty()                    ? "table"
                                                               : nullptr;
    row[kHeroSource] = source ? MatchValue::Text(source) : MatchValue();
    ctx.Row(kHeroes, row);
  }
  return unknown;
}

}  // namespace gem::deadlock
