#!/usr/bin/env bash
# Fails when the public API of TimerKit, TimerKitTesting or TimerKitMigration breaks a build that compiled
# against TimerKit 1.0.0, the commit below (swift package diagnose-api-breaking-changes, swift-api-digester).
#
# scripts/api-breakage-allowlist.txt lists the changes the digester reports that no call breaks, each with
# its reason; a new entry there needs the same argument in CHANGELOG.md.
#
#   bash scripts/check-api.sh [swift build options]
set -euo pipefail
cd "$(dirname "$0")/.."

# TimerKit 1.0.0 (CHANGELOG.md).
baseline=180aa306c4f7cf838fab8393b89a97cc58653e33

allowlist=$(mktemp)
trap 'rm -f "$allowlist"' EXIT
grep -v '^#' scripts/api-breakage-allowlist.txt | grep -v '^$' > "$allowlist" || true
swift package "$@" diagnose-api-breaking-changes "$baseline" \
    --products TimerKit TimerKitTesting TimerKitMigration --breakage-allowlist-path "$allowlist"
