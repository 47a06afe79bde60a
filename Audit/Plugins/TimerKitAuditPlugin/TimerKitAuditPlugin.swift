import Foundation
import PackagePlugin

/// `swift package timerkit-audit [--target NAME …] [timerkit-audit options]`: scans the source directories of
/// the package's own targets (or of the named ones) with timerkit-audit. The options after the target
/// selection go to the tool unchanged (`--format sarif`, `--baseline file`, `--fail-on note`, …); its output
/// and exit status are the tool's.
@main
struct TimerKitAuditPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
        let directories = targets.compactMap { $0 as? SourceModuleTarget }.map(\.directoryURL.path)
        guard !directories.isEmpty else {
            Diagnostics.error("timerkit-audit: the package has no source targets to scan")
            return
        }
        let tool = try context.tool(named: "timerkit-audit")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = extractor.remainingArguments + directories
        try process.run()
        process.waitUntilExit()
        let status = process.terminationStatus
        if status == 1 {
            Diagnostics.error("timerkit-audit: findings at or above --fail-on (exit status 1)")
        } else if status != 0 {
            Diagnostics.error("timerkit-audit exited with status \(status)")
        }
    }
}
