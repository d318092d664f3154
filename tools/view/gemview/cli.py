"""gem-view's command line: opens the index or corpus folder, binds
127.0.0.1 (a free port unless --port), prints the URL, serves until
interrupted."""
import argparse
import os
import subprocess
import sys

from .server import Server
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
