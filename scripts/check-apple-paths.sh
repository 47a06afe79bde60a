#!/usr/bin/env bash
# Type-checks every Apple-only line of TimerKit on Linux, against a model of Apple's documented API.
#
#   scripts/check-apple-paths.sh               the check (CI step "apple paths")
#   scripts/check-apple-paths.sh --self-test   also shows that a seeded mistake in each Apple-only file fails it
#
# What it does: builds the model modules in scripts/apple-model (ObjectiveC, Darwin, QuartzCore: each
# declaration written from Apple's documentation, with its page named next to it; Darwin re-exports Glibc for
# the POSIX part both platforms share), copies TimerKit's sources, makes the Apple-only files' platform
# conditions true in the copy only (DisplayLinkFrameSource.swift's iOS condition; Platform.swift's
# `canImport(Darwin)` is true because the model Darwin module is on the path), and type-checks the whole
# module. Swift on Linux has no Objective-C interoperability (and its standard library cannot type-check
# pointer conversions with it turned on), so in the copy `@objc` is dropped and `#selector(Type.method(_:))`
# becomes `Selector(Type.method(_:))`, which the model's `Selector` accepts for any method reference: the
# method must still exist with that name and arity. The C target's Apple branch (ThreadTuning.c) is
# syntax-checked with `__APPLE__` defined, against a model <pthread.h>.
#
# What it is not: a build with Apple's SDK. It catches typos, calls that do not match the documented API,
# and Apple-only code that drifted from the rest of the library; it cannot catch a difference between
# Apple's documentation and its SDK, or behaviour (the macOS job of the GitHub workflow runs the tests).
set -euo pipefail
cd "$(dirname "$0")/.."

model=scripts/apple-model
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
modules=$work/modules
mkdir -p "$modules" "$work/CTimerKit"

emit() {  # emit <module> <source>
    swiftc -emit-module -parse-as-library -swift-version 6 -I "$modules" -module-name "$1" \
        -emit-module-path "$modules/$1.swiftmodule" "$2"
}
emit ObjectiveC "$model/ObjectiveC.swift"
emit Darwin "$model/Darwin.swift"
emit QuartzCore "$model/QuartzCore.swift"
emit UIKit "$model/UIKit.swift"

cp Sources/CTimerKit/include/CTimerKit.h "$work/CTimerKit/"
printf 'module CTimerKit {\n    header "CTimerKit.h"\n    export *\n}\n' > "$work/CTimerKit/module.modulemap"

apple_condition='#if canImport(UIKit) \&\& (os(iOS) || os(tvOS) || os(visionOS)) \&\& !targetEnvironment(macCatalyst)'

# check <sources-dir> <c-file>: the Swift type-check of one copy of the library and of the Apple-only
# tests against it (built as a module with testing enabled, for `@testable import`), and the C syntax check.
check() {
    local sources=$1 tuning=$2 source
    local files=()
    while IFS= read -r source; do files+=("$source"); done < <(find "$sources" -name '*.swift' | sort)
    mkdir -p "$work/built"
    swiftc -emit-module -parse-as-library -swift-version 6 -module-name TimerKit -package-name TimerKit \
        -enable-testing -I "$modules" -I "$work/CTimerKit" -emit-module-path "$work/built/TimerKit.swiftmodule" \
        "${files[@]}" &&
        swiftc -typecheck -parse-as-library -swift-version 6 -module-name TimerKitTests -I "$modules" \
            -I "$work/built" -I "$work/CTimerKit" "$sources.tests/DisplayLinkTests.swift" &&
        clang -fsyntax-only -nostdlibinc -U__linux__ -D__APPLE__ -I "$model/c" \
            -I Sources/CTimerKit/include "$tuning"
}

