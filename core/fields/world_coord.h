// World coordinates from Source 2's cell-and-offset positions.
//
// A position is networked per axis as a cell (CBodyComponent.m_cellX) and
// an offset inside it (m_vecX). The world coordinate is
//   cell * cell_width - world_offset + offset
// computed in float32 as the game computes it: the cell part is an exact
// integer, to which the float offset is added. cell_width is the game's
// (128 in Dota 2, 512 in CS2 and Deadlock); world_offset (16384) centres
// the map. Shared by the match layer (core/match) and gem_position.
#ifndef GEM_CORE_FIELDS_WORLD_COORD_H_
#define GEM_CORE_FIELDS_WORLD_COORD_H_

#include <cstdint>

namespace gem {

inline constexpr float kWorldOffset = 16384.0f;

inline float CellCoord(int64_t cell, double cell_width, double world_offset, float offset) {
  const float base = static_cast<float>(static_cast<double>(cell) * cell_width - world_offset);
  return base + offset;
}

}  // namespace gem

#endif  // GEM_CORE_FIELDS_WORLD_COORD_H_
