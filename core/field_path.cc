#include "core/field_path.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <queue>

namespace gem {
namespace {

constexpr FieldOpInfo kOps[kFieldOpCount] = {
    {"PlusOne", 36271},
    {"PlusTwo", 10334},
    {"PlusThree", 1375},
    {"PlusFour", 646},
    {"PlusN", 4128},
    {"PushOneLeftDeltaZeroRightZero", 35},
    {"PushOneLeftDeltaZeroRightNonZero", 3},
    {"PushOneLeftDeltaOneRightZero", 521},
    {"PushOneLeftDeltaOneRightNonZero", 2942},
    {"PushOneLeftDeltaNRightZero", 560},
    {"PushOneLeftDeltaNRightNonZero", 471},
    {"PushOneLeftDeltaNRightNonZeroPack6Bits", 10530},
    {"PushOneLeftDeltaNRightNonZeroPack8Bits", 251},
    {"PushTwoLeftDeltaZero", 0},
    {"PushTwoPack5LeftDeltaZero", 0},
    {"PushThreeLeftDeltaZero", 0},
    {"PushThreePack5LeftDeltaZero", 0},
    {"PushTwoLeftDeltaOne", 0},
    {"PushTwoPack5LeftDeltaOne", 0},
    {"PushThreeLeftDeltaOne", 0},
    {"PushThreePack5LeftDeltaOne", 0},
    {"PushTwoLeftDeltaN", 0},
    {"PushTwoPack5LeftDeltaN", 0},
    {"PushThreeLeftDeltaN", 0},
    {"PushThreePack5LeftDeltaN", 0},
    {"PushN", 0},
    {"PushNAndNonTopological", 310},
    {"PopOnePlusOne", 2},
    {"PopOnePlusN", 0},
    {"PopAllButOnePlusOne", 1837},
    {"PopAllButOnePlusN", 149},
    {"PopAllButOnePlusNPack3Bits", 300},
    {"PopAllButOnePlusNPack6Bits", 634},
    {"PopNPlusOne", 0},
    {"PopNPlusN", 0},
    {"PopNAndNonTopographical", 1},
    {"NonTopoComplex", 76},
    {"NonTopoPenultimatePlusOne", 271},
    {"NonTopoComplexPack4Bits", 99},
    {"FieldPathEncodeFinish", 25474},
};

// The Huffman code over the op weights. Nodes are merged lightest first;
// among equal weights the node with the larger id goes first (leaves have
// ids 0..39 = op ids, merged nodes take 40, 41, ... in creation order). The
// first node taken becomes the left (0) child. This fixes one code, the one
// Valve's encoder uses.
struct HuffmanCode {
  struct Node {
    int32_t child[2];  // -1 for a leaf
    int32_t op;        // for leaves
  };
  std::vector<Node> nodes;
  int32_t root = -1;
  std::array<FieldOpCode, kFieldOpCount> codes{};

  // Direct lookup of the next kTableBits bits: a leaf within reach gives
  // (op, length); otherwise the node reached after kTableBits bits.
  static constexpr unsigned kTableBits = 10;
  struct Entry {
    uint8_t is_leaf;
    uint8_t length;  // bits consumed
    uint16_t op_or_node;
  };
  std::array<Entry, 1u << kTableBits> table{};

  HuffmanCode() {
    struct Item {
      uint32_t weight;
      int32_t id;
    };
    auto after = [](const Item& a, const Item& b) {
      // priority_queue pops the "largest": make that the lightest, and
      // among equal weights the larger id.
      if (a.weight != b.weight) return a.weight > b.weight;
      return a.id < b.id;
    };
    std::priority_queue<Item, std::vector<Item>, decltype(after)> queue(after);
    for (int i = 0; i < kFieldOpCount; ++i) {
      nodes.push_back({{-1, -1}, i});
      queue.push({std::max<uint32_t>(kOps[i].weight, 1), i});
    }
    while (queue.size() > 1) {
      Item a = queue.top();
      queue.pop();
      Item b = queue.top();
      queue.pop();
      int32_t id = static_cast<int32_t>(nodes.size());
      nodes.push_back({{a.id, b.id}, -1});
      queue.push({a.weight + b.weight, id});
    }
    root = queue.top().id;
    AssignCodes(root, 0, 0);
    BuildTable();
  }

  void AssignCodes(int32_t node, uint32_t bits, uint32_t length) {
    if (nodes[node].child[0] < 0) {
      codes[nodes[node].op] = {bits, length};
      return;
    }
    AssignCodes(nodes[node].child[0], bits, length + 1);
    AssignCodes(nodes[node].child[1], bits | (1u << length), length + 1);
  }

