// Parser: reading a replay's header alone, before a parse (Parser::ReadHeader).
#include <algorithm>

#include "core/match/games.h"
#include "core/parser/parser.h"
#include "proto/demo.pb.h"

namespace gem {

Status Parser::ReadHeader(ReplaySource* source, ReplayHeader* header, std::string* game) {
  // The header frame is a few hundred bytes: read it from the source's
  // first bytes, leaving the source where it was. Only the bytes the frame
  // needs are waited for (a pipe may send no more for a while).
  const uint8_t* data = nullptr;
  size_t size = 0;
  Status peeked =
      source->Peek(DemoStream::kHeaderSize + DemoStream::kMaxFrameHeader, &data, &size);
  if (!peeked.ok() && size == 0) return peeked;
  // Not a replay (or a Source 1 demo): what is here says so already.
  if (!DemoStream::StartsWithMagic(data, size)) return ReadHeader(data, size, header, game);
  size_t want = size;
  size_t pos = DemoStream::kHeaderSize;
  uint32_t command, tick, payload;
  if (size >= DemoStream::kHeaderSize &&
      DemoStream::ReadFrameHeader(data, size, &pos, &command, &tick, &payload)) {
    want = static_cast<size_t>(std::min<uint64_t>(pos + uint64_t{payload}, kHeaderPeek));
  }
  if (want > size) {
    peeked = source->Peek(want, &data, &size);
    if (!peeked.ok() && size == 0) return peeked;
  }
  return ReadHeader(data, size, header, game);
}

Status Parser::ReadHeader(const uint8_t* data, size_t size, ReplayHeader* header,
                          std::string* game) {
  DemoStream stream(data, size);
  GEM_RETURN_IF_ERROR(stream.Open());
  Frame frame;
  bool end = false;
  GEM_RETURN_IF_ERROR(stream.Next(&frame, &end));
  if (end || frame.command != kDemFileHeader) {
    return Status::Corrupt("the replay does not start with its file header",
                           DemoStream::kHeaderSize);
  }
  proto::CDemoFileHeader h;
  if (!h.ParseFromArray(frame.data, static_cast<int>(frame.size))) {
    return Status::Corrupt("file header does not parse", frame.offset);
  }
  *header = ReplayHeader();
  header->game = h.game();
  header->game_directory = h.game_directory();
  header->map_name = h.map_name();
  header->build_num = h.build_num();
  header->network_protocol = h.patch_version();
  *game = match::GameOf(*header);
  return Status::Ok();
}

}  // namespace gem
