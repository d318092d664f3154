"""gem-view's command line: opens the index or corpus folder, binds
127.0.0.1 (a free port unless --port), prints the URL, serves until
interrupted."""
import argparse
import os
import subprocess
import sys

from . import export, names
from .server import SCRIPTS, Server
from .source import IndexError_
from .source import open_source

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="gem-view", description="A local web viewer over a gem index (or a gem-corpus "
        "folder: its matches, each opening the viewer).")
    p.add_argument("index", help="INDEX.db, or a gem-corpus folder (with catalog.db)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    p.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.add_argument("--extension", help="libgem.so (default: the build output)")
    p.add_argument("--map-images", metavar="DIR",
                   help="your own radar or minimap images, DIR/<map>.png (see maps.json)")
    p.add_argument("--verbose", action="store_true", help="log every request on stderr")
    p.add_argument("--export", metavar="REPORT.html",
                   help="write one self-contained HTML report of the match (no server; it "
                   "opens from file:// offline) and exit")
    args = p.parse_args(argv)
    libgem = os.path.abspath(args.extension or os.path.join(CHECKOUT, "bazel-bin", "sqlext",
                                                            "libgem.so"))
    if not os.path.isfile(libgem):
        print("gem-view: libgem.so not found at %s (bazel build //sqlext:libgem.so, or give "
              "--extension PATH)" % libgem, file=sys.stderr)
        return 66
    if args.map_images and not os.path.isdir(args.map_images):
        print("gem-view: --map-images %s is not a folder" % args.map_images, file=sys.stderr)
        return 66
    if not 0 <= args.port <= 65535:
        print("gem-view: --port must be 0 to 65535", file=sys.stderr)
        return 64
    try:
        matches = open_source(args.index, libgem[:-3] if libgem.endswith(".so") else libgem)
    except (ValueError, OSError) as e:
        print("gem-view: %s" % e, file=sys.stderr)
        return 66
    missing = names.shared().missing
    if missing:
        print("gem-view: display names not installed: %s (tools/setup.sh runs npm ci in "
              "tools/view); names read as the index spells them" % ", ".join(missing),
              file=sys.stderr)
    if args.export:
        return export_report(matches, args.export)
    for m in matches.values():
        if m.error:
            print("gem-view: %s (the page shows it)" % m.error, file=sys.stderr)
    try:
        server = Server((args.host, args.port), matches, args.verbose,
                        os.path.abspath(args.map_images) if args.map_images else None)
    except OSError as e:
        print("gem-view: cannot listen on %s:%d: %s" % (args.host, args.port, e), file=sys.stderr)
        return 75
    url = "http://%s:%d/" % server.server_address[:2]
    print(url, flush=True)
    if args.open:
        subprocess.Popen(["xdg-open", url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()
    return 0


def export_report(matches, out):
    """gem-view --export: 73 when the report cannot be written, 65 when the
    index cannot answer, 64 for a corpus folder (a report is one match)."""
    if len(matches) != 1:
        print("gem-view: --export takes one index, not a corpus folder", file=sys.stderr)
        return 64
    match = next(iter(matches.values()))
    if match.error:
        print("gem-view: %s" % match.error, file=sys.stderr)
        return 65
    try:
        size = export.write(match, out, SCRIPTS)
    except IndexError_ as e:
        print("gem-view: %s: %s" % (match.label, e), file=sys.stderr)
        return 65
    except OSError as e:
        print("gem-view: cannot write %s: %s" % (out, e), file=sys.stderr)
        return 73
    print("gem-view: wrote %s (%.1f MB)" % (out, size / 1e6), file=sys.stderr)
    return 0
