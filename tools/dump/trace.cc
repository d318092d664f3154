// gem-dump trace: the replay's frames and inner messages, one per line,
// without applying them: "frame OFFSET COMMAND TICK SIZE" and, for packets,
// "  msg TYPE SIZE" in the order the parser applies them. With --payload
// TYPE, messages of that type also print their bytes in hex ("  msg TYPE
// SIZE HEX"), for protoc --decode_raw.
#include <fmt/core.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/input/demo_stream.h"
#include "core/util/exit_codes.h"
#include "core/input/inner_messages.h"
#include "core/util/proto_wire.h"
#include "proto/demo.pb.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"

namespace gem::dump {
namespace {

void TracePacket(const uint8_t* data, size_t size, int64_t payload_type) {
  std::vector<InnerMessage> messages;
  std::string payloads;
  Status s = SplitPacket(data, size, &messages, &payloads);
  for (const InnerMessage& m : messages) {
    if (static_cast<int64_t>(m.type) != payload_type) {
      fmt::print("  msg\t{}\t{}\n", m.type, m.size);
      continue;
    }
    std::string hex;
    for (size_t i = 0; i < m.size; ++i) {
      const uint8_t b = static_cast<uint8_t>(payloads[m.offset + i]);
      hex.push_back("0123456789abcdef"[b >> 4]);
      hex.push_back("0123456789abcdef"[b & 15]);
    }
    fmt::print("  msg\t{}\t{}\t{}\n", m.type, m.size, hex);
  }
  if (!s.ok()) fmt::print("  error\t{}\n", s.ToString().c_str());
}

}  // namespace

int RunTrace(const Args& args) {
  int64_t payload_type = -1;
  const bool with_payload = args.size() == 3 && args[0] == "--payload";
  if (with_payload) {
    char* end = nullptr;
    payload_type = std::strtol(args[1].c_str(), &end, 10);
    if (args[1].empty() || *end != '\0' || payload_type < 0) payload_type = -2;
  }
  if ((args.size() != 1 && !with_payload) || payload_type == -2) {
    fmt::print(stderr, "usage: gem-dump trace [--payload TYPE] REPLAY.dem\n");
    return cli::kExitUsage;
  }
  ReplayInput input;
  if (int rc = cli::OpenReplay("gem-dump", args.back(), &input); rc != 0) return rc;
  DemoStream stream(input.source());
  Status s = stream.Open();
  proto::CDemoFullPacket full;
  while (s.ok()) {
    Frame f;
    bool end = false;
    s = stream.Next(&f, &end);
    if (!s.ok() || end) break;
    fmt::print("frame\t{}\t{}\t{}\t{}\n", f.offset, DemoCommandName(f.command), f.tick, f.size);
    if (f.command == kDemPacket || f.command == kDemSignonPacket) {
      const uint8_t* d = nullptr;
      size_t n = 0;
      bool found = false;
      if (FindBytesField(f.data, f.size, 3, &d, &n, &found) && found) TracePacket(d, n, payload_type);
    } else if (f.command == kDemFullPacket &&
               full.ParseFromArray(f.data, static_cast<int>(f.size))) {
      const std::string& d = full.packet().data();
      TracePacket(reinterpret_cast<const uint8_t*>(d.data()), d.size(), payload_type);
    }
  }
  if (!s.ok()) s = input.FailureOf(s);
  if (!s.ok()) {
    fmt::print(stderr, "gem-dump: {}\n", s.ToString().c_str());
    return cli::ExitCodeFor(s);
  }
  return cli::kExitOk;
}

}  // namespace gem::dump
