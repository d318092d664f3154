// gem-dump trace: the replay's frames and inner messages, one per line,
// without applying them: "frame OFFSET COMMAND TICK SIZE" and, for packets,
// "  msg TYPE SIZE" in the order the parser applies them.
#include <fmt/core.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/demo_stream.h"
#include "core/exit_codes.h"
#include "core/inner_messages.h"
#include "core/proto_wire.h"
#include "proto/demo.pb.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"

namespace gem::dump {
namespace {

void TracePacket(const uint8_t* data, size_t size) {
  std::vector<InnerMessage> messages;
  std::string payloads;
  Status s = SplitPacket(data, size, &messages, &payloads);
  for (const InnerMessage& m : messages) {
    fmt::print("  msg\t{}\t{}\n", m.type, m.size);
  }
  if (!s.ok()) fmt::print("  error\t{}\n", s.ToString().c_str());
}

}  // namespace

int RunTrace(const Args& args) {
  if (args.size() != 1) {
    fmt::print(stderr, "usage: gem-dump trace REPLAY.dem\n");
    return cli::kExitUsage;
  }
  ReplayInput input;
  if (int rc = cli::OpenReplay("gem-dump", args[0], &input); rc != 0) return rc;
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
      if (FindBytesField(f.data, f.size, 3, &d, &n, &found) && found) TracePacket(d, n);
    } else if (f.command == kDemFullPacket &&
               full.ParseFromArray(f.data, static_cast<int>(f.size))) {
      const std::string& d = full.packet().data();
      TracePacket(reinterpret_cast<const uint8_t*>(d.data()), d.size());
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
