"""Who recorded a replay: meta's recording (server or client) and, for a
client's recording, its recorder (docs/recordings.md).

- Every fixture the server recorded (SourceTV, GOTV: the header's client
  name says SourceTV) is a 'server' recording with no recorder keys.
- dota2_haste_nekit, a Dota client's recording, is a 'client' one: its
  recorder's name is the header's client name, and its steam id is the
  steam id the players table (the entities' m_steamID) gives the player of
  that name. Neither expected value comes from the userinfo entry that
  gem reads the recorder from."""
import os
import sqlite3
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import MODERN, NEKIT, index_of, need_some  # noqa: E402


class RecordingTest(unittest.TestCase):
    def meta(self, db):
        con = sqlite3.connect(db)
        meta = dict(con.execute("SELECT key, value FROM meta"))
        players = con.execute("SELECT name, steam_id FROM players").fetchall()
        con.close()
        return meta, players

    def test_server_recordings_have_no_recorder(self):
        need_some(MODERN)
        for stem in MODERN:
            if stem == NEKIT:
                continue
            with self.subTest(replay=stem):
                db = index_of(stem)
                if db is None:
                    continue
                meta, _ = self.meta(db)
                self.assertIn("SourceTV", meta["client"])
                self.assertEqual(meta["recording"], "server")
                for key in ("recorder_slot", "recorder_name", "recorder_steam_id"):
                    self.assertNotIn(key, meta)

    def test_a_client_recording_names_its_recorder(self):
        db = index_of(NEKIT)
        if db is None:
            self.skipTest("fixture missing")
        meta, players = self.meta(db)
        self.assertEqual(meta["recording"], "client")
        self.assertEqual(meta["recorder_name"], meta["client"])  # "Nekit"
        steam = [s for n, s in players if n == meta["client"]]
        self.assertEqual(len(steam), 1)
        self.assertEqual(meta["recorder_steam_id"], steam[0])
        self.assertGreaterEqual(meta["recorder_slot"], 0)


if __name__ == "__main__":
    junit.main()
