#!/usr/bin/env python3
"""Compiles every ```swift block of the given Markdown files against the built TimerKit modules.

Run it through scripts/check-doc-snippets.sh, which builds the modules first. Each block is compiled on its
own, as the only file of a throwaway module (so top-level code is allowed), in Swift 6 mode. Any warning
fails it, except a value the example names and does not go on to use (`let tick = …`, `for await tick in
… { … }`) and the warning a `warns:` directive expects. Diagnostics name the Markdown file and line.

A block is compiled as written, except that an ellipsis (…, elided code) becomes the comment /* … */. An
HTML comment on the line right before the fence (blank lines between are allowed) may say how to compile
it:

    <!-- snippet: fragment: REASON -->   not compiled; the reason is printed (a line of a longer example,
                                         Apple-only code, a deliberate error)
    <!-- snippet: in NAME -->            compiled inside scripts/doc-snippets/contexts/NAME.swift, in place of
                                         its word SNIPPET (declarations the block leans on, or the body it
                                         goes in; what follows SNIPPET on its line follows the block)
    <!-- snippet: each line in NAME -->  each non-blank line of the block replaces `SNIPPET` in that context
                                         line on its own (a list of expressions)
    <!-- snippet: warns: TEXT -->        must compile, and must produce a warning containing TEXT

Directives combine with `;` (`in NAME; warns: TEXT`). A context whose first line is `// snippet-module:
PackageDescription` is compiled as a package manifest. Every ```swift block is either compiled or skipped
with a reason; an unknown directive, or one not followed by a ```swift block, is an error.
"""

import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
DIRECTIVE = re.compile(r"^\s*<!--\s*snippet:\s*(?P<body>.*?)\s*-->\s*$")
PLACEHOLDER = "SNIPPET"
# The one kind of warning an example may cause: a value it names and does not go on to use. (An unused
# result of a call is not one of them: that is how a dropped ticker handle shows.)
UNUSED_VALUE = re.compile(r"warning: (initialization of )?(immutable value|variable) '[^']*' was (never used|"
                          r"written to, but never read)")


class Block:
    def __init__(self, path, line, code, directives):
        self.path = path  # as given (relative to the repository root)
        self.line = line  # 1-based line of the opening fence
        self.code = code  # lines, fence indentation removed
        self.directives = directives
        self.where = f"{path}:{line}"


def fail(message):
    print(f"doc snippets: {message}", file=sys.stderr)
    sys.exit(1)


def parse_directives(text, where):
    result = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        if m := re.fullmatch(r"fragment:?\s+(.+)", part):
            result["fragment"] = m.group(1)
        elif m := re.fullmatch(r"each line in\s+([\w-]+)", part):
            result["context"], result["each_line"] = m.group(1), True
        elif m := re.fullmatch(r"in\s+([\w-]+)", part):
            result["context"], result["each_line"] = m.group(1), False
        elif m := re.fullmatch(r"warns:?\s+(.+)", part):
            result["warns"] = m.group(1)
        else:
            fail(f"{where}: unknown snippet directive '{part}' (see scripts/doc-snippets/check.py)")
    if not result:
        fail(f"{where}: empty snippet directive")
    return result


def is_swift(info):
    """Whether a fence's info string opens a Swift block (```swift, also with words or options after it)."""
    words = re.split(r"[\s,]+", info.strip(), maxsplit=1)
    return words[0] == "swift"


def extract(path):
    lines = pathlib.Path(path).read_text(encoding="utf-8").split("\n")
    blocks, i = [], 0
    while i < len(lines):
        directive = DIRECTIVE.match(lines[i])
        opening = FENCE.match(lines[i])
        if directive:
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            following = FENCE.match(lines[j]) if j < len(lines) else None
            if not following or not is_swift(following.group("info")):
                fail(f"{path}:{i + 1}: snippet directive not followed by a ```swift block")
        if not opening:
            i += 1
            continue
        indent, fence, info = opening.group("indent"), opening.group("fence"), opening.group("info").strip()
        end = i + 1
        while end < len(lines):
            closing = FENCE.match(lines[end])
            if closing and closing.group("fence").startswith(fence) and not closing.group("info").strip():
                break
            end += 1
        if end == len(lines):
            fail(f"{path}:{i + 1}: code block never closed")
        if is_swift(info):
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            previous = DIRECTIVE.match(lines[k]) if k >= 0 else None
            directives = parse_directives(previous.group("body"), f"{path}:{k + 1}") if previous else {}
            code = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:end]]
            blocks.append(Block(path, i + 1, code, directives))
        i = end + 1
    return blocks


