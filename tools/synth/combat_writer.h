// CombatWriter: writes combat-log entries into the synthetic replay
// (DOTA_UM_CombatLogDataHLTV, one a message) and, when asked, the truth of
// each: a JSON line with the tick and every field set, by its protobuf
// name (names as their CombatLogNames index, floats as float32), the shape
// of gem-synth's --combat-truth.
#ifndef GEM_TOOLS_SYNTH_COMBAT_WRITER_H_
#define GEM_TOOLS_SYNTH_COMBAT_WRITER_H_

#include <cstdint>
#include <cstdio>
#include <string>

#include "proto/dota_usermessages.pb.h"
#include "tools/synth/world.h"

namespace gem::synth {

class CombatWriter {
 public:
  explicit CombatWriter(World* world) : world_(world) {}
  void set_truth(FILE* truth) { truth_ = truth; }

  void Write(uint32_t tick, const proto::CMsgDOTACombatLogEntry& entry);
  // The CombatLogNames index of `name`, added when missing.
  uint32_t Name(const std::string& name);
  uint64_t written() const { return written_; }

 private:
  World* world_;
  FILE* truth_ = nullptr;
  uint64_t written_ = 0;
  std::string line_;
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_COMBAT_WRITER_H_