  void BuildTable() {
    for (uint32_t v = 0; v < table.size(); ++v) {
      int32_t node = root;
      uint8_t used = 0;
      while (nodes[node].child[0] >= 0 && used < kTableBits) {
        node = nodes[node].child[(v >> used) & 1];
        ++used;
      }
      bool leaf = nodes[node].child[0] < 0;
      table[v] = {static_cast<uint8_t>(leaf), used,
                  static_cast<uint16_t>(leaf ? nodes[node].op : node)};
    }
  }
};

const HuffmanCode& Code() {
  static const HuffmanCode* code = new HuffmanCode();
  return *code;
}

// Pops n levels. (What lies past `last` is never read: a push writes the
// level it adds.)
inline bool Pop(FieldPath* fp, int64_t n) {
  if (n < 0 || n > fp->last) return false;
  fp->last -= static_cast<int32_t>(n);
  return true;
}

inline bool Push(FieldPath* fp, int32_t value) {
  if (fp->last + 1 >= FieldPath::kMaxDepth) return false;
  fp->index[++fp->last] = value;
  return true;
}

}  // namespace

bool FieldPath::operator==(const FieldPath& o) const {
  if (last != o.last) return false;
  for (int i = 0; i <= last; ++i) {
    if (index[i] != o.index[i]) return false;
  }
  return true;
}

std::string FieldPath::ToString() const {
  std::string out;
  for (int i = 0; i <= last; ++i) {
    if (i) out.push_back('/');
    out += std::to_string(index[i]);
  }
  return out;
}

bool FieldPath::Parse(const std::string& text, FieldPath* out) {
  *out = FieldPath();
  out->last = -1;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t slash = text.find('/', pos);
    if (slash == std::string::npos) slash = text.size();
    if (slash == pos || out->last + 1 >= kMaxDepth) return false;
    int32_t value = 0;
    for (size_t i = pos; i < slash; ++i) {
      if (text[i] < '0' || text[i] > '9' || value > 100000000) return false;
      value = value * 10 + (text[i] - '0');
    }
    out->index[++out->last] = value;
    pos = slash + 1;
  }
  return out->last >= 0;
}

const FieldOpInfo& GetFieldOpInfo(FieldOp op) {
  return kOps[static_cast<int>(op)];
}

FieldOpCode GetFieldOpCode(FieldOp op) {
  return Code().codes[static_cast<int>(op)];
}

namespace {

// The next op: one table load for codes of up to kTableBits bits (nearly
// every op sent), else a walk down the tree for the rest.
inline FieldOp NextFieldOp(const HuffmanCode& code, BitReader* r) {
  const HuffmanCode::Entry& e = code.table[r->Peek57() & ((1u << HuffmanCode::kTableBits) - 1)];
  if (e.is_leaf) {
    r->Skip(e.length);
    return static_cast<FieldOp>(e.op_or_node);
  }
  r->Skip(HuffmanCode::kTableBits);
  int32_t node = e.op_or_node;
  while (code.nodes[node].child[0] >= 0) {
    node = code.nodes[node].child[r->ReadBool() ? 1 : 0];
  }
  return static_cast<FieldOp>(code.nodes[node].op);
}

}  // namespace

FieldOp ReadFieldOp(BitReader* r) { return NextFieldOp(Code(), r); }

