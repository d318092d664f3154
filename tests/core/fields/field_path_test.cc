// Field paths: the Huffman code of the 40 ops and what each op does.
#include <array>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/util/bit_reader.h"
#include "core/util/bit_writer.h"
#include "core/fields/field_layout.h"
#include "core/fields/field_path.h"
#include "gtest/gtest.h"

namespace gem {
namespace {

std::string CodeString(FieldOp op) {
  FieldOpCode c = GetFieldOpCode(op);
  std::string s;
  for (uint32_t i = 0; i < c.length; ++i) s.push_back(((c.bits >> i) & 1) ? '1' : '0');
  return s;
}

FieldOp OpByName(const std::string& name) {
  for (int i = 0; i < kFieldOpCount; ++i) {
    if (name == GetFieldOpInfo(static_cast<FieldOp>(i)).name) return static_cast<FieldOp>(i);
  }
  ADD_FAILURE() << "no op " << name;
  return FieldOp::kFieldPathEncodeFinish;
}

// The codes Valve's encoder uses (as published in demofile-net's generated
// decoder), first bit read first.
TEST(FieldPath, HuffmanCodesMatchValvesTable) {
  const std::map<std::string, std::string> expected = {
      {"PlusOne", "0"},
      {"FieldPathEncodeFinish", "10"},
      {"PlusTwo", "1110"},
      {"PushOneLeftDeltaNRightNonZeroPack6Bits", "1111"},
      {"PushOneLeftDeltaOneRightNonZero", "11000"},
      {"PlusN", "11010"},
      {"PlusThree", "110010"},
      {"PopAllButOnePlusOne", "110011"},
      {"PushOneLeftDeltaNRightNonZero", "11011001"},
      {"PushOneLeftDeltaOneRightZero", "11011010"},
      {"PushOneLeftDeltaNRightZero", "11011100"},
      {"PopAllButOnePlusNPack6Bits", "11011110"},
      {"PlusFour", "11011111"},
      {"PopAllButOnePlusN", "110110000"},
      {"PushOneLeftDeltaNRightNonZeroPack8Bits", "110110110"},
      {"NonTopoPenultimatePlusOne", "110110111"},
      {"PopAllButOnePlusNPack3Bits", "110111010"},
      {"PushNAndNonTopological", "110111011"},
      {"NonTopoComplexPack4Bits", "1101100010"},
      {"NonTopoComplex", "11011000111"},
      {"PushOneLeftDeltaZeroRightZero", "110110001101"},
      {"PopOnePlusOne", "110110001100001"},
      {"PushOneLeftDeltaZeroRightNonZero", "110110001100101"},
      {"PopNAndNonTopographical", "1101100011000000"},
      {"PopNPlusN", "1101100011000001"},
      {"PushN", "1101100011000100"},
      {"PushThreePack5LeftDeltaN", "1101100011000101"},
      {"PopNPlusOne", "1101100011000110"},
      {"PopOnePlusN", "1101100011000111"},
      {"PushTwoLeftDeltaZero", "1101100011001000"},
      {"PushThreeLeftDeltaZero", "11011000110010010"},
      {"PushTwoPack5LeftDeltaZero", "11011000110010011"},
      {"PushTwoLeftDeltaN", "11011000110011000"},
      {"PushThreePack5LeftDeltaOne", "11011000110011001"},
      {"PushThreeLeftDeltaN", "11011000110011010"},
      {"PushTwoPack5LeftDeltaN", "11011000110011011"},
      {"PushTwoLeftDeltaOne", "11011000110011100"},
      {"PushThreePack5LeftDeltaZero", "11011000110011101"},
      {"PushThreeLeftDeltaOne", "11011000110011110"},
      {"PushTwoPack5LeftDeltaOne", "11011000110011111"},
  };
  ASSERT_EQ(expected.size(), static_cast<size_t>(kFieldOpCount));
  for (const auto& [name, code] : expected) {
    EXPECT_EQ(CodeString(OpByName(name)), code) << name;
  }
}

TEST(FieldPath, CodeIsPrefixFreeAndComplete) {
  double kraft = 0;
  for (int i = 0; i < kFieldOpCount; ++i) {
    std::string a = CodeString(static_cast<FieldOp>(i));
    kraft += 1.0 / double(1ull << a.size());
    for (int j = 0; j < kFieldOpCount; ++j) {
      if (i == j) continue;
      std::string b = CodeString(static_cast<FieldOp>(j));
      EXPECT_NE(b.compare(0, a.size(), a), 0) << a << " is a prefix of " << b;
    }
  }
  EXPECT_DOUBLE_EQ(kraft, 1.0);
}

TEST(FieldPath, EveryOpDecodesFromItsCode) {
  for (int i = 0; i < kFieldOpCount; ++i) {
    FieldOp op = static_cast<FieldOp>(i);
    FieldOpCode c = GetFieldOpCode(op);
    BitWriter w;
    w.WriteBits(c.bits, c.length);
    w.WriteBits(0x5A5A, 16);  // whatever follows must not be consumed
    BitReader r(w.bytes().data(), w.bytes().size());
    EXPECT_EQ(ReadFieldOp(&r), op) << GetFieldOpInfo(op).name;
    EXPECT_EQ(r.position_bits(), c.length);
  }
}

class PathWriter {
 public:
  PathWriter& Op(FieldOp op) {
    FieldOpCode c = GetFieldOpCode(op);
    w.WriteBits(c.bits, c.length);
    return *this;
  }
  BitWriter w;
};

FieldPath Path(std::initializer_list<int32_t> xs) {
  FieldPath p;
  p.last = -1;
  for (int32_t x : xs) p.index[++p.last] = x;
  return p;
}

TEST(FieldPath, ReadsAllPathsOfAnUpdate) {
  PathWriter pw;
  pw.Op(FieldOp::kPlusOne);                                  // [0]
  pw.Op(FieldOp::kPlusTwo);                                  // [2]
  pw.Op(FieldOp::kPlusN);                                    // [2 + 7 + 5]
  pw.w.WriteUBitVarFieldPath(7);
  pw.Op(FieldOp::kPushOneLeftDeltaNRightNonZeroPack6Bits);   // [14 + 1 + 2, 2 + 1]
  pw.w.WriteBits(1, 3);
  pw.w.WriteBits(2, 3);
  pw.Op(FieldOp::kPushOneLeftDeltaOneRightZero);             // [17, 4, 0]
  pw.Op(FieldOp::kNonTopoPenultimatePlusOne);                // [17, 5, 0]
  pw.Op(FieldOp::kNonTopoComplexPack4Bits);                  // [17, 5+3, 0]: 3 = 10 - 7
  pw.w.WriteBool(false);
  pw.w.WriteBool(true);
  pw.w.WriteBits(10, 4);
  pw.w.WriteBool(false);
  pw.Op(FieldOp::kPopOnePlusOne);                            // [17, 9]
  pw.Op(FieldOp::kPopAllButOnePlusNPack3Bits);               // [17 + 4 + 1]
  pw.w.WriteBits(4, 3);
  pw.Op(FieldOp::kPushTwoPack5LeftDeltaOne);                 // [23, 3, 30]
  pw.w.WriteBits(3, 5);
  pw.w.WriteBits(30, 5);
  pw.Op(FieldOp::kPopNPlusN);                                // pop 2 -> [23 - 3]
  pw.w.WriteUBitVarFieldPath(2);
  pw.w.WriteVarInt32(-3);
  pw.Op(FieldOp::kPushNAndNonTopological);                   // [20 + 1 + 1, 6]
  pw.w.WriteBool(true);
  pw.w.WriteVarInt32(1);
  pw.w.WriteUBitVar(1);
  pw.w.WriteUBitVarFieldPath(6);
  pw.Op(FieldOp::kFieldPathEncodeFinish);
  pw.w.WriteBits(0xFF, 8);  // the values would follow

  BitReader r(pw.w.bytes().data(), pw.w.bytes().size());
  std::vector<FieldPath> paths;
  ASSERT_TRUE(ReadFieldPaths(&r, &paths).ok());
  std::vector<FieldPath> expected = {
      Path({0}),       Path({2}),     Path({14}),     Path({17, 3}),
      Path({17, 4, 0}), Path({17, 5, 0}), Path({17, 8, 0}), Path({17, 9}),
      Path({22}),      Path({23, 3, 30}), Path({20}),  Path({22, 6}),
  };
  ASSERT_EQ(paths.size(), expected.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    EXPECT_EQ(paths[i].ToString(), expected[i].ToString()) << "path " << i;
  }
  EXPECT_EQ(r.ReadBits(8), 0xFFu);
}

TEST(FieldPath, MalformedOpsAreErrors) {
  {  // popping the root
    PathWriter pw;
    pw.Op(FieldOp::kPlusOne).Op(FieldOp::kPopOnePlusOne);
    BitReader r(pw.w.bytes().data(), pw.w.bytes().size());
    std::vector<FieldPath> paths;
    EXPECT_FALSE(ReadFieldPaths(&r, &paths).ok());
  }
  {  // pushing past the deepest path
    PathWriter pw;
    pw.Op(FieldOp::kPlusOne);
    for (int i = 0; i < FieldPath::kMaxDepth; ++i) pw.Op(FieldOp::kPushOneLeftDeltaZeroRightZero);
    BitReader r(pw.w.bytes().data(), pw.w.bytes().size());
    std::vector<FieldPath> paths;
    EXPECT_FALSE(ReadFieldPaths(&r, &paths).ok());
  }
  {  // no terminator: runs off the end
    PathWriter pw;
    pw.Op(FieldOp::kPlusOne).Op(FieldOp::kPlusTwo);
    BitReader r(pw.w.bytes().data(), pw.w.bytes().size());
    std::vector<FieldPath> paths;
    Status s = ReadFieldPaths(&r, &paths);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), Status::Code::kCorrupt);
  }
}

