#!/usr/bin/env python3
"""Scores timerkit-audit on the labelled corpus (Audit/Corpus): recall and precision of its warnings.

Usage (from the repository root):

    python3 Audit/scripts/score.py                      # builds Audit (debug) and scores its binary
    python3 Audit/scripts/score.py --binary PATH        # scores a binary you built
    python3 Audit/scripts/score.py --require 0.9        # exits 1 when overall recall or precision < 0.9
    python3 Audit/scripts/score.py --check              # only validates the corpus labels
    python3 Audit/scripts/score.py --batch NAME         # scores only the cases whose label has "batch": NAME

How a finding is matched (Audit/Corpus/README.md says the same):

- Only warnings count. A note never finds a leak and is never a false alarm.
- Each expected finding of a case names a file of the case, a line span [line, endLine] and a rule.
  A warning matches it when it is in that file, its line lies in the span, and its rule is the
  expected rule or one of the entry's `accept` rules (`"*"` accepts any rule).
- Recall: required expected findings (not `optional`) that at least one warning matches, over all
  required expected findings. Only `leak` cases have required findings.
- Precision: warnings that match an expected finding (required or optional) of their own case, over
  all warnings reported in the corpus. Any other warning is a false alarm; in a `safe` or
  `safe-by-lifecycle` case every warning is a false alarm.
- The tool runs once over the whole corpus (one scan, as in a project). `--isolate` runs it once per
  case instead, so that a method called in one case cannot count as a call in another.

Python 3.8 or later, standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict

CLASSES = ("leak", "safe", "safe-by-lifecycle")
LANGUAGES = ("swift", "objective-c")
SOURCE_EXTENSIONS = (".swift", ".m", ".mm", ".h")
SEVERITIES = ("warning", "note")

HERE = os.path.dirname(os.path.abspath(__file__))
AUDIT_DIR = os.path.dirname(HERE)
DEFAULT_CORPUS = os.path.join(AUDIT_DIR, "Corpus")


class CorpusError(Exception):
    """A label that cannot be scored: the message says which case and why."""


def load_corpus(corpus_dir):
    """Reads every case directory under corpus_dir/cases; returns the cases sorted by id."""
    cases_dir = os.path.join(corpus_dir, "cases")
    if not os.path.isdir(cases_dir):
        raise CorpusError(f"{cases_dir}: no cases directory")
    cases = []
    problems = []
    for case_id in sorted(os.listdir(cases_dir)):
        case_dir = os.path.join(cases_dir, case_id)
        if not os.path.isdir(case_dir):
            continue
        try:
            cases.append(load_case(case_id, case_dir))
        except CorpusError as error:
            problems.append(str(error))
    if problems:
        raise CorpusError("\n".join(problems))
    if not cases:
        raise CorpusError(f"{cases_dir}: no cases")
    return cases


def load_case(case_id, case_dir):
    """Reads and validates one case's expected.json against the case's files."""
    label_path = os.path.join(case_dir, "expected.json")
    if not os.path.isfile(label_path):
        raise CorpusError(f"{case_id}: no expected.json")
    try:
        with open(label_path, encoding="utf-8") as handle:
            label = json.load(handle)
    except (OSError, ValueError) as error:
        raise CorpusError(f"{case_id}: expected.json cannot be read: {error}") from error

    def fail(message):
        raise CorpusError(f"{case_id}: {message}")

    if label.get("id") != case_id:
        fail(f"id {label.get('id')!r} is not the directory name")
    if label.get("language") not in LANGUAGES:
        fail(f"language must be one of {LANGUAGES}")
    if label.get("class") not in CLASSES:
        fail(f"class must be one of {CLASSES}")
    if not str(label.get("description", "")).strip():
        fail("no description")
    studied = label.get("studiedFrom")
    if not isinstance(studied, list) or not studied:
        fail("studiedFrom must list at least one {repo, path}")
    for source in studied:
        if not isinstance(source, dict) or not source.get("repo") or not source.get("path"):
            fail("each studiedFrom entry needs repo and path")

    files = sorted(
        os.path.relpath(os.path.join(root, name), case_dir)
        for root, _, names in os.walk(case_dir)
        for name in names
        if name.endswith(SOURCE_EXTENSIONS)
    )
    if not files:
        fail("no source files")
    line_counts = {}
    for name in files:
        with open(os.path.join(case_dir, name), encoding="utf-8") as handle:
            line_counts[name] = len(handle.read().splitlines())

    expected = label.get("expected")
    if not isinstance(expected, list):
        fail("expected must be a list (empty for no finding)")
    entries = []
    for index, entry in enumerate(expected):
        where = f"expected[{index}]"
        if entry.get("file") not in line_counts:
            fail(f"{where}: file {entry.get('file')!r} is not a source file of the case")
        line = entry.get("line")
        end_line = entry.get("endLine", line)
        if not isinstance(line, int) or not isinstance(end_line, int) or not 1 <= line <= end_line:
            fail(f"{where}: line and endLine must be integers with 1 <= line <= endLine")
        if end_line > line_counts[entry["file"]]:
            fail(f"{where}: endLine {end_line} is past the end of {entry['file']}")
        if not entry.get("rule"):
            fail(f"{where}: no rule")
        severity = entry.get("severity", "warning")
        if severity not in SEVERITIES:
            fail(f"{where}: severity must be warning or note")
        optional = bool(entry.get("optional", False))
        if severity == "warning" and not optional and label["class"] != "leak":
            fail(f"{where}: only a leak case can require a warning")
        accept = entry.get("accept", [])
        if not isinstance(accept, list):
            fail(f"{where}: accept must be a list of rule ids")
        entries.append(
            {
                "file": entry["file"],
                "line": line,
                "endLine": end_line,
                "rule": entry["rule"],
                "accept": accept,
                "severity": severity,
                "optional": optional,
            }
        )
    required = [e for e in entries if e["severity"] == "warning" and not e["optional"]]
    if label["class"] == "leak" and not required:
        fail("a leak case needs at least one required warning")
    return {
        "id": case_id,
        "dir": case_dir,
        "language": label["language"],
        "class": label["class"],
        "description": label["description"],
        "batch": label.get("batch"),
        "entries": entries,
        "files": files,
    }


def default_binary():
    """Builds the Audit package in debug and returns the path of its timerkit-audit."""
    package = AUDIT_DIR
    subprocess.run(["swift", "build", "--package-path", package], check=True, stdout=sys.stderr)
    bin_dir = subprocess.run(
        ["swift", "build", "--package-path", package, "--show-bin-path"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return os.path.join(bin_dir, "timerkit-audit")


def run_tool(binary, paths):
    """Runs the tool once with --format json over paths; returns its findings."""
    command = [binary, "--format", "json", "--fail-on", "none", *paths]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise RuntimeError(
            f"{' '.join(command[:4])} … exited with status {result.returncode}:\n{result.stderr}"
        )
    try:
        document = json.loads(result.stdout)
    except ValueError as error:
        raise RuntimeError(f"the tool's output is not JSON: {error}") from error
    for diagnostic in document.get("diagnostics", []):
        print(f"tool diagnostic: {diagnostic.get('path')}: {diagnostic.get('message')}", file=sys.stderr)
    return document.get("findings", [])


def collect_findings(binary, corpus_dir, cases, isolate):
    """Runs the tool over the corpus; returns {case id: [finding with case-relative 'file']}."""
    cases_dir = os.path.realpath(os.path.join(corpus_dir, "cases"))
    runs = [[os.path.join(cases_dir, case["id"])] for case in cases] if isolate else [[cases_dir]]
    by_case = defaultdict(list)
    for paths in runs:
        for finding in run_tool(binary, paths):
            relative = os.path.relpath(os.path.realpath(finding["path"]), cases_dir)
            case_id, _, file_name = relative.partition(os.sep)
            finding = dict(finding, file=file_name)
            by_case[case_id].append(finding)
    return by_case


def matches(entry, finding):
    """Whether a finding lies at an expected finding's site with an accepted rule."""
    if finding["file"] != entry["file"]:
        return False
    if not entry["line"] <= finding["line"] <= entry["endLine"]:
        return False
    return finding["rule"] == entry["rule"] or finding["rule"] in entry["accept"] or "*" in entry["accept"]


