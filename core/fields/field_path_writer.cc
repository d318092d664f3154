// The writing side of field paths (field_path.h), for tools that produce
// replays: the reader's ops, chosen to take it from path to path.
#include <algorithm>
#include <cstdint>

#include "core/fields/field_path.h"

namespace gem {

void WriteFieldOp(FieldOp op, BitWriter* w) {
  FieldOpCode code = GetFieldOpCode(op);
  w->WriteBits(code.bits, code.length);
}

void WriteFieldPaths(const std::vector<FieldPath>& paths, BitWriter* w) {
  // Every op yields a path, so each step from one path to the next is
  // exactly one op: a short one when the step is a common one, else the
  // general op of its kind (same depth: NonTopoComplex; deeper:
  // PushNAndNonTopological; shallower: PopNAndNonTopographical).
  FieldPath at;
  at.index[0] = -1;
  at.last = 0;
  for (const FieldPath& to : paths) {
    const int depth_at = at.last, depth_to = to.last;
    bool prefix_equal = true;  // levels below the shallower last level agree
    for (int i = 0; i < std::min(depth_at, depth_to); ++i) {
      prefix_equal &= at.index[i] == to.index[i];
    }
    if (depth_to == depth_at) {
      const int64_t delta = static_cast<int64_t>(to.index[depth_to]) - at.index[depth_to];
      if (prefix_equal && delta >= 1 && delta <= 4) {
        static constexpr FieldOp kPlus[] = {FieldOp::kPlusOne, FieldOp::kPlusTwo,
                                            FieldOp::kPlusThree, FieldOp::kPlusFour};
        WriteFieldOp(kPlus[delta - 1], w);
      } else if (prefix_equal && delta >= 5) {
        WriteFieldOp(FieldOp::kPlusN, w);
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(delta - 5));
      } else {
        WriteFieldOp(FieldOp::kNonTopoComplex, w);
        for (int i = 0; i <= depth_at; ++i) {
          const int64_t d = static_cast<int64_t>(to.index[i]) - at.index[i];
          w->WriteBool(d != 0);
          if (d != 0) w->WriteVarInt32(static_cast<int32_t>(d));
        }
      }
    } else if (depth_to == depth_at + 1 && prefix_equal) {
      // One level deeper, the level above moved by `delta` (>= 0).
      const int64_t delta = static_cast<int64_t>(to.index[depth_at]) - at.index[depth_at];
      const int32_t pushed = to.index[depth_to];
      if (delta == 0 && pushed == 0) {
        WriteFieldOp(FieldOp::kPushOneLeftDeltaZeroRightZero, w);
      } else if (delta == 0) {
        WriteFieldOp(FieldOp::kPushOneLeftDeltaZeroRightNonZero, w);
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(pushed));
      } else if (delta == 1 && pushed == 0) {
        WriteFieldOp(FieldOp::kPushOneLeftDeltaOneRightZero, w);
      } else if (delta == 1) {
        WriteFieldOp(FieldOp::kPushOneLeftDeltaOneRightNonZero, w);
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(pushed));
      } else if (delta >= 2 && delta <= 9 && pushed >= 1 && pushed <= 8) {
        WriteFieldOp(FieldOp::kPushOneLeftDeltaNRightNonZeroPack6Bits, w);
        w->WriteBits(static_cast<uint32_t>(delta - 2), 3);
        w->WriteBits(static_cast<uint32_t>(pushed - 1), 3);
      } else if (delta >= 2 && pushed >= 1) {
        WriteFieldOp(FieldOp::kPushOneLeftDeltaNRightNonZero, w);
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(delta - 2));
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(pushed - 1));
      } else if (delta >= 2) {  // pushed == 0
        WriteFieldOp(FieldOp::kPushOneLeftDeltaNRightZero, w);
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(delta));
      } else {
        goto general_deeper;
      }
    } else if (depth_to > depth_at) {
    general_deeper:
      // Move every current level (each by delta - 1 when it moves), then
      // push the new levels.
      WriteFieldOp(FieldOp::kPushNAndNonTopological, w);
      for (int i = 0; i <= depth_at; ++i) {
        const int64_t d = static_cast<int64_t>(to.index[i]) - at.index[i];
        w->WriteBool(d != 0);
        if (d != 0) w->WriteVarInt32(static_cast<int32_t>(d - 1));
      }
      w->WriteUBitVar(static_cast<uint32_t>(depth_to - depth_at));
      for (int i = depth_at + 1; i <= depth_to; ++i) {
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(to.index[i]));
      }
    } else {
      // Shallower.
      const int64_t delta = static_cast<int64_t>(to.index[depth_to]) - at.index[depth_to];
      if (depth_to == 0 && delta == 1) {
        WriteFieldOp(FieldOp::kPopAllButOnePlusOne, w);
      } else if (depth_to == 0 && delta >= 1 && delta <= 8) {
        WriteFieldOp(FieldOp::kPopAllButOnePlusNPack3Bits, w);
        w->WriteBits(static_cast<uint32_t>(delta - 1), 3);
      } else if (depth_to == 0 && delta >= 1 && delta <= 64) {
        WriteFieldOp(FieldOp::kPopAllButOnePlusNPack6Bits, w);
        w->WriteBits(static_cast<uint32_t>(delta - 1), 6);
      } else if (depth_to == 0 && delta >= 1) {
        WriteFieldOp(FieldOp::kPopAllButOnePlusN, w);
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(delta - 1));
      } else if (depth_at - depth_to == 1 && prefix_equal && delta == 1) {
        WriteFieldOp(FieldOp::kPopOnePlusOne, w);
      } else if (depth_at - depth_to == 1 && prefix_equal && delta >= 1) {
        WriteFieldOp(FieldOp::kPopOnePlusN, w);
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(delta - 1));
      } else {
        WriteFieldOp(FieldOp::kPopNAndNonTopographical, w);
        w->WriteUBitVarFieldPath(static_cast<uint32_t>(depth_at - depth_to));
        for (int i = 0; i <= depth_to; ++i) {
          const int64_t d = static_cast<int64_t>(to.index[i]) - at.index[i];
          w->WriteBool(d != 0);
          if (d != 0) w->WriteVarInt32(static_cast<int32_t>(d));
        }
      }
    }
    at = to;
  }
  WriteFieldOp(FieldOp::kFieldPathEncodeFinish, w);
}

}  // namespace gem
