#include "core/match/body.h"

namespace gem::match {

MatchValue PositionReader::Axis(const Entity& e, FieldReader& cell, FieldReader& vec) {
  const std::optional<int64_t> c = AsInt(cell.Read(e));
  const Value v = vec.Read(e);
  if (!c || v.kind != ValueKind::kFloat) return MatchValue::Null();
  return MatchValue::Real(CellCoord(*c, cell_width_, kWorldOffset, v.f));
}

void PositionReader::Read(const Entity* e, MatchValue* x, MatchValue* y, MatchValue* z) {
  if (e == nullptr) {
    *x = *y = *z = MatchValue::Null();
    return;
  }
  *x = Axis(*e, cell_[0], vec_[0]);
  *y = Axis(*e, cell_[1], vec_[1]);
  *z = Axis(*e, cell_[2], vec_[2]);
}

void ReadPitchYaw(FieldReader& angles, const Entity* e, MatchValue* pitch, MatchValue* yaw) {
  *pitch = *yaw = MatchValue::Null();
  if (e == nullptr) return;
  const Value v = angles.Read(*e);
  if (v.kind != ValueKind::kVector || v.count < 2) return;
  *pitch = MatchValue::Real(NormalizeDegrees(v.v[0]));
  *yaw = MatchValue::Real(NormalizeDegrees(v.v[1]));
}

void BodyColumns::Fill(const Entity* e, std::span<MatchValue> row) {
  row[kTlEntity] = e ? MatchValue::Int(static_cast<int64_t>(e->lifetime)) : MatchValue();
  const std::optional<int64_t> life = ReadInt(life_, e);
  row[kTlAlive] = life ? MatchValue::Int(*life == 0) : MatchValue();
  position_.Read(e, &row[kTlX], &row[kTlY], &row[kTlZ]);
  ReadPitchYaw(angles_, e, &row[kTlPitch], &row[kTlYaw]);
  row[kTlHealth] = IntCell(ReadInt(health_, e));
  row[kTlTeam] = IntCell(ReadInt(team_, e));
}

}  // namespace gem::match