def score(cases, findings_by_case):
    """Matches findings against labels; returns the tallies and the lists of misses and false alarms."""
    results = {"sites": [], "warnings": [], "notes_at_leaks": []}
    for case in cases:
        findings = findings_by_case.get(case["id"], [])
        warnings = [f for f in findings if f["severity"] == "warning"]
        notes = [f for f in findings if f["severity"] != "warning"]
        for entry in case["entries"]:
            if entry["severity"] != "warning" or entry["optional"]:
                continue
            hits = [f for f in warnings if matches(entry, f)]
            near = [f for f in warnings if f["file"] == entry["file"] and entry["line"] <= f["line"] <= entry["endLine"]]
            noted = [f for f in notes if f["file"] == entry["file"] and entry["line"] <= f["line"] <= entry["endLine"]]
            results["sites"].append({"case": case, "entry": entry, "found": bool(hits), "near": near, "noted": noted})
        for finding in warnings:
            correct = any(matches(entry, finding) for entry in case["entries"] if entry["severity"] == "warning")
            results["warnings"].append({"case": case, "finding": finding, "correct": correct})
    unknown = sorted(set(findings_by_case) - {case["id"] for case in cases})
    for case_id in unknown:
        for finding in findings_by_case[case_id]:
            if finding["severity"] == "warning":
                results["warnings"].append({"case": None, "finding": dict(finding, case=case_id), "correct": False})
    return results


