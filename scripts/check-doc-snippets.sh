#!/usr/bin/env bash
# Compiles every ```swift block of README.md and of the DocC catalog (Sources/TimerKit/TimerKit.docc)
# against the package's library modules (TimerKit, TimerKitTesting), so that a documented example cannot
# drift from the API.
#
#   scripts/check-doc-snippets.sh [swift build options]
#
# The options go to `swift build`, which builds the package's targets first: give the options of an earlier
# build (for example -Xswiftc -warnings-as-errors) to reuse it instead of rebuilding. Each block compiles
# on its own in Swift 6 mode; a warning fails it too (except an unused value). Generated sources are kept
# in .build/doc-snippets. A block that is not a whole program is marked in the Markdown with an HTML
# comment right before its fence (GitHub and DocC do not show it):
#
#   <!-- snippet: fragment: REASON -->    skipped, and the reason is printed
#   <!-- snippet: in NAME -->             compiled inside scripts/doc-snippets/contexts/NAME.swift
#   <!-- snippet: each line in NAME -->   each line compiled on its own inside that context
#   <!-- snippet: warns: TEXT -->         must compile with a warning containing TEXT
#
# Details: scripts/doc-snippets/check.py. Prints how many blocks were compiled and skipped (and why); exits
# 1, naming the Markdown file and line, if a block does not compile.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build "$@"
bin=$(swift build --show-bin-path "$@")
python3 scripts/doc-snippets/check.py --bin "$bin" --jobs "$(nproc)" README.md Sources/TimerKit/TimerKit.docc
