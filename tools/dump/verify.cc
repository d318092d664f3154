#include "tools/dump/verify.h"

#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/util/exit_codes.h"
#include "core/parser/parser.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"

namespace gem::dump {
namespace {

using FieldValues = std::vector<std::pair<uint32_t, Value>>;

// A state's values by field id (strings point into the state).
class Collect : public FieldState::Visitor {
 public:
  explicit Collect(FieldValues* out) : out_(out) {}
  void Visit(uint32_t field_id, const Value& value) override {
    out_->emplace_back(field_id, value);
  }

 private:
  FieldValues* out_;
};

FieldValues ValuesOf(const FieldState& state, const ClassFields& fields) {
  FieldValues values;
  Collect collect(&values);
  state.VisitAll(fields.layout(), &collect);
  std::sort(values.begin(), values.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return values;
}

std::string Text(const Value& v) {
  if (v.is_none()) return "(none)";
  std::string s;
  v.AppendJson(&s);
  return s;
}

std::string Quoted(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

class Checker {
 public:
  Checker(std::FILE* out, VerifyCounts* counts) : out_(out), counts_(counts) {}

  void CompareEntities(const EntityManager& live, const std::vector<SnapshotEntity>& snapshot,
                       const TickInfo& tick) {
    tick_ = tick.tick;
    std::vector<const SnapshotEntity*> by_index(EntityManager::kMaxEntities, nullptr);
    for (const SnapshotEntity& s : snapshot) by_index[s.index] = &s;
    for (int32_t i = 0; i < EntityManager::kMaxEntities; ++i) {
      const Entity* e = live.Get(i);
      const SnapshotEntity* s = by_index[i];
      if (e == nullptr && s == nullptr) continue;
      if (s == nullptr) {
        // An entity out of the PVS is not restated; one in it must be.
        if (e->active) Mismatch(i, e->fields, "in the deltas' state, not in the full packet");
        continue;
      }
      if (e == nullptr) {
        Mismatch(i, s->fields, "in the full packet, not in the deltas' state");
        continue;
      }
      if (e->class_id != s->class_id || e->serial != s->serial) {
        Mismatch(i, e->fields,
                 "class " + std::to_string(e->class_id) + " serial " + std::to_string(e->serial) +
                     " in the deltas' state, class " + std::to_string(s->class_id) + " serial " +
                     std::to_string(s->serial) + " in the full packet");
        continue;
      }
      ++counts_->entities;
      CompareFields(i, *e->fields, ValuesOf(e->state, *e->fields),
                    ValuesOf(s->state, *e->fields));
    }
  }

  void CompareTables(const StringTables& live, const std::vector<SnapshotTable>& snapshot,
                     const TickInfo& tick) {
    tick_ = tick.tick;
    for (const SnapshotTable& t : snapshot) {
      const StringTable* table = live.Find(t.name);
      const std::string where = "string table " + std::string(t.name);
      if (table == nullptr) {
        Line(where + ": in the full packet, not in the deltas' state");
        continue;
      }
      ++counts_->tables;
      if (table->size() != t.items.size()) {
        Line(where + ": " + std::to_string(table->size()) + " entries in the deltas' state, " +
             std::to_string(t.items.size()) + " in the full packet");
      }
      const size_t n = std::min(table->size(), t.items.size());
      for (size_t k = 0; k < n; ++k) {
        ++counts_->entries;
        const StringTableEntry& e = table->entry(k);
        const SnapshotTable::Item& item = t.items[k];
        if (e.name != item.str) {
          Line(where + " entry " + std::to_string(k) + ": name " + Quoted(e.name) +
               " in the deltas' state, " + Quoted(item.str) + " in the full packet");
        } else if (item.has_data ? e.data != item.data : !e.data.empty()) {
          Line(where + " entry " + std::to_string(k) + " " + Quoted(e.name) + ": " +
               std::to_string(e.data.size()) + " bytes of data in the deltas' state, " +
               std::to_string(item.data.size()) + " different ones in the full packet");
        }
      }
    }
  }

 private:
  void CompareFields(int32_t index, const ClassFields& fields, const FieldValues& deltas,
                     const FieldValues& full) {
    size_t a = 0, b = 0;
    while (a < deltas.size() || b < full.size()) {
      const uint32_t ida = a < deltas.size() ? deltas[a].first : UINT32_MAX;
      const uint32_t idb = b < full.size() ? full[b].first : UINT32_MAX;
      const uint32_t id = std::min(ida, idb);
      const Value none;
      const Value& va = ida == id ? deltas[a].second : none;
      const Value& vb = idb == id ? full[b].second : none;
      if (ida == id) ++a;
      if (idb == id) ++b;
      ++counts_->fields;
      if (va.SameAs(vb)) continue;
      Mismatch(index, &fields,
               "field " + fields.text(id).name + ": " + Text(va) + " in the deltas' state, " +
                   Text(vb) + " in the full packet");
    }
  }

  void Mismatch(int32_t index, const ClassFields* fields, const std::string& what) {
    const std::string cls = fields != nullptr ? fields->serializer()->name : "?";
    Line("entity " + std::to_string(index) + " (" + cls + ") " + what);
  }

  void Line(const std::string& what) {
    ++counts_->mismatches;
    fmt::print(out_, "tick {}: {}\n", tick_, what);
  }

  std::FILE* out_;
  VerifyCounts* counts_;
  uint32_t tick_ = 0;
};

}  // namespace

Status Verify(const uint8_t* data, size_t size, std::FILE* out, VerifyCounts* counts,
              const std::function<void(EntityManager&)>& before_check,
              const std::function<void(uint64_t)>& consumed) {
  MemorySource source(data, size);
  return Verify(&source, out, counts, before_check, consumed);
}

Status Verify(ReplaySource* source, std::FILE* out, VerifyCounts* counts,
              const std::function<void(EntityManager&)>& before_check,
              const std::function<void(uint64_t)>& consumed) {
  *counts = VerifyCounts();
  Checker checker(out, counts);
  Parser* parser = nullptr;
  std::vector<SnapshotEntity> snapshot;
  bool first_tables = true;
  ParserOptions options;
  options.consumed = consumed;
  options.full_packet = [&](const PacketEntities& msg, const TickInfo& tick) -> Status {
    EntityManager& live = parser->mutable_entities();
    if (before_check) before_check(live);
    // Like with like: a full update of another server tick than the
    // deltas' state (a client's recording re-baselines mid-stream, a tick
    // or two ahead) is not that state restated. Reported, not compared.
    if (msg.server_tick >= 0 && live.state_server_tick() >= 0 &&
        msg.server_tick != live.state_server_tick()) {
      ++counts->rebaselines;
      std::fprintf(out,
                   "tick %u: a full update of server tick %lld over the deltas' state of server "
                   "tick %lld: a re-baseline, not compared\n",
                   tick.tick, static_cast<long long>(msg.server_tick),
                   static_cast<long long>(live.state_server_tick()));
      return Status::Ok();
    }
    GEM_RETURN_IF_ERROR(live.DecodeSnapshot(msg, &snapshot));
    ++counts->full_packets;
    checker.CompareEntities(live, snapshot, tick);
    return Status::Ok();
  };
  options.full_packet_tables = [&](const std::vector<SnapshotTable>& tables,
                                   const TickInfo& tick) -> Status {
    // The first full packet builds the state; the later ones restate it.
    if (first_tables) {
      first_tables = false;
      return Status::Ok();
    }
    checker.CompareTables(parser->string_tables(), tables, tick);
    return Status::Ok();
  };
  Parser p(nullptr, options);
  parser = &p;
  GEM_RETURN_IF_ERROR(p.Parse(source));
  // The packets that did not decode to their end, as the decode_faults
  // table has them.
  for (const DecodeFault& f : p.entities().faults()) {
    ++counts->decode_faults;
    // (No entity: the reason says where, the packet's end or its whole.)
    std::string where = f.entity < 0             ? std::string()
                        : f.class_name.empty() ? fmt::format(" at entity {}", f.entity)
                                               : fmt::format(" at entity {} ({})", f.entity, f.class_name);
    if (!f.field.empty()) where += fmt::format(", field {}", f.field);
    fmt::print(out, "tick {}: decode fault in a {} packet{}, bit {}: {}; {} entities stale, {}\n",
               f.tick, f.full_packet ? "full" : "delta", where, f.bit, f.reason, f.stale.size(),
               f.refreshed ? fmt::format("refreshed at tick {}", f.refreshed_tick)
                           : std::string("never refreshed"));
  }
  return Status::Ok();
}

int RunVerify(const Args& args) {
  if (args.size() != 1) {
    fmt::print(stderr, "usage: gem-dump verify REPLAY.dem\n");
    return cli::kExitUsage;
  }
  ReplayInput input;
  if (int rc = cli::OpenReplay("gem-dump", args[0], &input); rc != 0) return rc;
  VerifyCounts c;
  // The replay is read once, front to back: pages behind the reader go.
  Status s = Verify(input.source(), stdout, &c, nullptr, cli::DropBehind(&input));
  if (!s.ok()) s = input.FailureOf(s);
  if (!s.ok()) {
    fmt::print(stderr, "gem-dump: {}: {}\n", args[0], s.ToString().c_str());
    return cli::ExitCodeFor(s);
  }
  fmt::print(
      "verify: {} full packets checked: {} entities, {} field values, {} string tables, "
      "{} entries; {} mismatches; {} decode faults{}\n",
      c.full_packets, c.entities, c.fields, c.tables, c.entries, c.mismatches, c.decode_faults,
      c.rebaselines == 0 ? std::string()
                         : fmt::format("; {} re-baseline{} (a full update of another server tick "
                                       "than the deltas' state: not compared)",
                                       c.rebaselines, c.rebaselines == 1 ? "" : "s"));
  if (c.full_packets == 0) {
    fmt::print(stderr, "gem-dump: no full packet after the first restates the deltas' state{}: "
               "nothing was checked\n",
               c.rebaselines == 0 ? "" : " (only re-baselines)");
  }
  return c.mismatches == 0 && c.decode_faults == 0 ? cli::kExitOk : 1;
}

}  // namespace gem::dump