# copy <dir>: TimerKit's sources with the Apple-only files' conditions made true.
copy() {
    rm -rf "$1"
    mkdir -p "$1"
    cp -R Sources/TimerKit/. "$1/"
    rm -rf "$1/TimerKit.docc"
    local display="$1/Frame/DisplayLinkFrameSource.swift"
    grep -q "^$apple_condition\$" "$display" || {
        echo "check-apple-paths: the condition of $display changed; update this script" >&2
        exit 1
    }
    sed -i -e "s/^$apple_condition\$/#if true  \/\/ made true for check-apple-paths.sh/" \
        -e 's/@objc //' -e 's/#selector(/Selector(/g' "$display"
    grep -q '^#if canImport(Darwin)$' "$1/Platform/Platform.swift" || {
        echo "check-apple-paths: Platform.swift no longer starts its Darwin branch as expected" >&2
        exit 1
    }
    cp Sources/CTimerKit/ThreadTuning.c "$work/ThreadTuning.c"
    rm -rf "$1.tests"
    mkdir -p "$1.tests"
    sed -e "s/^$apple_condition\$/#if true  \/\/ made true for check-apple-paths.sh/" \
        Tests/TimerKitTests/DisplayLinkTests.swift > "$1.tests/DisplayLinkTests.swift"
    grep -q '^#if true  // made true' "$1.tests/DisplayLinkTests.swift" || {
        echo "check-apple-paths: the condition of DisplayLinkTests.swift changed; update this script" >&2
        exit 1
    }
}

copy "$work/TimerKit"
check "$work/TimerKit" "$work/ThreadTuning.c"
echo "apple paths: DisplayLinkFrameSource.swift, Platform.swift's Darwin branch, DisplayLinkTests.swift and ThreadTuning.c's Apple branch type-check against the model"

[[ "${1:-}" == "--self-test" ]] || exit 0

# Each seeded mistake must make the check fail: <file in the copy> <sed expression> <what it stands for>.
mistakes=(
    "Frame/DisplayLinkFrameSource.swift|s/link.preferredFrameRateRange = /link.preferredFrameRange = /|a typo in a CADisplayLink property"
    "Frame/DisplayLinkFrameSource.swift|s/link.add(to: .main, forMode: .common)/link.add(to: .main)/|a call that does not match the documented API"
    "Frame/DisplayLinkFrameSource.swift|s/source.refresh(index: /source.refresh(at: /|Apple-only code drifted from the library's own API"
    "Platform/Platform.swift|0,/pthread_cond_timedwait_relative_np(condition, mutex, \&timeout)/s//pthread_cond_timedwait_relative_np(condition, \&timeout)/|a Darwin call with a wrong signature"
    "Platform/Platform.swift|0,/thread.qualityOfService = .userInteractive/s//thread.qualityOfService = .userInteractivity/|a typo in the Darwin branch"
    "DisplayLinkTests.swift|s/UIScreen.main.maximumFramesPerSecond/UIScreen.main.maximumFrameRate/|a typo in the Apple-only tests"
    "ThreadTuning.c|s/return pthread_setname_np(name);/return pthread_setname_np(pthread_self(), name);/|Linux's pthread_setname_np signature on Apple platforms"
)
failures=0
for mistake in "${mistakes[@]}"; do
    IFS='|' read -r file expression what <<<"$mistake"
    copy "$work/seeded"
    target="$work/seeded/$file"
    [[ "$file" == ThreadTuning.c ]] && target="$work/ThreadTuning.c"
    [[ "$file" == DisplayLinkTests.swift ]] && target="$work/seeded.tests/DisplayLinkTests.swift"
    before=$(md5sum "$target")
    sed -i "$expression" "$target"
    if [[ "$(md5sum "$target")" == "$before" ]]; then
        echo "self-test: the mistake '$what' did not apply to $file" >&2
        failures=$((failures + 1))
    elif check "$work/seeded" "$work/ThreadTuning.c" >"$work/seeded.log" 2>&1; then
        echo "self-test: the check passed with $what in $file" >&2
        failures=$((failures + 1))
    else
        echo "self-test: $what in $file fails the check, as it should:"
        grep -m 1 -E "error:" "$work/seeded.log" | sed -e "s|$work/seeded/||" -e "s|$work/seeded.tests/||" \
            -e "s|$work/||" -e 's/^/    /'
    fi
done
cp Sources/CTimerKit/ThreadTuning.c "$work/ThreadTuning.c"
exit "$failures"
