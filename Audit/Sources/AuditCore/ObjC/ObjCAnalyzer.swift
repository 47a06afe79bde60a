/// The Objective-C analyzer: lexes the file, finds classes and methods, and checks every message send,
/// block and dispatch call in every method body.
enum ObjCAnalyzer {
    static func analyze(source: String, path: String) -> FileResult {
        let (tokens, problems) = ObjCLexer.tokenize(source)
        var result = FileResult()
        for problem in problems {
            result.diagnostics.append(FileDiagnostic(path: path, line: problem.line, message: problem.message))
        }
        var analysis = ObjCFileAnalysis(syntax: ObjCSyntax(tokens: tokens), path: path)
        if let line = analysis.syntax.unbalancedLine {
            result.diagnostics.append(
                FileDiagnostic(
                    path: path, line: line, message: "unbalanced brackets near this line; findings may be incomplete"))
        }
        analysis.run()
        result.findings = analysis.findings
        result.facts = analysis.facts
        return result
    }
}

/// One file's analysis state.
struct ObjCFileAnalysis {
    let syntax: ObjCSyntax
    let path: String
    private(set) var classes: [String: ObjCClass] = [:]
    private(set) var methods: [ObjCMethod] = []
    private(set) var findings: [Finding] = []
    private(set) var facts = FileFacts()

    private var tokens: [ObjCToken] { syntax.tokens }

    init(syntax: ObjCSyntax, path: String) {
        self.syntax = syntax
        self.path = path
    }

    mutating func run() {
        collectStructure()
        var facts = FileFacts()
        facts.language = .objectiveC
        for method in methods {
            var body = ObjCBodyAnalysis(file: self, method: method)
            body.run()
            findings += body.findings
            facts.timers[method.className ?? "", default: []] += body.stored
            facts.stops[method.className ?? "", default: []] += body.stops
            facts.calls += body.calls
            if method.isClassMethod, let className = method.className,
                ((method.body + 1)..<method.bodyEnd).contains(where: { tokens[$0].text == "dispatch_once" })
                    || ["shared", "default", "standard"].contains(where: { method.name.hasPrefix($0) }),
                constructsInstance(of: className, in: (method.body + 1)..<method.bodyEnd)
            {
                // `+ (instancetype)sharedInstance { static …; dispatch_once(&once, ^{ x = [[self alloc] init]; }); … }`,
                // or a `+shared…`/`+default…` accessor that makes the instance through a macro; not a
                // `dispatch_once` that caches a formatter or an image cache.
                classes[className, default: ObjCClass()].hasSharedInstance = true
            }
            if !method.isClassMethod, let className = method.className {
                classes[className, default: ObjCClass()].methods.insert(method.name)
            }
        }
        for (name, info) in classes {
            var type = TypeFacts()
            type.declared = info.declared
            type.livesForProcess = info.livesForProcess
            type.hasSharedInstance = info.hasSharedInstance
            type.publicMethods = info.publicMethods
            type.retainsTarget = info.properties.contains { $0.key.lowercased().contains("target") && !$0.value.isWeak }
            type.isMainActor = isMainActor(name)
            type.methods = Set(info.methods.map(ObjCBodyAnalysis.key))
            type.properties = info.properties.mapValues(\.isWeak)
            facts.types[name] = type
        }
        self.facts = facts
    }

    /// Whether `range` makes an instance of `className`: `[X alloc]`, `[X new]`, `[self alloc]`, `[self new]`,
    /// `[[self class] alloc]`, `[super allocWithZone:…]`.
    private func constructsInstance(of className: String, in range: Range<Int>) -> Bool {
        range.contains { index in
            guard syntax.isPunctuation(index, "[") else { return false }
            let receiver = syntax.text(index + 1)
            let selector = syntax.text(index + 2)
            if ["alloc", "new", "allocWithZone"].contains(selector), [className, "self", "super"].contains(receiver) {
                return true
            }
            return receiver == "[" && syntax.text(index + 2) == "self" && syntax.text(index + 3) == "class"
                && syntax.isPunctuation(index + 4, "]") && ["alloc", "new"].contains(syntax.text(index + 5))
        }
    }

    /// Whether the class is a UIKit/AppKit view or controller (main-actor isolated once moved to Swift).
    func isMainActor(_ className: String?) -> Bool {
        guard let className, let superclass = classes[className]?.superclass else { return false }
        return Advice.isMainActorSuperclass(superclass) || (superclass != className && isMainActorDirect(superclass))
    }

    private func isMainActorDirect(_ className: String) -> Bool {
        classes[className]?.superclass.map(Advice.isMainActorSuperclass) ?? false
    }

    func isScrollRelated(_ className: String?) -> Bool {
        guard let className else { return false }
        return Rule.isScrollRelated([className, classes[className]?.superclass ?? ""])
    }

    // MARK: Structure

