// CS2's aim views: engagements, time to damage, crosshair placement,
// counter-strafing, accuracy, utility and economy-adjusted duels, over
// the sightings, shots, damages, kills, flashes and grenades tables and
// the weapons table (weapons.h). Each rule is stated in the view's column
// comments, and docs/cs2.md says where it comes from.
#ifndef GEM_CORE_CS2_AIM_VIEWS_H_
#define GEM_CORE_CS2_AIM_VIEWS_H_

#include <string>

namespace gem::cs2 {

// The SQL that creates the weapons table and the aim views (the index's
// after_sql, after the stats views).
std::string AimViewsSql();

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_AIM_VIEWS_H_
