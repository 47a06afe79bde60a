#!/usr/bin/env python3
"""Compile-fail suite: TimerKit's isolation rules are checked by the compiler.

Every snippet in Tests/CompileChecks/fail must NOT compile, and must fail for the stated reason: a comment
line `// expected-error: <text>` says that the next line of code must get an error whose message contains
<text> (several such lines may precede one line), and no other line may get an error (a snippet that fails
for another reason, a typo say, fails the suite).
Every snippet in Tests/CompileChecks/pass must compile with no error and no warning.

Snippets are type-checked in Swift 6 mode against the modules of a debug `swift build` of this package
(run it first; `.ci/run` does). A snippet whose first line is `// compile-check: ownership` is compiled to
SIL instead, since the checks of noncopyable values' ownership run after type checking (such a snippet may
`@testable import TimerKit`: the debug build enables testing). Usage: python3 scripts/check-compile-fail.py [--bin-path PATH]
"""
import argparse
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHECKS = ROOT / "Tests" / "CompileChecks"
MARKER = re.compile(r"^\s*//\s*expected-error:\s*(.+?)\s*$")
DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+\.swift):(?P<line>\d+):(?P<column>\d+): (?P<kind>error|warning): (?P<text>.*)$",
                        re.MULTILINE)


def bin_path(explicit):
    if explicit:
        return pathlib.Path(explicit)
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return pathlib.Path(out.stdout.strip())


def typecheck(snippet, bins):
    modulemap = bins / "CTimerKit.build" / "module.modulemap"
    ownership = snippet.read_text().startswith("// compile-check: ownership")
    mode = ["-emit-sil", "-o", "/dev/null"] if ownership else ["-typecheck"]
    command = ["swiftc", *mode, "-swift-version", "6", "-I", str(bins / "Modules"),
               "-Xcc", f"-fmodule-map-file={modulemap}", str(snippet)]
    result = subprocess.run(command, capture_output=True, text=True)
    output = result.stdout + result.stderr
    diagnostics = [m.groupdict() for m in DIAGNOSTIC.finditer(output)
                   if pathlib.Path(m.group("file")).name == snippet.name]
    return result.returncode, diagnostics, output


def check_fail(snippet, bins):
    expected = {}
    waiting = []
    for number, text in enumerate(snippet.read_text().splitlines(), start=1):
        match = MARKER.match(text)
        if match:
            waiting.append(match.group(1))
        elif waiting and text.strip():
            expected[number] = waiting
            waiting = []
    if not expected:
        return [f"{snippet.name}: no `// expected-error:` marker"]
    status, diagnostics, output = typecheck(snippet, bins)
    problems = []
    if status == 0:
        problems.append(f"{snippet.name}: compiled, but must not")
    errors = [d for d in diagnostics if d["kind"] == "error"]
    for line, texts in expected.items():
        for text in texts:
            if not any(int(d["line"]) == line and text in d["text"] for d in errors):
                got = [d["text"] for d in errors if int(d["line"]) == line]
                problems.append(f"{snippet.name}:{line}: expected an error containing {text!r}; got {got or 'none'}")
    for d in errors:
        if int(d["line"]) not in expected:
            problems.append(f"{snippet.name}:{d['line']}: unexpected error: {d['text']}")
    if problems and status != 0 and not errors:
        problems.append(output.strip())
    return problems


def check_pass(snippet, bins):
    status, diagnostics, output = typecheck(snippet, bins)
    problems = [f"{snippet.name}:{d['line']}: {d['kind']}: {d['text']}" for d in diagnostics]
    if status != 0 and not problems:
        problems.append(f"{snippet.name}: did not compile:\n{output.strip()}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-path", help="the directory `swift build --show-bin-path` prints")
    args = parser.parse_args()
    bins = bin_path(args.bin_path)
    failing = sorted((CHECKS / "fail").glob("*.swift"))
    passing = sorted((CHECKS / "pass").glob("*.swift"))
    problems = []
    for snippet in failing:
        found = check_fail(snippet, bins)
        print(f"{'ok  ' if not found else 'FAIL'} must not compile: {snippet.name}")
        problems += found
    for snippet in passing:
        found = check_pass(snippet, bins)
        print(f"{'ok  ' if not found else 'FAIL'} must compile:     {snippet.name}")
        problems += found
    if problems:
        print("\n".join(["", "compile checks failed:"] + problems))
        return 1
    print(f"compile checks: {len(failing)} snippets rejected for the stated reason, {len(passing)} compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
