// Sightings: when each CS2 player had each enemy spotted, the facts the
// aim views (aim_views.h) measure engagements from.
//
// The game marks on every pawn which players have it spotted: bit s of
// m_bSpottedByMask (word 0 bits 0-31, word 1 bits 32-63) is the player in
// slot s (controller entity index - 1, as demoinfocs reads it). It is the
// radar's flag, not line of sight: Leetify reports it lagging by up to
// 500 ms, and gem ships no map geometry to test sight lines.
//
// A sighting of target T by observer O opens at the end of a frame in
// which bit O of T's pawn's mask is set, both pawns are alive
// (m_lifeState 0), in view, and on opposing teams (2 and 3, by Team()),
// and none is open for the pair. It closes at the end of the first frame
// where any of that no longer holds: `ended` says which (unspotted,
// observer_dead, target_dead, gone: a pawn left, changed or changed team).
// The set of open sightings only changes when a pawn's mask, life state or
// team changes or a pawn comes, goes, leaves or re-enters a client
// recording's view, so frames with none of those cost only the
// field-of-view tests of the open sightings that have not had it yet.
//
// At its opening a sighting keeps the observer's eye angles (m_angEyeAngles)
// and the angle between the observer's view and the line from the
// observer's eye to the target's head; each frame it stays open until the
// target's head enters the observer's field of view, it tests that
// (fov_tick). Eyes and heads are a pawn's origin raised by its
// m_vecViewOffset.m_vecZ (64 units when the pawn has none). The field of
// view is gem's rule, as Leetify publishes none: CS2's fixed 90 degrees
// across a 4:3 screen seen on a 16:9 one, so a point is in view when, in
// the view's own axes, it is ahead and at most 4/3 of its depth to either
// side and 3/4 of it up or down (53.13 and 36.87 degrees).
#ifndef GEM_CORE_CS2_SIGHTINGS_H_
#define GEM_CORE_CS2_SIGHTINGS_H_

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/cs2/match_state.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"

namespace gem::cs2 {

// Whether `point` is in the field of view of an eye at `eye` looking along
// (pitch, yaw) degrees, by the rule above; and the angle in degrees
// between that view and the line to it (`angle`, when not null).
bool InFieldOfView(const double eye[3], double pitch, double yaw, const double point[3],
                   double* angle);

class Sightings {
 public:
  // A pawn's mask, life state or team changed, or a pawn came or went:
  // the next frame's end looks at every pawn again.
  void MarkChanged() { changed_ = true; }
  // After every frame (the state is the frame's); `players` is asked who
  // is in play only in a frame that changed something.
  void OnFrameEnd(match::MatchContext& ctx, MatchState& state,
                  match::PlayerControllers& players);
  // The end: the sightings still open are written with no end.
  void Finish(match::MatchContext& ctx);

  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  struct Open {
    int32_t observer = -1, target = -1;
    uint64_t observer_pawn = 0, target_pawn = 0;  // lifetimes
    // The pawns, valid until the next frame that changes something (a
    // pawn that goes or leaves the view is such a change).
    const Entity* observer_entity = nullptr;
    const Entity* target_entity = nullptr;
    int64_t tick = 0, fov_tick = -1;
    MatchValue game_time, round, pitch, yaw, head_angle, distance;
  };
  // Whether `slot`'s pawn `e` is alive, and its eye position.
  bool Alive(const Entity* e);
  bool Eye(MatchState& state, const Entity* e, double out[3]);
  // Sets s.fov_tick to now when the target's head is in the observer's view.
  void TestFieldOfView(match::MatchContext& ctx, MatchState& state, Open& s);
  void Close(match::MatchContext& ctx, const Open& s, const char* ended);
  void Write(match::MatchContext& ctx, const Open& s, const MatchValue& end_tick,
             const char* ended);

  static constexpr int kMaxSlots = 64;  // the mask's bits
  bool changed_ = false;
  uint64_t last_mask_[kMaxSlots] = {};  // each target's mask at the last look
  std::vector<Open> open_;
  uint64_t naming_no_player_ = 0;  // mask bits set for a slot with no player
  uint64_t written_ = 0;
  match::FieldReader mask_[2] = {match::FieldReader("m_bSpottedByMask.0000"),
                                 match::FieldReader("m_bSpottedByMask.0001")};
  match::FieldReader life_{"m_lifeState"}, eyes_{"m_angEyeAngles"};
  match::FieldReader view_offset_{"m_vecViewOffset.m_vecZ"};
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_SIGHTINGS_H_
