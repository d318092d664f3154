// gem-dump state: entity states at requested ticks, as JSON lines.
#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

#include "core/input/demo_stream.h"
#include "core/util/exit_codes.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"
#include "tools/dump/entity_json.h"
#include "tools/dump/snapshot_sink.h"

namespace gem::dump {
namespace {

// Every live entity, as JSON lines.
void DumpEntities(const Parser& parser, uint32_t req_tick, uint32_t tick,
                  uint32_t net_tick) {
  std::string out;
  const EntityManager& em = parser.entities();
  for (int i = 0; i < EntityManager::kMaxEntities; ++i) {
    const Entity* e = em.Get(i);
    if (e == nullptr) continue;
    out.clear();
    AppendEntityJson(parser.schema(), *e, req_tick, tick, net_tick, &out);
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
}

bool ParseTicks(const std::string& text, std::vector<uint32_t>* out) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    uint32_t v = 0;
    auto res = std::from_chars(text.data() + pos, text.data() + comma, v);
    if (res.ec != std::errc() || res.ptr != text.data() + comma) return false;
    out->push_back(v);
    pos = comma + 1;
  }
  std::sort(out->begin(), out->end());
  return !out->empty();
}

}  // namespace

int RunState(const Args& args) {
  std::vector<uint32_t> ticks;
  std::string path;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--ticks" && i + 1 < args.size()) {
      if (!ParseTicks(args[++i], &ticks)) {
        fmt::print(stderr, "gem-dump: bad --ticks list '{}'\n", args[i]);
        return cli::kExitUsage;
      }
    } else if (path.empty() && args[i].rfind("--", 0) != 0) {
      path = args[i];
    } else {
      path.clear();
      break;
    }
  }
  if (path.empty()) {
    fmt::print(stderr, "usage: gem-dump state [--ticks T1,T2,...] REPLAY.dem\n");
    return cli::kExitUsage;
  }
  ReplayInput input;
  if (int rc = cli::OpenReplay("gem-dump", path, &input); rc != 0) return rc;
  const Parser* current = nullptr;
  SnapshotSink sink(ticks, [&](uint32_t req, uint32_t tick, uint32_t net) {
    DumpEntities(*current, req, tick, net);
  });
  ParserOptions options;
  options.consumed = cli::DropBehind(&input);  // one pass: pages behind it go
  Parser parser(&sink, options);
  current = &parser;
  Status s = parser.Parse(input.source());
  if (!s.ok()) s = input.FailureOf(s);
  if (!s.ok()) {
    fmt::print(stderr, "gem-dump: {}: {}\n", path, s.ToString().c_str());
    return cli::ExitCodeFor(s);
  }
  if (parser.metadata().truncated) {
    fmt::print(stderr, "gem-dump: {}: read up to the cut: {}\n", path,
               parser.metadata().truncation_reason.c_str());
  }
  uint32_t last = parser.metadata().last_tick < 0
                      ? 0
                      : static_cast<uint32_t>(parser.metadata().last_tick);
  DumpEntities(parser, kFinalSnapshot, last, parser.current().net_tick);
  return cli::kExitOk;
}

}  // namespace gem::dump
