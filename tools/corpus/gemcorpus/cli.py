"""gem-corpus's command line. Exit codes (sysexits): 0 ok, 1 some replay or
index failed (recorded, or reported on stderr), 64 usage, 66 a missing
corpus or tool, 75 another index run holds the corpus."""
import argparse
import os
import sys

from . import benchmarks, indexing, querying, status
from .tools_paths import ToolError, Tools

EX_USAGE, EX_NOINPUT, EX_TEMPFAIL = 64, 66, 75


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("gem-corpus: %s\n" % message)
        sys.exit(EX_USAGE)


def parser():
    p = Parser(prog="gem-corpus", description="Many replays indexed and queried as one, on "
               "Dask distributed: an embedded local cluster, or --scheduler tcp://HOST:8786.")
    p.add_argument("--gem-index", help="the gem-index binary (default: the build output)")
    p.add_argument("--extension", help="libgem.so (default: the build output)")
    sub = p.add_subparsers(dest="command", parser_class=Parser, required=True)

    def engine_options(s):
        g = s.add_mutually_exclusive_group()
        g.add_argument("--scheduler", help="an existing Dask scheduler, e.g. tcp://HOST:8786 "
                       "(its workers must see the same paths)")
        g.add_argument("--workers", type=int, help="local worker processes (default: cores)")

    i = sub.add_parser("index", help="index replays (files or directories of .dem) into DIR")
    i.add_argument("--out", required=True, metavar="DIR")
    engine_options(i)
    i.add_argument("--retry-failed", action="store_true",
                   help="try again the replays that failed with this gem")
    i.add_argument("--quiet", action="store_true")
    i.add_argument("replays", nargs="+", metavar="REPLAY_OR_DIR")

    q = sub.add_parser("query", help="run SQL on every index of DIR")
    q.add_argument("dir", metavar="DIR")
    q.add_argument("sql", metavar="SQL")
    q.add_argument("--where", metavar="CATALOG_CONDITION",
                   help="select replays by catalog columns, e.g. \"game = 'dota2'\"")
    q.add_argument("--reduce", metavar="SQL", help="a last SQL over the rows (table `rows`)")
    q.add_argument("--format", choices=["csv", "jsonl", "sqlite"], default="csv")
    q.add_argument("--output", metavar="FILE")
    q.add_argument("--quiet", action="store_true")
    engine_options(q)

    b = sub.add_parser("benchmarks", help="per Dota hero and CS2 map, the percentiles of "
                       "players' figures over DIR's matches, into DIR/benchmarks.db (only "
                       "indexes not read before are read)")
    b.add_argument("dir", metavar="DIR")
    b.add_argument("--quiet", action="store_true")
    engine_options(b)

    s = sub.add_parser("status", help="counts, failures and stale indexes of DIR")
    s.add_argument("dir", metavar="DIR")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    tools = Tools(args.gem_index, args.extension)
    quiet = getattr(args, "quiet", False)

    def say(message):
        if not quiet or message.startswith("gem-corpus: /"):
            print(message, file=sys.stderr)

    if getattr(args, "workers", None) is not None and args.workers < 1:
        parser().error("--workers needs 1 or more")
    if args.command == "query" and args.format == "sqlite" and not args.output:
        parser().error("--format sqlite needs --output FILE")
    if args.command in ("query", "status", "benchmarks") and not os.path.exists(
            os.path.join(args.dir, "catalog.db")):
        print("gem-corpus: %s holds no corpus (no catalog.db)" % args.dir, file=sys.stderr)
        return EX_NOINPUT
    try:
        if args.command == "index":
            failed = indexing.run(args, tools, say)
        elif args.command == "query":
            failed = querying.run(args, tools, say)
        elif args.command == "benchmarks":
            failed = benchmarks.run(args, tools, say)
        else:
            failed = status.run(args, tools, print)
    except ToolError as e:
        print("gem-corpus: %s" % e, file=sys.stderr)
        return EX_NOINPUT
    except indexing.Busy as e:
        print("gem-corpus: %s" % e, file=sys.stderr)
        return EX_TEMPFAIL
    except ValueError as e:
        print("gem-corpus: %s" % e, file=sys.stderr)
        return EX_USAGE
    except KeyboardInterrupt:
        print("\ngem-corpus: interrupted; run it again to finish", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output left (| head): no traceback, no more writes.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 1 if failed else 0
