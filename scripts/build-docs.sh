#!/usr/bin/env bash
# Builds TimerKit's DocC documentation offline with the toolchain's own `docc`, and fails on any docc
# warning: from the catalog (Sources/TimerKit/TimerKit.docc) or from doc comments in the sources.
#
#   scripts/build-docs.sh [output-dir]
#
# Output: a static-hostable archive, by default .build-docs/TimerKit.doccarchive (open its
# documentation/timerkit/index.html through a local web server, e.g. `python3 -m http.server`).
# Scratch files live in .build-docs/ (git-ignored). Set DOCS_ALLOW_WARNINGS=1 to report warnings
# without failing.
set -euo pipefail
cd "$(dirname "$0")/.."

work=.build-docs
output=${1:-$work/TimerKit.doccarchive}
symbols=$work/symbol-graphs

# A fresh scratch build every time: the compiler writes symbol graphs only when it compiles, so a cached
# build would leave the directory empty. A separate scratch path keeps these flags out of .build.
rm -rf "$work/build" "$symbols" "$output"
mkdir -p "$symbols"

# 1. Symbol graphs of the public API (TimerKit only; the opt-in TimerKitMigration module's look-alikes are
#    described in the migration guide and their own doc comments).
swift build --target TimerKit --scratch-path "$work/build" \
    -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbols" \
    -Xswiftc -emit-extension-block-symbols

if [[ ! -s "$symbols/TimerKit.symbols.json" ]]; then
    echo "build-docs: no symbol graph was written to $symbols" >&2
    exit 1
fi

# 2. The archive.
strict=(--warnings-as-errors)
if [[ "${DOCS_ALLOW_WARNINGS:-0}" == 1 ]]; then strict=(); fi

docc convert Sources/TimerKit/TimerKit.docc \
    --additional-symbol-graph-dir "$symbols" \
    --fallback-display-name TimerKit \
    --fallback-bundle-identifier org.timerkit.TimerKit \
    --output-path "$output" \
    "${strict[@]}"

echo "docs: $output"
