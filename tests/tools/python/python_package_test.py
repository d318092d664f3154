"""The gem Python package, gemdb, as a user installs and uses it: installed
offline into a fresh venv (Debian's /usr/bin/python3, its system
packages visible for pandas) with pip from tools/python, then the README's
three lines run there, from replay to DataFrame, in a directory of their
own with no GEM_* variable set; beside a package named gem (gem-dota's
name), each import finds its own. The frame must hold what SQLite and libgem
answer for the same query here; gem-index's failure comes as IndexFailed
with its exit code and message; a sqlite3 without enable_load_extension,
and a missing pandas, each get one clear error naming the fix."""
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402

from gemtest import AUTO, FIXTURES, GEM_INDEX, LIB, RUNFILES, TMP, connect, replay_path  # noqa: E402

PACKAGE = os.path.join(RUNFILES, "tools", "python")
_venv = {}


def venv_python():
    """A venv with gemdb installed from tools/python (made once)."""
    if "python" in _venv:
        return _venv["python"]
    env_dir = os.path.join(TMP, "venv")
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", env_dir],
                   check=True)
    # pip builds in the source tree: a copy, not the read-only runfiles.
    source = os.path.join(TMP, "gem-python")
    shutil.rmtree(source, ignore_errors=True)
    shutil.copytree(PACKAGE, source, symlinks=False)
    env = dict(os.environ, GEM_EXTENSION=LIB, GEM_INDEX=GEM_INDEX, HOME=TMP,
               PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
    python = os.path.join(env_dir, "bin", "python")
    got = subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-build-isolation",
                          "--quiet", source], env=env, capture_output=True, text=True)
    if got.returncode != 0:
        raise AssertionError("pip install failed: %s%s" % (got.stdout, got.stderr))
    _venv["python"] = python
    return python