def ratio(numerator, denominator):
    return numerator / denominator if denominator else None


def percent(value):
    return "   n/a" if value is None else f"{100 * value:5.1f}%"


def tally(sites, warnings):
    found = sum(1 for s in sites if s["found"])
    correct = sum(1 for w in warnings if w["correct"])
    return {
        "sites": len(sites),
        "found": found,
        "recall": ratio(found, len(sites)),
        "warnings": len(warnings),
        "correct": correct,
        "precision": ratio(correct, len(warnings)),
    }


def print_table(title, key_name, groups):
    print(f"\n{title}")
    print(f"  {key_name:<34} {'leaks':>6} {'found':>6} {'recall':>7}   {'warnings':>8} {'right':>6} {'precision':>9}")
    for key, figures in groups:
        print(
            f"  {key:<34} {figures['sites']:>6} {figures['found']:>6} {percent(figures['recall']):>7}   "
            f"{figures['warnings']:>8} {figures['correct']:>6} {percent(figures['precision']):>9}"
        )


def site_text(case, entry):
    return f"{case['id']}/{entry['file']}:{entry['line']}" + (
        f"-{entry['endLine']}" if entry["endLine"] != entry["line"] else ""
    )


def report(cases, results):
    sites, warnings = results["sites"], results["warnings"]
    overall = tally(sites, warnings)
    counts = defaultdict(int)
    for case in cases:
        counts[(case["language"], case["class"])] += 1
    print(f"corpus: {len(cases)} cases")
    for language in LANGUAGES:
        parts = ", ".join(f"{counts[(language, c)]} {c}" for c in CLASSES)
        print(f"  {language:<12} {sum(counts[(language, c)] for c in CLASSES):>4}  ({parts})")

    print_table("overall", "", [("all", overall)])
    print_table(
        "per language",
        "language",
        [
            (language, tally([s for s in sites if s["case"]["language"] == language],
                             [w for w in warnings if w["case"] and w["case"]["language"] == language]))
            for language in LANGUAGES
        ],
    )
    rules = sorted({s["entry"]["rule"] for s in sites} | {w["finding"]["rule"] for w in warnings})
    print_table(
        "per rule (recall by the labelled rule, precision by the reported rule)",
        "rule",
        [
            (rule, tally([s for s in sites if s["entry"]["rule"] == rule],
                         [w for w in warnings if w["finding"]["rule"] == rule]))
            for rule in rules
        ],
    )
    print("\nper class (a warning in a safe or safe-by-lifecycle case is a false alarm)")
    print(f"  {'class':<20} {'cases':>6} {'leaks':>6} {'found':>6} {'recall':>7}   {'warnings':>8} {'false':>6} {'cases warned':>12}")
    for cls in CLASSES:
        class_cases = [c for c in cases if c["class"] == cls]
        class_sites = [s for s in sites if s["case"]["class"] == cls]
        class_warnings = [w for w in warnings if w["case"] and w["case"]["class"] == cls]
        figures = tally(class_sites, class_warnings)
        false = figures["warnings"] - figures["correct"]
        warned = len({w["case"]["id"] for w in class_warnings if not w["correct"]})
        print(
            f"  {cls:<20} {len(class_cases):>6} {figures['sites']:>6} {figures['found']:>6} "
            f"{percent(figures['recall']):>7}   {figures['warnings']:>8} {false:>6} {warned:>12}"
        )

    misses = [s for s in sites if not s["found"]]
    print(f"\nmisses ({len(misses)}): leaks without a matching warning")
    for site in misses:
        case, entry = site["case"], site["entry"]
        extra = ""
        if site["near"]:
            extra = "; warned there as " + ", ".join(sorted({f["rule"] for f in site["near"]}))
        elif site["noted"]:
            extra = "; only a note there (" + ", ".join(sorted({f["rule"] for f in site["noted"]})) + ")"
        print(f"  {site_text(case, entry)} [{entry['rule']}] {case['description']}{extra}")

    false_alarms = [w for w in warnings if not w["correct"]]
    print(f"\nfalse alarms ({len(false_alarms)}): warnings at no labelled leak")
    for item in false_alarms:
        finding, case = item["finding"], item["case"]
        if case is None:
            print(f"  {finding['case']}/{finding['file']}:{finding['line']} [{finding['rule']}] (not a case directory)")
            continue
        print(f"  {case['id']}/{finding['file']}:{finding['line']} [{finding['rule']}] ({case['class']}) {case['description']}")
    return overall


