// Where an entity is and where it faces, read from its body component:
// world coordinates by core/fields/world_coord.h with the game's cell width.
#ifndef GEM_CORE_MATCH_BODY_H_
#define GEM_CORE_MATCH_BODY_H_

#include <cmath>
#include <optional>
#include <span>
#include <string>

#include "core/entities/entities.h"
#include "core/match/field_reader.h"
#include "core/events/match_rows.h"
#include "core/fields/world_coord.h"

namespace gem::match {

// An angle in degrees as the game uses it, in [-180, 180) (exact in
// float32: only values at or above 180 change, by 360).
inline float NormalizeDegrees(float a) {
  if (!std::isfinite(a)) return a;
  if (a >= 180.0f || a < -180.0f) a -= 360.0f * std::floor((a + 180.0f) / 360.0f);
  return a;
}

class PositionReader {
 public:
  explicit PositionReader(float cell_width) : cell_width_(cell_width) {}
  // World coordinates x, y, z of `e` (NULL where the entity has no cell or
  // offset for an axis).
  void Read(const Entity* e, MatchValue* x, MatchValue* y, MatchValue* z);
  float cell_width() const { return cell_width_; }

 private:
  MatchValue Axis(const Entity& e, FieldReader& cell, FieldReader& vec);

  float cell_width_;
  FieldReader cell_[3] = {FieldReader("CBodyComponent.m_cellX"),
                          FieldReader("CBodyComponent.m_cellY"),
                          FieldReader("CBodyComponent.m_cellZ")};
  FieldReader vec_[3] = {FieldReader("CBodyComponent.m_vecX"),
                         FieldReader("CBodyComponent.m_vecY"),
                         FieldReader("CBodyComponent.m_vecZ")};
};

// Pitch and yaw of an angle field (a QAngle: pitch, yaw, roll), normalized.
void ReadPitchYaw(FieldReader& angles, const Entity* e, MatchValue* pitch, MatchValue* yaw);

// The timeline columns every game reads off the entity a player plays (a
// hero or a pawn): entity, alive (m_lifeState 0), x, y, z, pitch and yaw
// (of the game's angle field), health and team (m_iHealth, m_iTeamNum).
class BodyColumns {
 public:
  BodyColumns(float cell_width, std::string angle_field)
      : position_(cell_width), angles_(std::move(angle_field)) {}
  // Fills those columns of `row` from `e` (NULL where it is null or lacks
  // the field).
  void Fill(const Entity* e, std::span<MatchValue> row);
  PositionReader& position() { return position_; }

 private:
  PositionReader position_;
  FieldReader angles_;
  FieldReader life_{"m_lifeState"}, health_{"m_iHealth"}, team_{"m_iTeamNum"};
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_BODY_H_