def run_in_venv(code, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GEM_")}
    env.pop("PYTHONPATH", None)
    return subprocess.run([venv_python(), "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                          capture_output=True, text=True)


class PythonPackage(unittest.TestCase):
    def setUp(self):
        if not os.path.exists(replay_path(AUTO)):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (AUTO, FIXTURES))
        self.work = os.path.join(TMP, self.id().rsplit(".", 1)[-1])
        os.makedirs(self.work)

    def test_three_lines_from_replay_to_dataframe(self):
        sql = ("SELECT tick, class, field, value FROM gem_state(600) "
               "WHERE field = 'm_iHealth' ORDER BY entity")
        got = run_in_venv('''
            import gemdb, json, sys
            out = gemdb.index(sys.argv[1] if len(sys.argv) > 1 else %r, "match.db")
            df = gemdb.frame("match.db", %r)
            print(json.dumps({"module": gemdb.__file__, "columns": list(df.columns),
                              "rows": df.values.tolist(), "type": type(df).__name__}))
        ''' % (replay_path(AUTO), sql), self.work)
        self.assertEqual(got.returncode, 0, got.stderr)
        import json
        result = json.loads(got.stdout)
        # The installed copy, not the checkout's.
        self.assertIn(os.path.join("venv", "lib"), result["module"])
        self.assertEqual(result["type"], "DataFrame")
        self.assertEqual(result["columns"], ["tick", "class", "field", "value"])
        con = connect(os.path.join(self.work, "match.db"))
        want = [list(r) for r in con.execute(sql)]
        self.assertGreater(len(want), 10)
        self.assertEqual(result["rows"], want)

    def test_a_live_index_says_how_far_it_is(self):
        """An index whose live run was killed mid-follow: gemdb.live names
        its last commit's tick, gemdb.frame reads the state there, and a
        finished index is not live."""
        import signal
        import time
        data = open(replay_path(AUTO), "rb").read()
        growing = os.path.join(self.work, "growing.dem")
        with open(growing, "wb") as f:
            f.write(data[:len(data) * 3 // 5])
        db = os.path.join(self.work, "live.db")
        proc = subprocess.Popen([GEM_INDEX, "--quiet", "--follow", "--idle-seconds", "3600",
                                 "--commit-seconds", "0.5", growing, db])
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        tick, deadline = None, time.time() + 60
        while tick is None and time.time() < deadline:
            time.sleep(0.05)
            try:
                con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
                row = con.execute("SELECT value FROM meta WHERE key = 'live_tick'").fetchone()
                con.close()
                tick = row[0] if row and row[0] is not None and row[0] >= 30 else None
            except sqlite3.Error:
                pass
        self.assertIsNotNone(tick)
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        finished = os.path.join(self.work, "finished.db")
        subprocess.run([GEM_INDEX, "--quiet", replay_path(AUTO), finished], check=True)
        got = run_in_venv('''
            import gemdb, json
            state = gemdb.live(%r)
            df = gemdb.frame(%r, "SELECT count(*) AS n FROM gem_state(?)", (state["tick"],))
            print(json.dumps({"live": state, "rows": int(df["n"][0]),
                              "finished": gemdb.live(%r)}))
        ''' % (db, db, finished), self.work)
        self.assertEqual(got.returncode, 0, got.stderr)
        import json
        result = json.loads(got.stdout)
        con = connect(db)
        meta = dict(con.execute("SELECT key, value FROM meta"))
        want = con.execute("SELECT count(*) FROM gem_state(?)", (meta["live_tick"],)).fetchone()[0]
        con.close()
        self.assertEqual(result["live"]["tick"], meta["live_tick"])
        self.assertGreaterEqual(result["live"]["tick"], tick)
        self.assertIsNone(result["live"]["error"])
        self.assertEqual(result["live"]["at_end"], [])
        self.assertIn("draft", result["live"]["when_closed"])
        self.assertEqual(result["live"]["rewritten"], ["match_info", "players"])
        self.assertEqual(result["rows"], want)
        self.assertGreater(want, 1000)
        self.assertIsNone(result["finished"])

    def test_params_and_query_without_pandas(self):
        db = os.path.join(self.work, "m.db")
        subprocess.run([GEM_INDEX, "--quiet", replay_path(AUTO), db], check=True)
        got = run_in_venv('''
            import sys
            sys.modules["pandas"] = None  # as if it were not installed
            import gemdb
            print(gemdb.query(%r, "SELECT value FROM meta WHERE key = ?", ("game",)))
            try:
                gemdb.frame(%r, "SELECT 1")
            except gemdb.GemError as e:
                print("error:", e)
        ''' % (db, db), self.work)
        self.assertEqual(got.returncode, 0, got.stderr)
        lines = got.stdout.splitlines()
        self.assertEqual(lines[0], "[{'value': 'dota2'}]")
        self.assertIn("gemdb.frame needs pandas (Debian: apt install python3-pandas)", lines[1])

    def test_gem_index_failure_is_an_exception_with_its_code(self):
        junk = os.path.join(self.work, "junk.dem")
        with open(junk, "wb") as f:
            f.write(b"not a replay at all")
        got = run_in_venv('''
            import gemdb
            for replay, out in ((%r, "a.db"), ("missing.dem", "b.db")):
                try:
                    gemdb.index(replay, out)
                    print("no exception")
                except gemdb.IndexFailed as e:
                    print(e.exit_code, e.message)
            try:
                gemdb.index(%r, "c.db", keyframe_seconds="x")
            except gemdb.IndexFailed as e:
                print(e.exit_code)
        ''' % (junk, junk), self.work)
        self.assertEqual(got.returncode, 0, got.stderr)
        lines = got.stdout.splitlines()
        self.assertTrue(lines[0].startswith("65 "), lines)
        self.assertIn("does not start with PBDEMS2", lines[0])
        self.assertTrue(lines[1].startswith("66 "), lines)
        self.assertEqual(lines[2], "64")
        self.assertFalse(os.path.exists(os.path.join(self.work, "a.db")))

    def test_a_sqlite3_that_cannot_load_extensions_is_named(self):
        db = os.path.join(self.work, "m.db")
        subprocess.run([GEM_INDEX, "--quiet", replay_path(AUTO), db], check=True)
        # What pyenv's and some other builds' sqlite3 module looks like (a C
        # type's attribute cannot be deleted: gemdb is handed a stand-in).
        got = run_in_venv('''
            import sqlite3, gemdb
            class Connection:  # no enable_load_extension
                pass
            class Stub:
                Connection = Connection
            gemdb.sqlite3 = Stub
            try:
                gemdb.connect(%r)
            except gemdb.GemError as e:
                print(e)
        ''' % db, self.work)
        self.assertEqual(got.returncode, 0, got.stderr)
        self.assertIn("cannot load extensions", got.stdout)
        self.assertIn("/usr/bin/python3", got.stdout)

    def test_a_package_named_gem_beside_it_takes_nothing_from_it(self):
        # gem-dota installs a package named gem. Installed in the same venv
        # (a stand-in with gem-dota's name and nothing of ours), each import
        # finds its own package, whichever was installed last.
        other = os.path.join(self.work, "gem-dota")
        os.makedirs(os.path.join(other, "gem"))
        with open(os.path.join(other, "gem", "__init__.py"), "w") as f:
            f.write("WHO = 'gem-dota'\n")
        with open(os.path.join(other, "pyproject.toml"), "w") as f:
            f.write('[build-system]\nrequires = ["setuptools>=61"]\n'
                    'build-backend = "setuptools.build_meta"\n'
                    '[project]\nname = "gem-dota-standin"\nversion = "1.0"\n'
                    '[tool.setuptools]\npackages = ["gem"]\n')
        python = venv_python()
        env = dict(os.environ, HOME=TMP, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
        got = subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-build-isolation",
                              "--quiet", other], env=env, capture_output=True, text=True)
        self.assertEqual(got.returncode, 0, got.stdout + got.stderr)
        self.addCleanup(subprocess.run, [python, "-m", "pip", "uninstall", "--yes", "--quiet",
                                         "gem-dota-standin"], env=env, check=True)
        db = os.path.join(self.work, "m.db")
        subprocess.run([GEM_INDEX, "--quiet", replay_path(AUTO), db], check=True)
        got = run_in_venv('''
            import gem, gemdb
            print(gem.WHO)
            print(hasattr(gem, "frame"))
            print(gemdb.query(%r, "SELECT value FROM meta WHERE key = 'game'"))
        ''' % db, self.work)
        self.assertEqual(got.returncode, 0, got.stderr)
        self.assertEqual(got.stdout.splitlines(), ["gem-dota", "False", "[{'value': 'dota2'}]"])


if __name__ == "__main__":
    junit.main()
