"""Runs unittest cases and writes their results as JUnit XML to
$XML_OUTPUT_FILE (where Bazel reads test cases), so that each case counts.
Usage: junit.main() from a test module; the modules named on its command
line (other test modules of the same folder) run in the same process too,
so that they share what the first made (a synthetic match, its index)."""
import importlib
import os
import sys
import time
import unittest
import xml.etree.ElementTree as ET


class _Result(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.cases = []
        self._start = 0.0

    def startTest(self, test):
        self._start = time.time()
        super().startTest(test)

    def _record(self, test, kind, detail="", suffix=""):
        self.cases.append((test.id(), suffix, kind, detail, time.time() - self._start))

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record(test, "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "failure", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "error", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        if isinstance(test, unittest.case._SubTest):
            self._record(test.test_case, "skipped", reason, " " + test._subDescription())
        else:
            self._record(test, "skipped", reason)

    def addSubTest(self, test, subtest, err):
        # A failing subtest fails its test, which then gets no addSuccess
        # or addFailure of its own: each failing subtest is a case.
        super().addSubTest(test, subtest, err)
        if err is not None:
            kind = "failure" if issubclass(err[0], test.failureException) else "error"
            self._record(test, kind, self._exc_info_to_string(err, test),
                         " " + subtest._subDescription())


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules["__main__"])
    for name in sys.argv[1:]:
        if name.endswith(".py"):
            suite.addTests(unittest.defaultTestLoader.loadTestsFromModule(
                importlib.import_module(name[:-3])))
    runner = unittest.TextTestRunner(resultclass=_Result, verbosity=2, stream=sys.stdout)
    result = runner.run(suite)
    out = os.environ.get("XML_OUTPUT_FILE")
    if out:
        root = ET.Element("testsuites")
        ts = ET.SubElement(root, "testsuite", name=os.path.basename(sys.argv[0]),
                           tests=str(len(result.cases)))
        for name, suffix, kind, detail, secs in result.cases:
            cls, _, meth = name.rpartition(".")
            tc = ET.SubElement(ts, "testcase", classname=cls, name=meth + suffix,
                               time="%.3f" % secs)
            if kind in ("failure", "error"):
                ET.SubElement(tc, kind, message=detail.splitlines()[-1] if detail else "").text = detail
            elif kind == "skipped":
                ET.SubElement(tc, "skipped", message=detail)
        ET.ElementTree(root).write(out, encoding="utf-8", xml_declaration=True)
    sys.exit(0 if result.wasSuccessful() else 1)
