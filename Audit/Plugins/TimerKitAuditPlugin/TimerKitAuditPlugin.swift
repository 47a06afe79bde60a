import Foundation
import PackagePlugin

/// `swift package timerkit-audit [--target NAME …] [timerkit-audit options]`: scans the source directories of
/// the package's own targets (or of the named ones) with timerkit-audit. The options after the target
/// selection go to the tool unchanged (`--format sarif`, `--baseline file`, `--fail-on note`, `--fix`,
/// `--fix --write`, …); its output and exit status are the tool's. The tool runs in the package's directory with relative paths, so that a
/// baseline written on one machine matches on another.
@main
struct TimerKitAuditPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
        // Paths relative to the package, and the tool run from there: findings, baselines and SARIF name
        // `Sources/App/Clock.swift`, the same on every machine and checkout.
        let root = context.package.directoryURL.standardizedFileURL.path
        let directories = targets.compactMap { $0 as? SourceModuleTarget }.map { target in
            let path = target.directoryURL.standardizedFileURL.path
            return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
        }
        guard !directories.isEmpty else {
            Diagnostics.error("timerkit-audit: the package has no source targets to scan")
            return
        }
        let tool = try context.tool(named: "timerkit-audit")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = extractor.remainingArguments + directories
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        let status = process.terminationStatus
        if status == 1 && extractor.remainingArguments.contains("--fix") {
            Diagnostics.error(
                "timerkit-audit --fix: fixes to apply, or findings at or above --fail-on left (exit status 1)")
        } else if status == 1 {
            Diagnostics.error("timerkit-audit: findings at or above --fail-on (exit status 1)")
        } else if status != 0 {
            Diagnostics.error("timerkit-audit exited with status \(status)")
        }
    }
}
