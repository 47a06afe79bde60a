#!/usr/bin/env bash
# Checks that bad input stops a RELEASE build (-O) with its message, not a bare "precondition failure":
# runs the exit tests of BadInputMessageTests and MigrationBadInputTests (every entry point documented as "stops the program with a
# message") in the release configuration. Usage: bash scripts/release-messages.sh [extra swift test flags]
set -euo pipefail
cd "$(dirname "$0")/.."
# The package in scripts/release-messages builds just these two test files (symbolic links to the root
# package's) against TimerKit with -O; a release build of the whole test suite took four minutes of CI.
swift test -c release --package-path scripts/release-messages "$@"
