import AuditCore
print(Auditor.audit(paths: Array(CommandLine.arguments.dropFirst())).findings.map(CompilerOutput.line(for:)).joined(separator: "\n"))