def source(block, contexts_dir):
    """The Swift file for `block`, the Markdown line of each of its lines (None: from the context), and the
    module the context asks for."""
    code = [line.replace("…", "/* … */") for line in block.code]
    origin = [block.line + 1 + n for n in range(len(code))]
    name = block.directives.get("context")
    if name is None:
        return code, origin, None
    context_path = contexts_dir / f"{name}.swift"
    if not context_path.exists():
        fail(f"{block.where}: no context {context_path}")
    context = context_path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    module = m.group(1) if (m := re.match(r"//\s*snippet-module:\s*(\w+)", context[0])) else None
    slots = [n for n, line in enumerate(context) if PLACEHOLDER in line]
    if len(slots) != 1:
        fail(f"{context_path}: needs exactly one line containing {PLACEHOLDER}")
    slot = context[slots[0]]
    if block.directives["each_line"]:
        pairs = [(slot.replace(PLACEHOLDER, line), at) for line, at in zip(code, origin) if line.strip()]
    else:
        pad, suffix = slot.split(PLACEHOLDER, 1)
        if pad.strip():
            fail(f"{context_path}: only indentation may come before {PLACEHOLDER} (or use `each line in`)")
        pairs = [(pad + line if line.strip() else "", at) for line, at in zip(code, origin)]
        last = max((n for n, (text, _) in enumerate(pairs) if text), default=None)
        if last is not None:  # what follows SNIPPET (a comma, say) goes after the block's last line
            pairs[last] = (pairs[last][0] + suffix, pairs[last][1])
    lines = context[: slots[0]] + [text for text, _ in pairs] + context[slots[0] + 1:]
    origin = [None] * slots[0] + [at for _, at in pairs] + [None] * (len(context) - slots[0] - 1)
    return lines, origin, module


def compile_block(block, number, args):
    lines, origin, module = source(block, args.contexts)
    stem = re.sub(r"[^A-Za-z0-9]+", "-", f"{block.path}-{block.line}").strip("-")
    swift_file = args.work / f"{number:03d}-{stem}.swift"
    swift_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    command = ["swiftc", "-swift-version", "6", "-diagnostic-style", "llvm", "-module-name", "DocSnippet"]
    if module == "PackageDescription":
        command += ["-typecheck", "-I", str(args.manifest_api), "-package-description-version", "6.1"]
    else:
        command += ["-c", "-o", str(swift_file.with_suffix(".o")), "-I", str(args.bin / "Modules")]
        # The package's C targets (imported internally by TimerKit), through the module maps SwiftPM wrote.
        for module_map in sorted(args.bin.glob("*.build/module.modulemap")):
            command += ["-Xcc", f"-fmodule-map-file={module_map}"]
    result = subprocess.run(command + [str(swift_file)], capture_output=True, text=True)

    # Diagnostics about a line of the block name the Markdown file and line.
    def relocate(match):
        at = origin[int(match.group(2)) - 1] if int(match.group(2)) <= len(origin) else None
        return f"{block.path}:{at}:" if at else match.group(0)

    pattern = re.compile(rf"^({re.escape(str(swift_file))}):(\d+):", re.M)
    output = pattern.sub(relocate, (result.stdout + result.stderr).strip())
    warnings = re.findall(r"^\S+:\d+:\d+: warning: .*$", output, re.M)
    expected = block.directives.get("warns")
    unexpected = [w for w in warnings if not UNUSED_VALUE.search(w) and not (expected and expected in w)]
    if result.returncode != 0 or unexpected:
        return f"{block.where}: the ```swift block does not compile cleanly ({swift_file}):\n{output}"
    if expected and not any(expected in w for w in warnings):
        return f"{block.where}: expected a warning containing '{expected}', the compiler said:\n{output or '(nothing)'}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", type=pathlib.Path, required=True, help="swift build --show-bin-path")
    parser.add_argument("--work", type=pathlib.Path, default=pathlib.Path(".build/doc-snippets"))
    parser.add_argument("--contexts", type=pathlib.Path, default=pathlib.Path("scripts/doc-snippets/contexts"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("paths", nargs="+", help="Markdown files, or directories searched for *.md")
    args = parser.parse_args()

    swiftc = shutil.which("swiftc")
    if not swiftc:
        fail("swiftc not found")
    args.manifest_api = pathlib.Path(swiftc).resolve().parent.parent / "lib" / "swift" / "pm" / "ManifestAPI"
    files = []
    for path in args.paths:
        p = pathlib.Path(path)
        files += sorted(str(f) for f in p.rglob("*.md")) if p.is_dir() else [str(p)]
    blocks = [block for path in files for block in extract(path)]

    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    skipped = [b for b in blocks if "fragment" in b.directives]
    compiled = [b for b in blocks if "fragment" not in b.directives]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        failures = [f for f in pool.map(lambda nb: compile_block(nb[1], nb[0], args), enumerate(compiled)) if f]

    in_context = sum(1 for b in compiled if "context" in b.directives)
    print(f"doc snippets: {len(blocks)} ```swift blocks in {len(files)} Markdown files: {len(compiled)} "
          f"compiled ({in_context} inside a context), {len(skipped)} skipped on purpose"
          + (":" if skipped else ""))
    for block in skipped:
        print(f"  skipped {block.where}: {block.directives['fragment']}")
    for failure in failures:
        print(f"\n{failure}")
    sys.stdout.flush()
    if failures:
        fail(f"{len(failures)} of {len(compiled)} compiled blocks failed (file and line of each above)")
    print(f"doc snippets: all {len(compiled)} compiled blocks compile")


if __name__ == "__main__":
    main()
