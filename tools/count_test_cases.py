#!/usr/bin/env python3
"""Counts test cases in Bazel's JUnit XML logs and prints "N passed, N failed".

Bazel counts test targets; this counts the cases inside them (every gtest
case, and one case per shell test). A skipped case is neither passed nor
failed and is reported separately. A target that crashed or timed out
before writing its cases counts as one failed case. Exit status 1 when
anything failed or nothing ran.
"""
import os
import sys
import xml.etree.ElementTree as ET


def logs(roots):
    for root in roots:
        for dirpath, _, files in os.walk(root, followlinks=True):
            yield dirpath, files


def main(roots, since, build_failures):
    passed = failed = skipped = 0
    if build_failures:
        failed += build_failures
        print("a build failed: counted as one failed case", file=sys.stderr)
    for dirpath, files in logs(roots):
        if "test.xml" not in files:
            continue
        path = os.path.join(dirpath, "test.xml")
        if os.path.getmtime(path) < since:
            continue  # a log left by an earlier run
        try:
            tree = ET.parse(path)
        except ET.ParseError:
            failed += 1
            print(f"unreadable test log: {path}", file=sys.stderr)
            continue
        cases = tree.getroot().iter("testcase")
        seen = False
        for case in cases:
            seen = True
            if case.find("failure") is not None or case.find("error") is not None:
                failed += 1
            elif case.find("skipped") is not None or case.get("result") == "skipped" \
                    or case.get("status") == "notrun":
                skipped += 1
            else:
                passed += 1
        if not seen:
            failed += 1
            print(f"no test cases in {path}", file=sys.stderr)
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f" ({skipped} skipped)"
    print(line)
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    # usage: count_test_cases.py SINCE_EPOCH_SECONDS TESTLOGS_DIR... [--build-failed]...
    # (each --build-failed: one build that failed, counted as a failed case)
    args = [a for a in sys.argv[1:] if a != "--build-failed"]
    since = float(args[0]) if args else 0.0
    roots = args[1:] or ["bazel-testlogs"]
    sys.exit(main(roots, since, sys.argv.count("--build-failed")))
