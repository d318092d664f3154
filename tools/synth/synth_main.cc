// gem-synth: writes a long synthetic Source 2 replay on top of a real
// replay's signon, and the ground truth it encoded.
//
//   gem-synth --from FIXTURE.dem --minutes N [--seed S] [--truth FILE]
//             [--combat-truth FILE] [--match-truth FILE] [--full-interval TICKS]
//             [--truth-interval TICKS] [--flaws] [--quiet] OUT.dem
//   gem-synth --from CS2_FIXTURE.dem [--rounds N] [--no-round-events] [--seed S]
//             [--match-truth FILE] [--flaws] [--quiet] OUT.dem
//
// Prints what it wrote as key<TAB>value lines. The replay is written to a
// temporary file beside OUT.dem and renamed when complete. Exit codes as
// gem-index: 64 usage, 65 a fixture it cannot use, 66 fixture missing,
// 73 cannot create the output, 74 I/O error.
#include <fmt/core.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "core/util/exit_codes.h"
#include "tools/synth/cs2_match.h"
#include "tools/synth/match.h"
#include "tools/synth/replay_writer.h"
#include "tools/synth/world.h"

namespace {

void Usage(FILE* out) {
  fmt::print(out,
             "usage: gem-synth --from FIXTURE.dem --minutes N [--seed S] [--truth FILE]\n"
             "                 [--combat-truth FILE] [--match-truth FILE] [--full-interval TICKS]\n"
             "                 [--truth-interval TICKS] [--flaws] [--vision] [--no-event-list]\n"
             "                 [--retype OLD=NEW] [--damage-packet TICK] [--quiet]\n"
             "                 OUT.dem\n"
             "       gem-synth --from CS2_FIXTURE.dem [--rounds N] [--no-round-events]\n"
             "                 [--no-hurt-events] [--restart-after-round R] [--seed S]\n"
             "                 [--match-truth FILE] [--no-event-list] [--pov SLOT]\n"
             "                 [--drop-event NAME] [--flaws] [--quiet] OUT.dem\n"
             "\n"
             "Writes OUT.dem: FIXTURE's signon and first packet, then N minutes of synthetic\n"
             "play (moving heroes and creeps, creep waves, arrays growing and shrinking,\n"
             "modifiers, combat log, full packets). The same seed gives the same file.\n"
             "\n"
             "  --truth FILE           the state of a sample of entities every\n"
             "                         --truth-interval ticks (default 300), JSON lines\n"
             "  --combat-truth FILE    every combat-log entry written, JSON lines: the\n"
             "                         tick and each field set, by its protobuf name\n"
             "  --match-truth FILE     each player's gold, XP, kills, ... and the game clock\n"
             "                         every --truth-interval ticks, and every kill, JSON lines\n"
             "  --full-interval TICKS  ticks between full packets (default 1800)\n"
             "  --flaws                20 s after the horn: a purchase of an item no name\n"
             "                         names, a hero slot naming no entity, an item with\n"
             "                         no name (what readers must survive)\n"
             "  --vision               Dota: teams use Smoke of Deceit about every 90 s from\n"
             "                         a minute after the horn, and wards die as the game\n"
             "                         has them (killed: a ward death in the combat log;\n"
             "                         expired: dying without one); their truth in the\n"
             "                         match truth\n"
             "  --no-event-list        leave the game-event descriptor list out of the\n"
             "                         signon (the events keep only their ids)\n"
             "  --retype OLD=NEW       the send tables name the field type OLD as NEW,\n"
             "                         a type no reader knows (as the next patch may\n"
             "                         bring); the packets still encode it as OLD\n"
             "  --damage-packet TICK   the delta packet at TICK loses the second half of\n"
             "                         its entity data\n"
             "  --quiet                print nothing on success\n"
             "\n"
             "From a CS2 fixture: a match of N rounds (default 24; cs2_match.h), its truth\n"
             "in --match-truth; --no-round-events leaves out the round and blind events,\n"
             "--no-round-start-events round_start alone, --no-hurt-events player_hurt,\n"
             "--drop-event NAME every game event NAME (again for more);\n"
             "--restart-after-round R restarts the game once round R has ended (as after\n"
             "a knife round), and N rounds follow. --pov SLOT writes the client's recording\n"
             "of the player in SLOT: his teammates always in view, enemies within 1500\n"
             "units, no full packets, and no baseline of the decoy projectile's class.\n"
             "\n"
             "From a Deadlock fixture: its user messages, modifiers and upgrades too\n"
             "(deadlock_events.h), and the post-match record at the end; --no-post-match\n"
             "stops the recording before it, as most recordings stop. Twelve players,\n"
             "troopers, neutrals and kills make a standard match's traffic\n"
             "(deadlock_crowd.h): --troopers N a wave, lane and team (default 26: about 458 MB\n"
             "in 36 minutes, boon's standard match); --light keeps the fixture's one player\n"
             "and no crowd.\n");
}

bool ParseNumber(const char* text, double* out) {
  char* end = nullptr;
  *out = std::strtod(text, &end);
  return end != text && *end == '\0' && *out >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gem;
  synth::MatchOptions options;
  synth::Cs2Options cs2;
  std::string from, out, truth_path, combat_truth_path, match_truth_path;
  bool quiet = false, have_minutes = false, no_event_list = false;
  std::pair<std::string, std::string> retype;
  int64_t damaged_tick = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](double* x) {
      if (i + 1 >= argc || !ParseNumber(argv[i + 1], x)) {
        fmt::print(stderr, "gem-synth: {} needs a number\n", a);
        std::exit(cli::kExitUsage);
      }
      ++i;
    };
    double x = 0;
    if (a == "--help" || a == "-h") {
      Usage(stdout);
      return 0;
    } else if (a == "--from" && i + 1 < argc) {
      from = argv[++i];
    } else if (a == "--truth" && i + 1 < argc) {
      truth_path = argv[++i];
    } else if (a == "--combat-truth" && i + 1 < argc) {
      combat_truth_path = argv[++i];
    } else if (a == "--match-truth" && i + 1 < argc) {
      match_truth_path = argv[++i];
    } else if (a == "--minutes") {
      value(&options.minutes);
      have_minutes = true;
    } else if (a == "--seed") {
      value(&x);
      options.seed = static_cast<uint64_t>(x);
    } else if (a == "--full-interval") {
      value(&x);
      options.full_packet_interval = static_cast<uint32_t>(x) & ~1u;
    } else if (a == "--truth-interval") {
      value(&x);
      options.truth_interval = static_cast<uint32_t>(x) & ~1u;
    } else if (a == "--rounds") {
      value(&x);
      cs2.rounds = std::max(1, static_cast<int>(x));
    } else if (a == "--restart-after-round") {
      value(&x);
      cs2.restart_after = std::max(1, static_cast<int>(x));
    } else if (a == "--no-round-events") {
      cs2.round_events = false;
    } else if (a == "--pov") {
      value(&x);
      cs2.pov_slot = static_cast<int32_t>(x);
    } else if (a == "--no-hurt-events") {
      cs2.hurt_events = false;
    } else if (a == "--drop-event" && i + 1 < argc) {
      cs2.dropped_events.push_back(argv[++i]);
    } else if (a == "--no-event-list") {
      no_event_list = true;
    } else if (a == "--damage-packet") {
      value(&x);
      damaged_tick = static_cast<int64_t>(x);
    } else if (a == "--retype" && i + 1 < argc) {
      const std::string r = argv[++i];
      const size_t eq = r.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == r.size()) {
        fmt::print(stderr, "gem-synth: --retype takes OLD=NEW, not {}\n", r);
        return cli::kExitUsage;
      }
      retype = {r.substr(0, eq), r.substr(eq + 1)};
    } else if (a == "--no-round-start-events") {
      cs2.round_start_events = false;
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a == "--flaws") {
      options.flaws = true;
    } else if (a == "--vision") {
      options.vision = true;
    } else if (a == "--no-post-match") {
      options.post_match_record = false;
    } else if (a == "--light") {
      options.deadlock_troopers = 0;
    } else if (a == "--troopers") {
      value(&x);
      options.deadlock_troopers = static_cast<int>(std::min(x, 100.0));
    } else if (a[0] == '-' || !out.empty()) {
      fmt::print(stderr, "gem-synth: unexpected argument {}\n", a);
      Usage(stderr);
      return cli::kExitUsage;
    } else {
      out = a;
    }
  }
  if (from.empty() || out.empty()) {
    Usage(stderr);
    return cli::kExitUsage;
  }

  synth::World world;
  Status s = world.Load(from);
  if (!s.ok()) {
    fmt::print(stderr, "gem-synth: {}: {}\n", from, s.ToString().c_str());
    return cli::ExitCodeFor(s);
  }
  if (no_event_list) world.LeaveOutEventList();
  if (!retype.first.empty()) world.Retype(retype.first, retype.second);
  if (damaged_tick >= 0) world.DamagePacketAt(static_cast<uint32_t>(damaged_tick));
  const bool is_cs2 = world.ClassId("CCSGameRulesProxy") >= 0;
  if (!is_cs2 && !have_minutes) {
    Usage(stderr);
    return cli::kExitUsage;
  }
  cs2.seed = options.seed;
  cs2.flaws = options.flaws;
  FILE* truth = nullptr;
  FILE* combat_truth = nullptr;
  FILE* match_truth = nullptr;
  const std::pair<std::string*, FILE**> outputs[] = {
      {&truth_path, &truth}, {&combat_truth_path, &combat_truth}, {&match_truth_path, &match_truth}};
  for (auto [path, file] : outputs) {
    if (!path->empty() && (*file = std::fopen(path->c_str(), "w")) == nullptr) {
      fmt::print(stderr, "gem-synth: cannot create {}\n", path->c_str());
      return cli::kExitCantCreate;
    }
  }
  const std::string temp = out + ".tmp" + std::to_string(getpid());
  synth::ReplayWriter writer;
  synth::Match match(&world, options);
  synth::Cs2Match cs2_match(&world, cs2);
  s = writer.Open(temp);
  if (s.ok()) {
    s = is_cs2 ? cs2_match.Run(&writer, match_truth)
               : match.Run(&writer, truth, combat_truth, match_truth);
  }
  if (s.ok()) s = writer.Close();
  for (auto [path, file] : outputs) {
    if (*file != nullptr && std::fclose(*file) != 0 && s.ok()) {
      s = Status::IoError("cannot write " + *path);
    }
  }
  if (s.ok() && std::rename(temp.c_str(), out.c_str()) != 0) {
    s = Status::IoError("cannot rename " + temp + " to " + out);
  }
  if (!s.ok()) {
    std::remove(temp.c_str());
    for (auto [path, file] : outputs) {
      if (!path->empty()) std::remove(path->c_str());
    }
    fmt::print(stderr, "gem-synth: {}\n", s.ToString().c_str());
    return cli::ExitCodeFor(s);
  }
  if (!quiet && is_cs2) {
    const synth::Cs2Counters& c = cs2_match.counters();
    fmt::print("bytes\t{}\nlast_tick\t{}\nrounds\t{}\nshots\t{}\ndamages\t{}\nkills\t{}\n",
               writer.bytes(), c.last_tick, c.rounds, c.shots, c.damages, c.kills);
    fmt::print("grenades\t{}\nflashes\t{}\nbomb_events\t{}\n", c.grenades, c.flashes,
               c.bomb_events);
    return 0;
  }
  if (!quiet) {
    const synth::WorldCounters& w = world.counters();
    const synth::MatchCounters& m = match.counters();
    fmt::print("bytes\t{}\n", writer.bytes());
    fmt::print("first_tick\t{}\nlast_tick\t{}\n", world.start_tick(), m.last_tick);
    fmt::print("packets\t{}\nfull_packets\t{}\n", w.packets, w.full_packets);
    fmt::print("field_changes\t{}\n", w.field_changes);
    fmt::print("created_values\t{}\n", w.created_values);
    fmt::print("entities_created\t{}\nentities_deleted\t{}\nentities_live\t{}\n", w.created,
               w.deleted, world.entities().size());
    fmt::print("max_live\t{}\n", w.max_live);
    fmt::print("string_entries\t{}\n", w.string_entries);
    fmt::print("modifiers_added\t{}\nmodifiers_removed\t{}\n", m.modifiers_added,
               m.modifiers_removed);
    fmt::print("wearable_changes\t{}\n", m.wearable_changes);
    fmt::print("combat_log\t{}\n", m.combat_log);
    fmt::print("truth_entities\t{}\n", m.truth_entities);
    fmt::print("kills\t{}\n", m.kills);
    if (options.vision) fmt::print("smokes\t{}\n", m.smokes);
    fmt::print("purchases\t{}\nlevel_ups\t{}\n", m.purchases, m.level_ups);
    fmt::print("objectives\t{}\ndraft_actions\t{}\n", m.objectives, m.draft_actions);
  }
  return 0;
}