TEST(FieldPath, TextRoundTrip) {
  FieldPath p;
  ASSERT_TRUE(FieldPath::Parse("0/3/3", &p));
  EXPECT_EQ(p.depth(), 3);
  EXPECT_EQ(p.ToString(), "0/3/3");
  EXPECT_FALSE(FieldPath::Parse("", &p));
  EXPECT_FALSE(FieldPath::Parse("1//2", &p));
  EXPECT_FALSE(FieldPath::Parse("1/x", &p));
}

// ReadFieldSlots gives each path the slot a walk from the root finds
// (FieldLayout::Find), and the whole path where there is none, whatever
// op made it: random sequences of every op, each with random operands
// that keep the path well formed, read both ways over a layout holding
// some of the paths. An op that moves a shallower level than the slots'
// reader assumes would leave it a stale parent here.
TEST(FieldPath, SlotsAreWhatWholePathsFind) {
  std::mt19937 rng(11);
  std::array<int, kFieldOpCount> seen{};
  for (int trial = 0; trial < 4000; ++trial) {
    BitWriter w;
    FieldPath at;
    at.index[0] = -1;
    const int steps = 1 + static_cast<int>(rng() % 40);
    int written = 0;
    for (int step = 0; step < steps; ++step) {
      for (int attempt = 0; attempt < 64; ++attempt) {
        const auto op = static_cast<FieldOp>(rng() % (kFieldOpCount - 1));
        // Operand bits, mostly zeros: small deltas and indexes, so that
        // paths meet in the layout.
        uint8_t operand[16];
        for (uint8_t& b : operand) b = static_cast<uint8_t>(rng() & rng() & rng());
        BitReader r(operand, sizeof operand);
        FieldPath next = at;
        if (!ApplyFieldOp(op, &r, &next) || r.overflowed()) continue;
        WriteFieldOp(op, &w);
        for (size_t bit = 0; bit < r.position_bits(); ++bit) {
          w.WriteBits((operand[bit / 8] >> (bit % 8)) & 1, 1);
        }
        at = next;
        ++seen[static_cast<int>(op)];
        ++written;
        break;
      }
    }
    WriteFieldOp(FieldOp::kFieldPathEncodeFinish, &w);
    const std::vector<uint8_t>& bytes = w.bytes();
    BitReader whole(bytes.data(), bytes.size());
    std::vector<FieldPath> paths;
    ASSERT_TRUE(ReadFieldPaths(&whole, &paths).ok());
    ASSERT_EQ(paths.size(), static_cast<size_t>(written));
    FieldLayout layout;
    for (const FieldPath& p : paths) {
      if (rng() % 3 != 0) layout.Intern(p);
    }
    BitReader as_slots(bytes.data(), bytes.size());
    std::vector<uint32_t> slots;
    std::vector<FieldPath> unknown;
    ASSERT_TRUE(ReadFieldSlots(&as_slots, layout, &slots, &unknown).ok());
    ASSERT_EQ(slots.size(), paths.size());
    size_t next_unknown = 0;
    for (size_t i = 0; i < paths.size(); ++i) {
      ASSERT_EQ(slots[i], layout.Find(paths[i])) << "trial " << trial << " path " << i << " "
                                                 << paths[i].ToString();
      if (slots[i] == FieldLayout::kNone) {
        ASSERT_LT(next_unknown, unknown.size());
        EXPECT_TRUE(unknown[next_unknown++] == paths[i]) << paths[i].ToString();
      }
    }
    EXPECT_EQ(next_unknown, unknown.size());
  }
  for (int op = 0; op + 1 < kFieldOpCount; ++op) {
    EXPECT_GT(seen[op], 20) << GetFieldOpInfo(static_cast<FieldOp>(op)).name;
  }
}

}  // namespace
}  // namespace gem