    private mutating func collectStructure() {
        var index = 0
        var implementation: String?
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .atKeyword {
                switch token.text {
                case "@interface":
                    index = parseInterface(at: index)
                    continue
                case "@implementation":
                    let name = syntax.text(index + 1)
                    implementation = name
                    classes[name, default: ObjCClass()].declared = true
                    index += 2
                    if syntax.isPunctuation(index, "{") {
                        parseIvars(at: index, into: name)
                        index = syntax.after(index)
                    }
                    continue
                case "@protocol" where !syntax.isPunctuation(index + 1, "("):
                    index = skipToEnd(from: index)
                    continue
                case "@end":
                    implementation = nil
                default:
                    break
                }
            }
            if token.kind == .punctuation {
                if implementation != nil, token.text == "-" || token.text == "+", syntax.isPunctuation(index + 1, "(") {
                    index = parseMethod(at: index, className: implementation)
                    continue
                }
                if token.text == "{", syntax.match[index] > index {
                    methods.append(
                        ObjCMethod(
                            className: implementation, isClassMethod: false, name: "", body: index,
                            bodyEnd: syntax.match[index]))
                    index = syntax.after(index)
                    continue
                }
            }
            index += 1
        }
    }

    private func skipToEnd(from start: Int) -> Int {
        var index = start + 1
        while index < tokens.count {
            if tokens[index].kind == .atKeyword && tokens[index].text == "@end" { return index + 1 }
            if syntax.isPunctuation(index, ";") && index == start + 2 { return index + 1 }
            index += 1
        }
        return index
    }

    private mutating func parseInterface(at start: Int) -> Int {
        let name = syntax.text(start + 1)
        var info = classes[name] ?? ObjCClass()
        var index = start + 2
        if syntax.isPunctuation(index, ":") {
            info.superclass = syntax.text(index + 1)
            info.declared = true
            index += 2
        } else if syntax.isPunctuation(index, "(") {
            index = syntax.after(index)
        }
        // `<UIApplicationDelegate>`: the app delegate lives for the whole process.
        if syntax.isPunctuation(index, "<") {
            var cursor = index + 1
            while cursor < tokens.count, cursor < index + 32, !syntax.isPunctuation(cursor, ">") {
                if tokens[cursor].text.hasSuffix("ApplicationDelegate") { info.livesForProcess = true }
                cursor += 1
            }
        }
        classes[name] = info
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .atKeyword && token.text == "@end" { return index + 1 }
            if token.kind == .atKeyword && token.text == "@property" {
                index = parseProperty(at: index, into: name)
                continue
            }
            if syntax.isPunctuation(index, "{") {
                parseIvars(at: index, into: name)
                index = syntax.after(index)
                continue
            }
            if token.kind == .atKeyword && token.text == "@implementation" { return index }
            if isHeader, token.kind == .punctuation, token.text == "-" || token.text == "+",
                syntax.isPunctuation(index + 1, "("), syntax.match[index + 1] > index + 1,
                syntax.isIdentifier(syntax.match[index + 1] + 1)
            {
                // `- (void)stopAnimating;` in a header: public API of the class.
                classes[name, default: ObjCClass()].publicMethods.insert(syntax.text(syntax.match[index + 1] + 1))
            }
            index += 1
        }
        return index
    }

    private var isHeader: Bool { path.hasSuffix(".h") }

    private mutating func parseIvars(at open: Int, into className: String) {
        let close = syntax.match[open]
        guard close > open else { return }
        var lastIdentifier: String?
        for index in (open + 1)..<close {
            if tokens[index].kind == .identifier {
                lastIdentifier = tokens[index].text
            } else if syntax.isPunctuation(index, ";") || syntax.isPunctuation(index, ",") {
                if let name = lastIdentifier { classes[className, default: ObjCClass()].ivars.insert(name) }
                lastIdentifier = nil
            }
        }
    }

    private static let typeQualifiers: Set<String> = [
        "nullable", "nonnull", "_Nullable", "_Nonnull", "__nullable", "__nonnull", "const", "__kindof", "IBOutlet",
        "__weak", "__strong", "__block", "__unsafe_unretained", "typeof", "__typeof", "__typeof__", "static",
    ]

    private mutating func parseProperty(at start: Int, into className: String) -> Int {
        var index = start + 1
        var isWeak = false
        if syntax.isPunctuation(index, "(") {
            let close = syntax.match[index] > index ? syntax.match[index] : index + 1
            isWeak = ((index + 1)..<close).contains {
                ["weak", "assign", "unsafe_unretained"].contains(tokens[$0].text)
            }
            index = close + 1
        }
        var type: String?
        var name: String?
        while index < tokens.count, !syntax.isPunctuation(index, ";") {
            if tokens[index].kind == .atKeyword { return index }
            if tokens[index].kind == .identifier {
                if type == nil, !Self.typeQualifiers.contains(tokens[index].text) {
                    type = tokens[index].text
                } else {
                    name = tokens[index].text
                }
            }
            index += 1
        }
        if let name, let type {
            classes[className, default: ObjCClass()].properties[name] = ObjCClass.Property(type: type, isWeak: isWeak)
        }
        return index + 1
    }

    private mutating func parseMethod(at start: Int, className: String?) -> Int {
        var index = syntax.after(start + 1)
        var labels: [String] = []
        var firstName: String?
        var parameters: Set<String> = []
        while index < tokens.count {
            if syntax.isPunctuation(index, ";") { return index + 1 }
            if syntax.isPunctuation(index, "{") { break }
            if tokens[index].kind == .atKeyword { return index }
            if syntax.isPunctuation(index, "(") {
                index = syntax.after(index)
                continue
            }
            if tokens[index].kind == .identifier {
                if syntax.isPunctuation(index + 1, ":") {
                    labels.append(tokens[index].text)
                    index += 2
                    continue
                }
                if labels.isEmpty, firstName == nil { firstName = tokens[index].text }
                if !labels.isEmpty, syntax.isPunctuation(index - 1, ")") { parameters.insert(tokens[index].text) }
            }
            index += 1
        }
        guard index < tokens.count, syntax.match[index] > index else { return index + 1 }
        let name = labels.isEmpty ? (firstName ?? "") : labels.map { $0 + ":" }.joined()
        methods.append(
            ObjCMethod(
                className: className, isClassMethod: tokens[start].text == "+", name: name, body: index,
                bodyEnd: syntax.match[index], parameters: parameters))
        return syntax.after(index)
    }
}