def main(argv=None):
    parser = argparse.ArgumentParser(description="Recall and precision of timerkit-audit on the labelled corpus.")
    parser.add_argument("--binary", help="timerkit-audit to score (default: build Audit in debug and use its binary)")
    parser.add_argument("--corpus", default=DEFAULT_CORPUS, help="corpus directory (default: Audit/Corpus)")
    parser.add_argument("--require", type=float, metavar="FRACTION",
                        help="exit 1 when overall recall or precision is below FRACTION (for example 0.9)")
    parser.add_argument("--isolate", action="store_true", help="run the tool once per case instead of once")
    parser.add_argument("--check", action="store_true", help="validate the labels and exit")
    parser.add_argument("--batch", metavar="NAME",
                        help="score only the cases labelled with this batch (the tool still scans the whole corpus)")
    args = parser.parse_args(argv)
    if args.require is not None and not 0 <= args.require <= 1:
        parser.error("--require takes a fraction between 0 and 1")

    try:
        cases = load_corpus(args.corpus)
    except CorpusError as error:
        print(f"score.py: the corpus labels are not valid:\n{error}", file=sys.stderr)
        return 2
    if args.check:
        print(f"score.py: {len(cases)} cases, labels valid")
        return 0
    scored = cases
    if args.batch is not None:
        scored = [case for case in cases if case["batch"] == args.batch]
        if not scored:
            print(f"score.py: no case is labelled with batch {args.batch!r}", file=sys.stderr)
            return 2

    binary = args.binary or default_binary()
    if not os.access(binary, os.X_OK):
        print(f"score.py: {binary}: not an executable", file=sys.stderr)
        return 2
    try:
        findings = collect_findings(binary, args.corpus, cases, args.isolate)
    except RuntimeError as error:
        print(f"score.py: {error}", file=sys.stderr)
        return 2
    if args.batch is not None:
        kept = {case["id"] for case in scored}
        known = {case["id"] for case in cases}
        findings = {case_id: found for case_id, found in findings.items() if case_id in kept or case_id not in known}
        print(f"batch {args.batch}: {len(scored)} of {len(cases)} cases (the tool scanned all of them)")
    overall = report(scored, score(scored, findings))
    print(f"\nbinary: {binary}{' (one run per case)' if args.isolate else ''}")
    if args.require is not None:
        low = [name for name in ("recall", "precision") if overall[name] is None or overall[name] < args.require]
        if low:
            print(f"score.py: {' and '.join(low)} below {args.require:.0%}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
