#!/usr/bin/env bash
# Builds timerkit-audit (Audit/) and the TimerKit + TimerKitMigration modules (the root package), then runs
# check-fixes.py: the seeds' examples and the corpus's fixable Swift leaks are rewritten by
# `timerkit-audit --fix --write` in a temporary copy and type-checked against the modules.
#
#   bash Audit/scripts/check-fixes.sh [swift build options]
#
# The options go to both `swift build`s: give those of an earlier build (for example --jobs 2
# -Xswiftc -warnings-as-errors) to reuse it instead of rebuilding.
set -euo pipefail
cd "$(dirname "$0")/../.."

swift build "$@" --target TimerKitMigration
swift build "$@" --package-path Audit --product timerkit-audit
bin=$(swift build --show-bin-path "$@")
audit_bin=$(swift build --show-bin-path --package-path Audit "$@")
python3 Audit/scripts/check-fixes.py --binary "$audit_bin/timerkit-audit" --bin "$bin"
