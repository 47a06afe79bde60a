#!/usr/bin/env bash
# Times timerkit-audit on generated input. From the repository root:
#   bash Audit/scripts/perf.sh [lines]
#       a whole-project scan (release build) of about 100,000 lines (default) of mixed Swift and Objective-C,
#       made by copying the test fixtures into a temporary directory until the line count is reached;
#   bash Audit/scripts/perf.sh --fix TIMERS [debug|release]
#       `--fix` (the dry run) on one Swift file holding a view controller with TIMERS repeating timers that
#       retain it, each kept in its own property and each with an exact fix-it (default: release build).
# Extra `swift build` options (for example --jobs 1) can be given in SWIFT_BUILD_OPTIONS.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
read -r -a build_options <<< "${SWIFT_BUILD_OPTIONS:-}"

binary_for() {
    swift build -c "$1" "${build_options[@]}" --package-path . --product timerkit-audit > /dev/null
    echo "$(swift build -c "$1" "${build_options[@]}" --package-path . --show-bin-path)/timerkit-audit"
}

# Runs the command; its exit status goes to $status and its wall time to $elapsed (`elapsed N.NN s`).
timed() {
    local start end
    start=$(date +%s.%N)
    set +e
    "$@"
    status=$?
    set -e
    end=$(date +%s.%N)
    elapsed=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "elapsed %.2f s", e - s }')
}

if [ "${1:-}" = "--fix" ]; then
    timers="${2:?give the number of timers: --fix TIMERS}"
    configuration="${3:-release}"
    mkdir -p "$work/in"
    python3 - "$timers" "$work/in/ManyTimersController.swift" <<'PY'
import sys
count, path = int(sys.argv[1]), sys.argv[2]
lines = ["import UIKit", "", "final class ManyTimersController: UIViewController {"]
lines += [f"    var timer{i}: Timer?" for i in range(count)]
for i in range(count):
    lines.append(f"    func start{i}() {{")
    if i % 2 == 0:
        lines.append(f"        timer{i} = Timer.scheduledTimer(timeInterval: 1, target: self, "
                     f"selector: #selector(tick{i}), userInfo: nil, repeats: true)")
    else:
        lines.append(f"        timer{i} = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) "
                     f"{{ _ in self.tick{i}() }}")
    lines.append("    }")
    if i % 3 == 0:
        lines.append(f"    func stop{i}() {{ timer{i}?.invalidate() }}")
    lines.append(f"    @objc func tick{i}() {{}}")
open(path, "w").write("\n".join(lines + ["}", ""]))
PY
    binary="$(binary_for "$configuration")"
    echo "--fix on one file with $timers timers ($(wc -l < "$work/in/ManyTimersController.swift") lines, $configuration build)"
    timed "$binary" --fix "$work/in" > "$work/fix.diff" 2> "$work/fix.err"
    echo "exit status $status; $(tail -1 "$work/fix.err" | sed 's/^timerkit-audit: //')"
    echo "$elapsed"
    exit 0
fi

target_lines="${1:-100000}"
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

binary="$(binary_for release)"
echo "scanning $lines lines in $files files ($(nproc) cores)"
timed "$binary" --format json "$work" > "$work.json"
findings=$(grep -c '"rule"' "$work.json" || true)
rm -f "$work.json"
echo "exit status $status, $findings findings"
echo "$elapsed"
