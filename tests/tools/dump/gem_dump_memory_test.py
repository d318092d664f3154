"""gem-dump reads a replay once, front to back, and keeps its memory flat:
summary and state peak where parse does (each child's own peak, by wait4),
on a synthetic match long enough that keeping the replay's bytes resident
would show (before the fix summary held all of them: 67 MiB against
parse's 29 on the 30-minute replay)."""
import os
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402

from gemtest import AUTO, FIXTURES, GEM_DUMP, GEM_SYNTH, TMP, peak_kib, replay_path  # noqa: E402


class GemDumpMemory(unittest.TestCase):
    def test_summary_and_state_peak_where_parse_does(self):
        if not os.path.exists(replay_path(AUTO)):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (AUTO, FIXTURES))
        dem = os.path.join(TMP, "ten-minutes.dem")
        subprocess.run([GEM_SYNTH, "--from", replay_path(AUTO), "--minutes", "10", "--seed", "3",
                        "--quiet", dem], check=True)
        replay_kib = os.path.getsize(dem) // 1024
        self.assertGreater(replay_kib, 12 << 10, "the replay is large enough to show")
        code, parse, err = peak_kib([GEM_DUMP, "parse", dem])
        self.assertEqual(code, 0, err)
        for command in (["summary"], ["state", "--ticks", "9000"]):
            with self.subTest(command=command[0]):
                code, peak, err = peak_kib([GEM_DUMP] + command + [dem])
                self.assertEqual(code, 0, err)
                # Flat: well under the replay's own size above parse's peak.
                self.assertLess(peak, parse + replay_kib // 4,
                                "%s peaked at %d KiB, parse at %d KiB, the replay is %d KiB" %
                                (command[0], peak, parse, replay_kib))


if __name__ == "__main__":
    junit.main()
