#!/usr/bin/env python3
"""Tests of score.py's label checks and matching, on a small corpus made in a temporary directory and a
stand-in for timerkit-audit that prints fixed JSON. Run: python3 Audit/scripts/test_score.py"""

import io
import json
import os
import stat
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def label(case_id, cls, expected, language="swift", batch=None):
    extra = {"batch": batch} if batch else {}
    return {**extra,
        "id": case_id,
        "language": language,
        "class": cls,
        "description": "a test case",
        "studiedFrom": [{"repo": "owner/name", "path": "File.swift"}],
        "expected": expected,
    }


SOURCE = "import Foundation\n" + "\n".join(f"// line {n}" for n in range(2, 21)) + "\n"


class ScoreTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.corpus = self.directory.name

    def tearDown(self):
        self.directory.cleanup()

    def add_case(self, case_id, cls, expected, files=("A.swift",), language="swift", batch=None):
        case_dir = os.path.join(self.corpus, "cases", case_id)
        for name in files:
            write(os.path.join(case_dir, name), SOURCE)
        write(os.path.join(case_dir, "expected.json"), json.dumps(label(case_id, cls, expected, language, batch)))

    def finding(self, case_id, file_name, line, rule, severity="warning"):
        return {"file": file_name, "line": line, "rule": rule, "severity": severity, "case": case_id}

    def site(self, line, rule, **extra):
        return dict({"file": "A.swift", "line": line, "endLine": line + 2, "rule": rule, "severity": "warning"}, **extra)

    def test_matching_recall_and_precision(self):
        self.add_case("leak-one", "leak", [self.site(5, "timer-target-retain", accept=["invalidate-only-in-deinit"]),
                                           self.site(15, "invalidate-only-in-deinit", optional=True)])
        self.add_case("leak-two", "leak", [self.site(3, "block-timer-strong-self")])
        self.add_case("safe-one", "safe", [])
        self.add_case("sbl-one", "safe-by-lifecycle", [], language="objective-c")
        cases = score.load_corpus(self.corpus)
        findings = {
            # inside the span with an accepted rule: found; the optional site's warning is right, not required
            "leak-one": [self.finding("leak-one", "A.swift", 7, "invalidate-only-in-deinit"),
                         self.finding("leak-one", "A.swift", 16, "invalidate-only-in-deinit")],
            # a note at a leak is a miss; a warning of another rule at the site is a miss and a false alarm
            "leak-two": [self.finding("leak-two", "A.swift", 3, "block-timer-strong-self", "note"),
                         self.finding("leak-two", "A.swift", 4, "timer-target-retain")],
            # notes on negatives are fine; warnings are false alarms
            "safe-one": [self.finding("safe-one", "A.swift", 2, "timer-target-retain", "note")],
            "sbl-one": [self.finding("sbl-one", "A.swift", 9, "display-link-target-retain")],
        }
        results = score.score(cases, findings)
        overall = score.tally(results["sites"], results["warnings"])
        self.assertEqual((overall["sites"], overall["found"]), (2, 1))
        self.assertEqual((overall["warnings"], overall["correct"]), (4, 2))
        missed = [s for s in results["sites"] if not s["found"]]
        self.assertEqual([s["case"]["id"] for s in missed], ["leak-two"])
        self.assertEqual([f["rule"] for f in missed[0]["near"]], ["timer-target-retain"])
        self.assertEqual([f["severity"] for f in missed[0]["noted"]], ["note"])
        false_alarms = sorted((w["case"]["id"], w["finding"]["line"]) for w in results["warnings"] if not w["correct"])
        self.assertEqual(false_alarms, [("leak-two", 4), ("sbl-one", 9)])

    def test_line_outside_span_or_other_file_does_not_match(self):
        self.add_case("leak-one", "leak", [self.site(5, "timer-target-retain")], files=("A.swift", "B.swift"))
        cases = score.load_corpus(self.corpus)
        findings = {"leak-one": [self.finding("leak-one", "A.swift", 8, "timer-target-retain"),
                                 self.finding("leak-one", "B.swift", 5, "timer-target-retain")]}
        results = score.score(cases, findings)
        self.assertFalse(results["sites"][0]["found"])
        self.assertEqual(sum(1 for w in results["warnings"] if w["correct"]), 0)

    def test_star_accepts_any_rule(self):
        self.add_case("leak-one", "leak", [self.site(5, "swiftui-timer-never-stopped", accept=["*"])])
        cases = score.load_corpus(self.corpus)
        results = score.score(cases, {"leak-one": [self.finding("leak-one", "A.swift", 6, "anything")]})
        self.assertTrue(results["sites"][0]["found"])

    def test_invalid_labels_are_refused_with_the_reason(self):
        self.add_case("leak-none", "leak", [])
        self.add_case("safe-warned", "safe", [self.site(5, "timer-target-retain")])
        self.add_case("past-end", "leak", [self.site(19, "timer-target-retain")])
        self.add_case("wrong-file", "leak", [dict(self.site(5, "timer-target-retain"), file="Missing.swift")])
        with self.assertRaises(score.CorpusError) as raised:
            score.load_corpus(self.corpus)
        message = str(raised.exception)
        self.assertIn("leak-none: a leak case needs at least one required warning", message)
        self.assertIn("safe-warned: expected[0]: only a leak case can require a warning", message)
        self.assertIn("past-end: expected[0]: endLine 21 is past the end of A.swift", message)
        self.assertIn("wrong-file: expected[0]: file 'Missing.swift' is not a source file of the case", message)

    def test_runs_a_binary_and_maps_paths_to_cases(self):
        self.add_case("leak-one", "leak", [self.site(5, "timer-target-retain")])
        self.add_case("safe-one", "safe", [])
        cases_dir = os.path.realpath(os.path.join(self.corpus, "cases"))
        document = {"findings": [
            {"path": os.path.join(cases_dir, "leak-one", "A.swift"), "line": 6, "column": 3,
             "rule": "timer-target-retain", "severity": "warning"},
            {"path": os.path.join(cases_dir, "safe-one", "A.swift"), "line": 2, "column": 1,
             "rule": "timer-target-retain", "severity": "warning"},
        ], "diagnostics": []}
        tool = os.path.join(self.corpus, "fake-tool")
        write(tool, "#!/usr/bin/env python3\nimport sys\nprint(" + repr(json.dumps(document)) + ")\nsys.exit(1)\n")
        os.chmod(tool, os.stat(tool).st_mode | stat.S_IXUSR)
        output = io.StringIO()
        with redirect_stdout(output), redirect_stderr(io.StringIO()):
            status = score.main(["--binary", tool, "--corpus", self.corpus, "--require", "0.9"])
        self.assertEqual(status, 1)  # recall 100 %, precision 50 %: below the requirement
        text = output.getvalue()
        self.assertIn("all                                     1      1  100.0%          2      1     50.0%", text)
        self.assertIn("safe-one/A.swift:2 [timer-target-retain] (safe)", text)
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            self.assertEqual(score.main(["--binary", tool, "--corpus", self.corpus]), 0)

    def test_batch_scores_only_its_cases(self):
        self.add_case("leak-old", "leak", [self.site(5, "timer-target-retain")])
        self.add_case("safe-new", "safe", [], batch="b2")
        self.add_case("leak-new", "leak", [self.site(5, "timer-target-retain")], batch="b2")
        cases_dir = os.path.realpath(os.path.join(self.corpus, "cases"))
        document = {"findings": [
            {"path": os.path.join(cases_dir, "leak-old", "A.swift"), "line": 2, "column": 1,
             "rule": "timer-target-retain", "severity": "warning"},
            {"path": os.path.join(cases_dir, "leak-new", "A.swift"), "line": 6, "column": 3,
             "rule": "timer-target-retain", "severity": "warning"},
        ], "diagnostics": []}
        tool = os.path.join(self.corpus, "fake-tool")
        write(tool, "#!/usr/bin/env python3\nprint(" + repr(json.dumps(document)) + ")\n")
        os.chmod(tool, os.stat(tool).st_mode | stat.S_IXUSR)
        output = io.StringIO()
        with redirect_stdout(output), redirect_stderr(io.StringIO()):
            status = score.main(["--binary", tool, "--corpus", self.corpus, "--batch", "b2", "--require", "0.9"])
        self.assertEqual(status, 0)  # the old case's miss and false alarm are not counted
        text = output.getvalue()
        self.assertIn("batch b2: 2 of 3 cases", text)
        self.assertIn("all                                     1      1  100.0%          1      1    100.0%", text)
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            self.assertEqual(score.main(["--binary", tool, "--corpus", self.corpus, "--batch", "none"]), 2)


if __name__ == "__main__":
    unittest.main()
