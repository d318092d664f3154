// ReplayWriter: writes a Source 2 replay file frame by frame, in the
// format DemoStream reads: the 16-byte header (its offsets fixed at the
// end), then varint command / tick / size frames, snappy-compressed when
// that is smaller. Packets are built from inner messages, bit-packed as
// { ubit var type, varint size, bytes }.
#ifndef GEM_TOOLS_SYNTH_REPLAY_WRITER_H_
#define GEM_TOOLS_SYNTH_REPLAY_WRITER_H_

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/bit_writer.h"
#include "core/string_tables/string_table.h"
#include "core/util/status.h"
#include "proto/demo.pb.h"

namespace gem::synth {

class ReplayWriter {
 public:
  ~ReplayWriter();
  Status Open(const std::string& path);
  // A frame as written in another replay (already framed), copied as is.
  Status CopyFrame(std::string_view framed);
  // A frame with `payload` (uncompressed); compressed when it pays.
  Status Frame(uint32_t command, uint32_t tick, std::string_view payload);
  // Records where the DEM_FileInfo / DEM_SpawnGroups frames start (for
  // the header) before they are written.
  void MarkFileInfo() { fileinfo_at_ = pos_; }
  void MarkSpawnGroups() { spawngroups_at_ = pos_; }
  // Writes the header offsets and closes.
  Status Close();
  uint64_t bytes() const { return pos_; }

 private:
  Status Write(std::string_view bytes);

  FILE* f_ = nullptr;
  std::string path_;
  uint64_t pos_ = 0;
  uint64_t fileinfo_at_ = 0;
  uint64_t spawngroups_at_ = 0;
  std::string scratch_;
};

// Accumulates the inner messages of one packet.
class PacketBuilder {
 public:
  void Add(uint32_t type, std::string_view payload);
  bool empty() const { return w_.size_bits() == 0; }
  // The packet's data (CDemoPacket.data), padded to a whole byte.
  std::string Finish();

 private:
  BitWriter w_;
};

// A CDemoPacket (`payload`, its serialized bytes) rewritten: `each` sees
// its inner messages in the packet's order and adds to the builder what
// the new packet holds. Corrupt when the packet does not parse.
Status RewritePacket(
    std::string_view payload,
    const std::function<void(uint32_t type, std::string_view body, PacketBuilder* out)>& each,
    std::string* out);

// Appends a table's entries to a string-table snapshot (DEM_StringTables,
// a full packet's), as a recorder writes them: every entry's name, its
// data when it has some.
void AddSnapshotTable(const std::string& name, int32_t flags,
                      const std::vector<StringTableEntry>& entries,
                      proto::CDemoStringTables* snapshot);

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_REPLAY_WRITER_H_
