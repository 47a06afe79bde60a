#!/usr/bin/env bash
# Times timerkit-audit (release build) on about 100,000 lines of mixed Swift and Objective-C, made by
# copying the test fixtures into a temporary directory until the line count is reached.
#   bash Audit/scripts/perf.sh [lines]        (from the repository root; default 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
target_lines="${1:-100000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fixtures=(Tests/AuditCoreTests/Fixtures/Swift/*.swift Tests/AuditCoreTests/Fixtures/ObjC/*.m)
lines=0
copy=0
while [ "$lines" -lt "$target_lines" ]; do
    dir="$work/module$((copy / 20))"
    mkdir -p "$dir"
    for fixture in "${fixtures[@]}"; do
        name="$(basename "$fixture")"
        cp "$fixture" "$dir/${copy}_$name"
        lines=$((lines + $(wc -l < "$fixture")))
    done
    copy=$((copy + 1))
done
files=$(find "$work" -type f | wc -l)

swift build -c release --package-path . --product timerkit-audit > /dev/null
binary="$(swift build -c release --package-path . --show-bin-path)/timerkit-audit"
echo "scanning $lines lines in $files files ($(nproc) cores)"
start=$(date +%s.%N)
set +e
"$binary" --format json "$work" > "$work.json"
status=$?
set -e
end=$(date +%s.%N)
findings=$(grep -c '"rule"' "$work.json" || true)
rm -f "$work.json"
echo "exit status $status, $findings findings"
awk -v s="$start" -v e="$end" 'BEGIN { printf "elapsed %.2f s\n", e - s }'
