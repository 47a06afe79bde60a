#!/usr/bin/env python3
"""Shows that `timerkit-audit --fix` rewrites code into code that compiles against TimerKitMigration.

  python3 Audit/scripts/check-fixes.py --binary Audit/.build/debug/timerkit-audit --bin .build/debug

(`bash Audit/scripts/check-fixes.sh [swift build options]` builds both packages first and runs this.)

Two sets of files, copied to a temporary directory first (the originals are never touched):

- the seeds' examples, Audit/Tests/FixSeeds: the classic leak patterns written in Swift (a `target: self`
  repeating timer kept in a view controller, a block timer capturing self strongly, two timers in one
  controller, a weak timer property, a weakSelf target), scanned together;
- the corpus's Swift `leak` cases (Audit/Corpus/cases, `expected.json` says language and class) whose scan has
  at least one exact fix-it, each case scanned on its own as one project.

For each set: `--fix` (the dry run) from inside the copy, its diff applied with `patch -p1` and with
`git apply` to two more copies; `--fix --write` on a third; the three results must be the same bytes. Then
`--fix` again on the rewritten copy must print nothing (idempotent), and every rewritten file must
type-check with `swiftc -typecheck` against the built TimerKit and TimerKitMigration modules, in Swift 5 and
Swift 6 language modes. The files import UIKit, which Linux lacks: a stub module (scripts/fix-check/UIKit.swift,
the few UIKit declarations they use, with UIKit's main-actor isolation) stands in for it. `@objc` attributes
are removed and each `#selector(name)` left in code the fix does not touch (a notification observer) is
written `Selector("name")`, which the stub declares, before type-checking (Linux has no Objective-C runtime;
on Apple platforms they stay valid, as they were before the fix). Files with no exact fix-it are not
rewritten and not type-checked (most corpus files import SwiftUI or use other Darwin-only API); they are
counted.

Prints how many fixes were applied and how many files type-check; exits 1 when a file does not type-check, a
fix is skipped, the diff does not apply to the same result, or a second run finds more to fix.
"""

import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

AUDIT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = AUDIT / "Tests" / "FixSeeds"
CASES = AUDIT / "Corpus" / "cases"
STUB = pathlib.Path(__file__).resolve().parent / "fix-check" / "UIKit.swift"
LANGUAGE_MODES = ["5", "6"]


def run(command, cwd=None, stdin=None):
    return subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, text=True)


def swift_files(directory):
    return sorted(p for p in directory.rglob("*.swift"))


def corpus_cases(binary):
    """The Swift leak cases, and those among them whose scan has an exact fix-it."""
    leaks, fixable = [], []
    for case in sorted(CASES.iterdir()):
        expected = case / "expected.json"
        if not expected.is_file():
            continue
        label = json.loads(expected.read_text(encoding="utf-8"))
        if label.get("language") != "swift" or label.get("class") != "leak":
            continue
        leaks.append(case)
        result = run([binary, "--format", "json", "--fail-on", "none", str(case)])
        document = json.loads(result.stdout)
        if any(finding.get("fixIts") for finding in document["findings"]):
            fixable.append(case)
    return leaks, fixable


