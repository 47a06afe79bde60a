import Foundation
import Testing

@testable import AuditCore

/// Runs the built `timerkit-audit` executable, as the README does, and checks its exit status and output.
struct CommandTests {
    /// The executable sits next to the test resources in the build directory.
    static let executable = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent(
        "timerkit-audit")

    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func exitStatusAndFormats() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let fixtures = FixtureTests.directory.path

        let compiler = try run([fixtures])
        #expect(compiler.status == 1)
        #expect(
            compiler.output.split(separator: "\n").allSatisfy {
                $0.contains(": warning: ") || $0.contains(": note: ") || $0.hasPrefix("fix-it:")
            })

        let json = try run(["--format", "json", "--fail-on", "none", fixtures])
        #expect(json.status == 0)
        let document = try JSONDecoder().decode(JSONOutput.Document.self, from: Data(json.output.utf8))
        #expect(document.findings == Auditor.audit(paths: [fixtures]).findings)

        let sarif = try run(["--format", "sarif", fixtures])
        #expect(sarif.status == 1)
        #expect(try JSONDecoder().decode(SARIFOutput.Log.self, from: Data(sarif.output.utf8)).version == "2.1.0")

        let clean = FixtureTests.directory.appendingPathComponent("ObjC/Seed004WeakProxy.m").path
        #expect(try run([clean]).status == 0)
        let notesOnly = try run([
            "--disable", "timer-target-retain",
            FixtureTests.directory.appendingPathComponent("ObjC/Seed001RunLoopModes.m").path,
        ])
        #expect(notesOnly.status == 0)
        #expect(
            try run([
                "--fail-on", "note", FixtureTests.directory.appendingPathComponent("ObjC/Seed001RunLoopModes.m").path,
            ]).status == 1)
        #expect(try run([clean, "/nonexistent/timerkit-audit"]).status == 2)
        #expect(try run(["--disable", "no-such-rule", clean]).status == 64)
        #expect(try run([]).status == 64)
    }
}
