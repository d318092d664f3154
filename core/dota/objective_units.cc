#include "core/dota/objective_units.h"

#include <algorithm>

namespace gem::dota {

bool ObjectiveUnits::IsObjectiveClass(match::MatchContext& ctx, int32_t class_id) {
  if (class_id < 0) return false;
  const size_t c = static_cast<size_t>(class_id);
  if (c >= classes_.size()) classes_.resize(c + 1, -1);
  if (classes_[c] < 0) {
    const std::string_view n = ctx.ClassName(class_id);
    classes_[c] = n == "CDOTA_BaseNPC_Tower" || n == "CDOTA_BaseNPC_Barracks" ||
                  n == "CDOTA_BaseNPC_Fort" || n == "CDOTA_BaseNPC_Healer" ||
                  n == "CDOTA_Unit_Roshan" || n == "CDOTA_Unit_Miniboss";
  }
  return classes_[c] == 1;
}

std::vector<std::string> ObjectiveUnits::Words(std::string_view name) {
  std::vector<std::string> words;
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('_', start);
    if (end == std::string_view::npos) end = name.size();
    std::string w(name.substr(start, end - start));
    if (w == "goodguys") w = "good";
    if (w == "badguys") w = "bad";
    if (!w.empty() && w != "npc" && w != "dota") words.push_back(std::move(w));
    start = end + 1;
  }
  return words;
}

void ObjectiveUnits::OnCreated(match::MatchContext& ctx, const Entity& e) {
  if (!IsObjectiveClass(ctx, e.class_id)) return;
  Unit u{e.index, e.lifetime, Words(ctx.EntityName(e)), {}, {}, {}};
  position_->Read(&e, &u.x, &u.y, &u.z);
  // An index reused by a later unit replaces the one that left it.
  units_.erase(std::remove_if(units_.begin(), units_.end(),
                              [&](const Unit& o) { return o.index == e.index; }),
               units_.end());
  units_.push_back(std::move(u));
}

bool ObjectiveUnits::Find(match::MatchContext& ctx, std::string_view name, MatchValue* x,
                          MatchValue* y, MatchValue* z) {
  *x = *y = *z = MatchValue();
  const std::vector<std::string> want = Words(name);
  if (want.empty()) return false;
  const Unit* best = nullptr;
  bool best_dead = false;
  for (const Unit& u : units_) {
    bool all = true;
    for (const std::string& w : want) {
      if (std::find(u.words.begin(), u.words.end(), w) == u.words.end()) all = false;
    }
    if (!all) continue;
    const Entity* e = ctx.Get(u.index);
    if (e != nullptr && e->lifetime != u.lifetime) e = nullptr;
    const bool dead = e == nullptr || match::ReadInt(life_, e).value_or(0) != 0;
    if (best == nullptr || (dead && !best_dead)) {
      best = &u;
      best_dead = dead;
    }
  }
  if (best == nullptr) return false;
  const Entity* e = ctx.Get(best->index);
  if (e != nullptr && e->lifetime == best->lifetime) {
    position_->Read(e, x, y, z);
  } else {
    *x = best->x;
    *y = best->y;
    *z = best->z;
  }
  return true;
}

}  // namespace gem::dota
