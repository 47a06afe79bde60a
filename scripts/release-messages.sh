#!/usr/bin/env bash
# Checks that bad input stops a RELEASE build (-O) with its message, not a bare "precondition failure":
# runs the exit tests of BadInputMessageTests and MigrationBadInputTests (every entry point documented as "stops the program with a
# message") in the release configuration. Usage: bash scripts/release-messages.sh [extra swift test flags]
set -euo pipefail
cd "$(dirname "$0")/.."
swift test -c release --filter "BadInputMessageTests|MigrationBadInputTests" "$@"
