#include "core/fields/field_path.h"

#include "core/fields/field_layout.h"

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

namespace {

// The shallowest level of the path that `op` may have changed, given the
// path's last level before it and after: the levels above it are as they
// were. Rare ops say 0 (all).
inline int32_t LowestChanged(FieldOp op, int32_t before, int32_t after) {
  switch (op) {
    case FieldOp::kPlusN:
      return after;
    case FieldOp::kPopOnePlusOne:
    case FieldOp::kPopOnePlusN:
    case FieldOp::kPopNPlusOne:
    case FieldOp::kPopNPlusN:
      return after;
    case FieldOp::kNonTopoPenultimatePlusOne:
      return after - 1;
    default:
      // Every push but PushNAndNonTopological moves the last level at most,
      // then adds levels below it.
      if (op >= FieldOp::kPushOneLeftDeltaZeroRightZero && op <= FieldOp::kPushN) return before;
      return 0;
  }
}

// Runs one update's path list, calling visit(path, lowest) for each path,
// `lowest` as LowestChanged says for the op that made it. Each path is
// visited one op later, not right after the op changed it: copying the
// path reads it back 16 bytes at a time, and a read that overlaps a
// narrower write still on its way to the cache waits for it (this append
// was an eighth of the update loop's time).
template <class Visit>
[[gnu::always_inline]] inline Status ForEachPath(BitReader* r, Visit&& visit) {
  static_assert(static_cast<int>(FieldOp::kPlusOne) == 0 &&
                static_cast<int>(FieldOp::kPlusFour) == 3);
  const HuffmanCode& code = Code();
  FieldPath fp;
  fp.index[0] = -1;
  bool pending = false;  // fp is a path not yet visited
  int32_t lowest = 0;
  for (;;) {
    const FieldOp op = NextFieldOp(code, r);
    if (pending) visit(fp, lowest);
    pending = true;
    // Overflowed reads are zeros, which decode as ops too: stop here.
    if (r->overflowed()) {
      return Status::Corrupt("field path list runs past the end of the update");
    }
    if (op <= FieldOp::kPlusFour) {
      // Half of all ops: the next field at the same level.
      Add(&fp.index[fp.last], static_cast<int64_t>(op) + 1);
      lowest = fp.last;
    } else if (op == FieldOp::kFieldPathEncodeFinish) {
      return Status::Ok();
    } else {
      const int32_t before = fp.last;
      if (!Apply(op, r, &fp)) {
        return Status::Corrupt(std::string("field path op ") + GetFieldOpInfo(op).name +
                               " leaves a malformed path after " + fp.ToString());
      }
      lowest = LowestChanged(op, before, fp.last);
    }
  }
}

}  // namespace

Status ReadFieldPaths(BitReader* r, std::vector<FieldPath>* paths) {
  paths->clear();
  return ForEachPath(r, [paths](const FieldPath& fp, int32_t) { paths->push_back(fp); });
}

Status ReadFieldSlots(BitReader* r, const FieldLayout& layout, std::vector<uint32_t>* slots,
                      std::vector<FieldPath>* unknown) {
  slots->clear();
  unknown->clear();
  // node[d]: the slot of the path's levels 0..d, for d < valid. Most ops
  // move the last level only: one step down the trie from its parent,
  // where a walk from the root took a load per level.
  uint32_t node[FieldPath::kMaxDepth];
  int32_t valid = 0;
  return ForEachPath(r, [&](const FieldPath& fp, int32_t lowest) {
    if (lowest < valid) valid = lowest;
    uint32_t at = valid == 0 ? FieldLayout::kRoot : node[valid - 1];
    for (int32_t d = valid; d <= fp.last; ++d) {
      if (at != FieldLayout::kNone) at = layout.child(at, static_cast<uint32_t>(fp.index[d]));
      node[d] = at;
    }
    valid = fp.last + 1;
    slots->push_back(at);
    if (at == FieldLayout::kNone) unknown->push_back(fp);
  });
}

}  // namespace gem
