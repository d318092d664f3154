// gem-bench's CS2 peer: demoparser2 (npm @laihoe/demoparser2's build for
// linux x64 glibc, @laihoe/demoparser2-linux-x64-gnu, at the
// version package-lock.json pins; `npm ci` here, which tools/setup.sh
// runs), timed by gem-bench as a whole process beside gem's own.
//
//   node demoparser2.js ticks REPLAY.dem   parseTicks of the props gem's CS2
//                                          timeline holds, every player, every tick
//   node demoparser2.js events REPLAY.dem  parseEvents(["all"])
//
// Prints one line (the mode and how many rows came back) and exits 0; 1 on
// any error (the replay unreadable, the module missing), saying why.
'use strict';

// The timeline's columns (core/cs2/match_module.h) under demoparser2's
// names: position, view angles, health and life, team, armor, money, the
// weapon in hand, kills, deaths and assists.
const kTimelineProps = [
  'X', 'Y', 'Z', 'pitch', 'yaw', 'health', 'is_alive', 'team_num', 'armor_value', 'balance',
  'active_weapon_name', 'kills_total', 'deaths_total', 'assists_total',
];

function main(argv) {
  const [mode, replay] = argv;
  if ((mode !== 'ticks' && mode !== 'events') || !replay || argv.length !== 2) {
    process.stderr.write('usage: node demoparser2.js ticks|events REPLAY.dem\n');
    return 64;
  }
  let parser;
  try {
    parser = require('@laihoe/demoparser2-linux-x64-gnu');
  } catch (e) {
    process.stderr.write(`demoparser2.js: the module is missing (npm ci in ${__dirname}): ${e.message}\n`);
    return 1;
  }
  try {
    const rows = mode === 'ticks' ? parser.parseTicks(replay, kTimelineProps)
                                  : parser.parseEvents(replay, ['all']);
    process.stdout.write(`demoparser2 ${mode} ${rows.length} rows\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`demoparser2.js: ${replay}: ${e.message || e}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