namespace {

// *index += delta, wrapping: damaged input can push an index past int32,
// which must not be undefined behaviour; such a path then matches no field.
inline void Add(int32_t* index, int64_t delta) {
  *index = static_cast<int32_t>(static_cast<uint32_t>(*index) + static_cast<uint32_t>(delta));
}

// The op's change to the path; inlined into ReadFieldPaths' loop.
[[gnu::always_inline]] inline bool Apply(FieldOp op, BitReader* r, FieldPath* fp) {
  int32_t* idx = fp->index;
  switch (op) {
    case FieldOp::kPlusOne:
      Add(&idx[fp->last], 1);
      return true;
    case FieldOp::kPlusTwo:
      Add(&idx[fp->last], 2);
      return true;
    case FieldOp::kPlusThree:
      Add(&idx[fp->last], 3);
      return true;
    case FieldOp::kPlusFour:
      Add(&idx[fp->last], 4);
      return true;
    case FieldOp::kPlusN:
      Add(&idx[fp->last], static_cast<int64_t>(r->ReadUBitVarFieldPath()) + 5);
      return true;
    case FieldOp::kPushOneLeftDeltaZeroRightZero:
      return Push(fp, 0);
    case FieldOp::kPushOneLeftDeltaZeroRightNonZero:
      return Push(fp, static_cast<int32_t>(r->ReadUBitVarFieldPath()));
    case FieldOp::kPushOneLeftDeltaOneRightZero:
      Add(&idx[fp->last], 1);
      return Push(fp, 0);
    case FieldOp::kPushOneLeftDeltaOneRightNonZero:
      Add(&idx[fp->last], 1);
      return Push(fp, static_cast<int32_t>(r->ReadUBitVarFieldPath()));
    case FieldOp::kPushOneLeftDeltaNRightZero:
      Add(&idx[fp->last], static_cast<int64_t>(r->ReadUBitVarFieldPath()));
      return Push(fp, 0);
    case FieldOp::kPushOneLeftDeltaNRightNonZero: {
      Add(&idx[fp->last], static_cast<int64_t>(r->ReadUBitVarFieldPath()) + 2);
      return Push(fp, static_cast<int32_t>(r->ReadUBitVarFieldPath() + 1));
    }
    case FieldOp::kPushOneLeftDeltaNRightNonZeroPack6Bits: {
      Add(&idx[fp->last], static_cast<int64_t>(r->ReadBits(3)) + 2);
      return Push(fp, static_cast<int32_t>(r->ReadBits(3)) + 1);
    }
    case FieldOp::kPushOneLeftDeltaNRightNonZeroPack8Bits: {
      Add(&idx[fp->last], static_cast<int64_t>(r->ReadBits(4)) + 2);
      return Push(fp, static_cast<int32_t>(r->ReadBits(4)) + 1);
    }
    case FieldOp::kPushTwoLeftDeltaZero:
    case FieldOp::kPushTwoLeftDeltaOne:
    case FieldOp::kPushTwoLeftDeltaN:
    case FieldOp::kPushThreeLeftDeltaZero:
    case FieldOp::kPushThreeLeftDeltaOne:
    case FieldOp::kPushThreeLeftDeltaN: {
      if (op == FieldOp::kPushTwoLeftDeltaOne ||
          op == FieldOp::kPushThreeLeftDeltaOne) {
        Add(&idx[fp->last], 1);
      } else if (op == FieldOp::kPushTwoLeftDeltaN ||
                 op == FieldOp::kPushThreeLeftDeltaN) {
        Add(&idx[fp->last], static_cast<int64_t>(r->ReadUBitVar()) + 2);
      }
      int n = (op == FieldOp::kPushTwoLeftDeltaZero ||
               op == FieldOp::kPushTwoLeftDeltaOne ||
               op == FieldOp::kPushTwoLeftDeltaN)
                  ? 2
                  : 3;
      for (int i = 0; i < n; ++i) {
        if (!Push(fp, static_cast<int32_t>(r->ReadUBitVarFieldPath()))) {
          return false;
        }
      }
      return true;
    }
    case FieldOp::kPushTwoPack5LeftDeltaZero:
    case FieldOp::kPushTwoPack5LeftDeltaOne:
    case FieldOp::kPushTwoPack5LeftDeltaN:
    case FieldOp::kPushThreePack5LeftDeltaZero:
    case FieldOp::kPushThreePack5LeftDeltaOne:
    case FieldOp::kPushThreePack5LeftDeltaN: {
      if (op == FieldOp::kPushTwoPack5LeftDeltaOne ||
          op == FieldOp::kPushThreePack5LeftDeltaOne) {
        Add(&idx[fp->last], 1);
      } else if (op == FieldOp::kPushTwoPack5LeftDeltaN ||
                 op == FieldOp::kPushThreePack5LeftDeltaN) {
        Add(&idx[fp->last], static_cast<int64_t>(r->ReadUBitVar()) + 2);
      }
      int n = (op == FieldOp::kPushTwoPack5LeftDeltaZero ||
               op == FieldOp::kPushTwoPack5LeftDeltaOne ||
               op == FieldOp::kPushTwoPack5LeftDeltaN)
                  ? 2
                  : 3;
      for (int i = 0; i < n; ++i) {
        if (!Push(fp, static_cast<int32_t>(r->ReadBits(5)))) return false;
      }
      return true;
    }
    case FieldOp::kPushN: {
      uint32_t n = r->ReadUBitVar();
      Add(&idx[fp->last], static_cast<int64_t>(r->ReadUBitVar()));
      for (uint32_t i = 0; i < n; ++i) {
        if (!Push(fp, static_cast<int32_t>(r->ReadUBitVarFieldPath()))) {
          return false;
        }
      }
      return true;
    }
    case FieldOp::kPushNAndNonTopological: {
      for (int i = 0; i <= fp->last; ++i) {
        if (r->ReadBool()) Add(&idx[i], int64_t{r->ReadVarInt32()} + 1);
      }
      uint32_t count = r->ReadUBitVar();
      for (uint32_t i = 0; i < count; ++i) {
        if (!Push(fp, static_cast<int32_t>(r->ReadUBitVarFieldPath()))) {
          return false;
        }
      }
      return true;
    }
    case FieldOp::kPopOnePlusOne:
      if (!Pop(fp, 1)) return false;
      Add(&idx[fp->last], 1);
      return true;
    case FieldOp::kPopOnePlusN:
      if (!Pop(fp, 1)) return false;
      Add(&idx[fp->last], static_cast<int64_t>(r->ReadUBitVarFieldPath()) + 1);
      return true;
    case FieldOp::kPopAllButOnePlusOne:
      Pop(fp, fp->last);
      Add(&idx[0], 1);
      return true;
    case FieldOp::kPopAllButOnePlusN:
      Pop(fp, fp->last);
      Add(&idx[0], static_cast<int64_t>(r->ReadUBitVarFieldPath()) + 1);
      return true;
    case FieldOp::kPopAllButOnePlusNPack3Bits:
      Pop(fp, fp->last);
      Add(&idx[0], static_cast<int64_t>(r->ReadBits(3)) + 1);
      return true;
    case FieldOp::kPopAllButOnePlusNPack6Bits:
      Pop(fp, fp->last);
      Add(&idx[0], static_cast<int64_t>(r->ReadBits(6)) + 1);
      return true;
    case FieldOp::kPopNPlusOne:
      if (!Pop(fp, r->ReadUBitVarFieldPath())) return false;
      Add(&idx[fp->last], 1);
      return true;
    case FieldOp::kPopNPlusN:
      if (!Pop(fp, r->ReadUBitVarFieldPath())) return false;
      Add(&idx[fp->last], int64_t{r->ReadVarInt32()});
      return true;
    case FieldOp::kPopNAndNonTopographical:
      if (!Pop(fp, r->ReadUBitVarFieldPath())) return false;
      for (int i = 0; i <= fp->last; ++i) {
        if (r->ReadBool()) Add(&idx[i], int64_t{r->ReadVarInt32()});
      }
      return true;
    case FieldOp::kNonTopoComplex:
      for (int i = 0; i <= fp->last; ++i) {
        if (r->ReadBool()) Add(&idx[i], int64_t{r->ReadVarInt32()});
      }
      return true;
    case FieldOp::kNonTopoPenultimatePlusOne:
      if (fp->last < 1) return false;
      Add(&idx[fp->last - 1], 1);
      return true;
    case FieldOp::kNonTopoComplexPack4Bits:
      for (int i = 0; i <= fp->last; ++i) {
        if (r->ReadBool()) Add(&idx[i], static_cast<int64_t>(r->ReadBits(4)) - 7);
      }
      return true;
    case FieldOp::kFieldPathEncodeFinish:
      return true;
  }
  return false;
}

}  // namespace

