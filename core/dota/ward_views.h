// Each ward's life, as OpenDota's vision log reads it (a plain SQL view
// over the wards table, ward_tracker.h):
//
// - ward_lives(entity, kind, ...): placement to removal (or the game's
//   end), the lifetime capped as odota/web caps it (VisionLog: 360 s an
//   observer, 420 s a sentry), destroyed or expired by odota/parser's rule
//   (wards.killed) and the player whose hero destroyed it.
#ifndef GEM_CORE_DOTA_WARD_VIEWS_H_
#define GEM_CORE_DOTA_WARD_VIEWS_H_

#include <string>

namespace gem::dota {

std::string WardViewsSql();

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_WARD_VIEWS_H_
