// gem-dump state: entity states at requested ticks, as JSON lines.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

#include "core/demo_stream.h"
#include "tools/cli/exit_codes.h"
#include "tools/dump/commands.h"
#include "tools/dump/entity_json.h"
#include "tools/cli/replay_file.h"

namespace gem::dump {
namespace {

constexpr uint32_t kFinal = 4294967295u;

class StateSink : public Sink {
 public:
  explicit StateSink(std::vector<uint32_t> ticks) : ticks_(std::move(ticks)) {}
  void set_parser(const Parser* p) { parser_ = p; }

  // A snapshot is the state right after the first play packet (not a
  // signon packet) whose tick is at or past the requested tick.
  void OnFrameEnd(const TickInfo& t) override {
    if (t.command != kDemPacket && t.command != kDemFullPacket) return;
    if (t.tick == kFinal) return;
    while (next_ < ticks_.size() && ticks_[next_] <= t.tick) {
      Dump(ticks_[next_], t.tick, t.net_tick);
      ++next_;
    }
  }

  void Dump(uint32_t req_tick, uint32_t tick, uint32_t net_tick) {
    std::string out;
    const EntityManager& em = parser_->entities();
    for (int i = 0; i < EntityManager::kMaxEntities; ++i) {
      const Entity* e = em.Get(i);
      if (e == nullptr) continue;
      out.clear();
      AppendEntityJson(parser_->schema(), *e, req_tick, tick, net_tick, &out);
      std::fwrite(out.data(), 1, out.size(), stdout);
    }
  }

 private:
  const Parser* parser_ = nullptr;
  std::vector<uint32_t> ticks_;
  size_t next_ = 0;
};

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
        std::fprintf(stderr, "gem-dump: bad --ticks list '%s'\n", args[i].c_str());
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
    std::fputs("usage: gem-dump state [--ticks T1,T2,...] REPLAY.dem\n", stderr);
    return cli::kExitUsage;
  }
  StateSink sink(ticks);
  MappedFile file;
  if (int rc = cli::OpenReplay("gem-dump", path, &file); rc != 0) return rc;
  Parser parser(&sink);
  sink.set_parser(&parser);
  Status s = parser.Parse(file.data(), file.size());
  if (!s.ok()) {
    std::fprintf(stderr, "gem-dump: %s: %s\n", path.c_str(), s.ToString().c_str());
    return cli::ExitCodeFor(s);
  }
  if (parser.metadata().truncated) {
    std::fprintf(stderr, "gem-dump: %s: read up to the cut: %s\n", path.c_str(),
                 parser.metadata().truncation_reason.c_str());
  }
  uint32_t last = parser.metadata().last_tick < 0
                      ? 0
                      : static_cast<uint32_t>(parser.metadata().last_tick);
  sink.Dump(kFinal, last, parser.current().net_tick);
  return cli::kExitOk;
}

}  // namespace gem::dump