bool ApplyFieldOp(FieldOp op, BitReader* r, FieldPath* fp) { return Apply(op, r, fp); }

Status ReadFieldPaths(BitReader* r, std::vector<FieldPath>* paths) {
  static_assert(static_cast<int>(FieldOp::kPlusOne) == 0 &&
                static_cast<int>(FieldOp::kPlusFour) == 3);
  const HuffmanCode& code = Code();
  paths->clear();
  FieldPath fp;
  fp.index[0] = -1;
  bool pending = false;  // fp is a path not yet appended
  for (;;) {
    const FieldOp op = NextFieldOp(code, r);
    // Each path is appended one op later, not right after the op changed
    // it: copying the path reads it back 16 bytes at a time, and a read
    // that overlaps a narrower write still on its way to the cache waits
    // for it (this append was an eighth of the update loop's time).
    if (pending) paths->push_back(fp);
    pending = true;
    // Overflowed reads are zeros, which decode as ops too: stop here.
    if (r->overflowed()) {
      return Status::Corrupt("field path list runs past the end of the update");
    }
    if (op <= FieldOp::kPlusFour) {
      // Half of all ops: the next field at the same level.
      Add(&fp.index[fp.last], static_cast<int64_t>(op) + 1);
    } else if (op == FieldOp::kFieldPathEncodeFinish) {
      return Status::Ok();
    } else if (!Apply(op, r, &fp)) {
      return Status::Corrupt(std::string("field path op ") +
                             GetFieldOpInfo(op).name +
                             " leaves a malformed path after " +
                             fp.ToString());
    }
  }
}

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