class Checker:
    def __init__(self, binary, bin_dir, work):
        self.binary = binary
        self.bin_dir = bin_dir
        self.work = work
        self.failures = []
        self.stub_dir = work / "stub-modules"
        self.stub_dir.mkdir()
        result = run(
            ["swiftc", "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", "UIKit",
             "-emit-module-path", str(self.stub_dir / "UIKit.swiftmodule"), str(STUB)])
        if result.returncode != 0:
            sys.exit(f"check-fixes: the UIKit stub does not compile:\n{result.stderr}")

    def fail(self, message):
        self.failures.append(message)
        print(f"  FAIL {message}")

    def copy(self, source, kind, name):
        target = self.work / kind / name
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("expected.json"))
        return target

    def check(self, source, name):
        """Fixes one set; returns (fixes applied, files rewritten, files that type-check, findings left)."""
        written = self.copy(source, "write", name)
        dry_copy = self.copy(source, "dry", name)
        dry = run([self.binary, "--fix", "."], cwd=dry_copy)
        if dry.returncode not in (0, 1):
            self.fail(f"{name}: --fix exited {dry.returncode}: {dry.stderr.strip()}")
            return 0, 0, 0, 0
        write = run([self.binary, "--fix", "--write", "."], cwd=written)
        if write.returncode not in (0, 1):
            self.fail(f"{name}: --fix --write exited {write.returncode}: {write.stderr.strip()}")
            return 0, 0, 0, 0
        fixes = sum(1 for line in write.stdout.splitlines() if ": fixed [" in line)
        skipped = [line for line in write.stderr.splitlines() if "fix not applied" in line]
        left = sum(1 for line in write.stderr.splitlines() if "(no exact fix-it: left as it is)" in line)
        for line in skipped:
            self.fail(f"{name}: {line}")
        dry_fixes = re.search(r"(\d+) fix\(es\) to apply", dry.stderr)
        if not dry_fixes or int(dry_fixes.group(1)) != fixes:
            self.fail(f"{name}: the dry run announced {dry_fixes and dry_fixes.group(1)} fixes, --write applied {fixes}")

        # The dry run's diff, applied by patch and by git apply, gives the same files as --write.
        for tool, command in (("patch -p1", ["patch", "-p1", "-s"]), ("git apply", ["git", "apply", "-p1", "-"])):
            if shutil.which(command[0]) is None:
                print(f"  note: {command[0]} not found; the diff was not applied with {tool}")
                continue
            target = self.copy(source, tool.split()[0], name)
            applied = run(command, cwd=target, stdin=dry.stdout) if dry.stdout else None
            if applied is not None and applied.returncode != 0:
                self.fail(f"{name}: {tool} rejected the diff: {applied.stderr.strip() or applied.stdout.strip()}")
                continue
            for file in swift_files(written):
                other = target / file.relative_to(written)
                if other.read_bytes() != file.read_bytes():
                    self.fail(f"{name}: {tool} of the dry run's diff and --write differ in {file.name}")

        again = run([self.binary, "--fix", "."], cwd=written)
        if again.stdout:
            self.fail(f"{name}: a second --fix after --write still has fixes:\n{again.stdout}")

        changed = [f for f in swift_files(written) if f.read_bytes() != (source / f.relative_to(written)).read_bytes()]
        if not changed:
            return fixes, 0, 0, left
        # A multi-file case is one module: its files are type-checked together; the seeds one file at a time.
        groups = [[f] for f in changed] if source == SEEDS else [swift_files(written)]
        passed = 0
        for number, group in enumerate(groups):
            checked = self.work / "typecheck" / name / str(number)
            checked.mkdir(parents=True)
            files = []
            for file in group:
                text = re.sub(r"@objc(\([^)]*\))?\s+", "", file.read_text(encoding="utf-8"))
                text = re.sub(r"#selector\(((?:[^()]|\([^()]*\))*)\)", r'Selector("\1")', text)
                target = checked / file.name
                target.write_text(text, encoding="utf-8", newline="")
                files.append(str(target))
            ok = True
            for mode in LANGUAGE_MODES:
                command = ["swiftc", "-typecheck", "-swift-version", mode, "-I", str(self.bin_dir / "Modules"),
                           "-I", str(self.stub_dir)]
                for module_map in sorted(self.bin_dir.glob("*.build/module.modulemap")):
                    command += ["-Xcc", f"-fmodule-map-file={module_map}"]
                result = run(command + files)
                if result.returncode != 0:
                    ok = False
                    names = ", ".join(pathlib.Path(f).name for f in files)
                    self.fail(f"{name}: {names} does not type-check in Swift {mode} mode:\n{result.stderr}")
            if ok:
                passed += len([f for f in group if f in changed])
        return fixes, len(changed), passed, left


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True, help="the timerkit-audit executable")
    parser.add_argument("--bin", required=True, type=pathlib.Path,
                        help="the root package's build directory (swift build --show-bin-path), with TimerKit and "
                             "TimerKitMigration built")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory and print its path")
    args = parser.parse_args()
    for module in ("TimerKit", "TimerKitMigration"):
        if not (args.bin / "Modules" / f"{module}.swiftmodule").exists():
            sys.exit(f"check-fixes: {args.bin}/Modules has no {module}.swiftmodule; build the root package first")
    binary = str(pathlib.Path(args.binary).resolve())
    work = pathlib.Path(tempfile.mkdtemp(prefix="timerkit-audit-fixes-"))
    try:
        checker = Checker(binary, args.bin.resolve(), work)
        seed_files = swift_files(SEEDS)
        fixes, rewritten, passed, left = checker.check(SEEDS, "seeds")
        print(f"seeds ({len(seed_files)} files in Audit/Tests/FixSeeds): {fixes} fixes applied in {rewritten} files, "
              f"{left} findings without an exact fix left as they are; {passed} of {rewritten} rewritten files "
              f"type-check (Swift {' and '.join(LANGUAGE_MODES)}) against TimerKit + TimerKitMigration")
        if fixes == 0:
            checker.fail("seeds: no fix applied")
        leaks, fixable = corpus_cases(binary)
        totals = [0, 0, 0, 0]
        for case in fixable:
            result = checker.check(case, case.name)
            totals = [a + b for a, b in zip(totals, result)]
            print(f"  {case.name}: {result[0]} fixes, {result[2]} of {result[1]} rewritten files type-check")
        print(f"corpus ({len(leaks)} Swift leak cases, {len(fixable)} with exact fix-its): {totals[0]} fixes applied "
              f"in {totals[1]} files; {totals[2]} of {totals[1]} rewritten files type-check; the other "
              f"{len(leaks) - len(fixable)} cases have no exact fix-it (nothing rewritten, not type-checked)")
        if checker.failures:
            print(f"check-fixes: {len(checker.failures)} failure(s)")
            return 1
        print("check-fixes: every rewritten file type-checks; the diffs apply; a second run finds nothing to fix")
        return 0
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
