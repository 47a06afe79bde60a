enum SwiftAnalyzer { static func analyze(source: String, path: String) -> FileResult { FileResult() } }
