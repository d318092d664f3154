// Field paths: which fields an entity update touches.
//
// A field path is a list of indexes into a class's schema tree (see
// schema.h), e.g. (0, 3, 3) = field 0 of the class, element 3, field 3 of
// the element's class. An update lists all its paths first, then all the
// values in the same order. The paths are delta-coded as a sequence of
// operations from a fixed table of 40, each Huffman-coded with a code built
// from the table's fixed weights; FieldPathEncodeFinish ends the list.
#ifndef GEM_CORE_FIELDS_FIELD_PATH_H_
#define GEM_CORE_FIELDS_FIELD_PATH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/util/bit_reader.h"
#include "core/util/bit_writer.h"
#include "core/util/status.h"

namespace gem {

struct FieldPath {
  static constexpr int kMaxDepth = 8;

  int32_t index[kMaxDepth] = {};
  int32_t last = 0;  // position of the last index; depth = last + 1

  int depth() const { return last + 1; }
  bool operator==(const FieldPath& o) const;
  // "0/3/3"
  std::string ToString() const;
  // Parses "0/3/3"; false on malformed text.
  static bool Parse(const std::string& text, FieldPath* out);
};

// The operation table, in Valve's order (the order fixes the op ids the
// Huffman code is built over).
enum class FieldOp : uint8_t {
  kPlusOne,
  kPlusTwo,
  kPlusThree,
  kPlusFour,
  kPlusN,
  kPushOneLeftDeltaZeroRightZero,
  kPushOneLeftDeltaZeroRightNonZero,
  kPushOneLeftDeltaOneRightZero,
  kPushOneLeftDeltaOneRightNonZero,
  kPushOneLeftDeltaNRightZero,
  kPushOneLeftDeltaNRightNonZero,
  kPushOneLeftDeltaNRightNonZeroPack6Bits,
  kPushOneLeftDeltaNRightNonZeroPack8Bits,
  kPushTwoLeftDeltaZero,
  kPushTwoPack5LeftDeltaZero,
  kPushThreeLeftDeltaZero,
  kPushThreePack5LeftDeltaZero,
  kPushTwoLeftDeltaOne,
  kPushTwoPack5LeftDeltaOne,
  kPushThreeLeftDeltaOne,
  kPushThreePack5LeftDeltaOne,
  kPushTwoLeftDeltaN,
  kPushTwoPack5LeftDeltaN,
  kPushThreeLeftDeltaN,
  kPushThreePack5LeftDeltaN,
  kPushN,
  kPushNAndNonTopological,
  kPopOnePlusOne,
  kPopOnePlusN,
  kPopAllButOnePlusOne,
  kPopAllButOnePlusN,
  kPopAllButOnePlusNPack3Bits,
  kPopAllButOnePlusNPack6Bits,
  kPopNPlusOne,
  kPopNPlusN,
  kPopNAndNonTopographical,
  kNonTopoComplex,
  kNonTopoPenultimatePlusOne,
  kNonTopoComplexPack4Bits,
  kFieldPathEncodeFinish,
};
constexpr int kFieldOpCount = 40;

struct FieldOpInfo {
  const char* name;
  uint32_t weight;  // Valve's frequency weight; 0 counts as 1 in the code
};
const FieldOpInfo& GetFieldOpInfo(FieldOp op);

// The Huffman code of an op: `length` bits, first bit in the lowest bit of
// `bits` (the order they are read from the stream).
struct FieldOpCode {
  uint32_t bits;
  uint32_t length;
};
FieldOpCode GetFieldOpCode(FieldOp op);

// Applies one op to `fp`, reading its operands. Returns false when the op
// would leave the path malformed (too deep, popped below the root).
bool ApplyFieldOp(FieldOp op, BitReader* r, FieldPath* fp);

// Reads the next Huffman-coded op.
FieldOp ReadFieldOp(BitReader* r);

// Reads all paths of one update into `paths` (cleared first; capacity is
// reused). Corrupt when the stream overflows or an op is malformed.
Status ReadFieldPaths(BitReader* r, std::vector<FieldPath>* paths);

// As ReadFieldPaths, each path given as its slot in `layout` (see
// field_layout.h), found as the path is read: slots[i] for the i-th path
// (cleared first), FieldLayout::kNone for a path the layout does not hold
// yet, whose whole path is then the next entry of *unknown (cleared first).
Status ReadFieldSlots(BitReader* r, const class FieldLayout& layout,
                      std::vector<uint32_t>* slots, std::vector<FieldPath>* unknown);

// The writing side, for tools that produce replays: writes the ops that
// take the reader from path to path through `paths` (any order, each of
// depth 1 to kMaxDepth with indexes >= 0), then FieldPathEncodeFinish.
// The common steps use the common (short) ops.
void WriteFieldPaths(const std::vector<FieldPath>& paths, BitWriter* w);
void WriteFieldOp(FieldOp op, BitWriter* w);

}  // namespace gem

#endif  // GEM_CORE_FIELDS_FIELD_PATH_H_
