import SwiftParser
import SwiftSyntax

/// The Swift analyzer: parses the file with SwiftParser (which recovers from errors) and checks every
/// timer, display link, dispatch source and `Timer.publish` call.
enum SwiftAnalyzer {
    static func analyze(source: String, path: String) -> FileResult {
        analyzeCountingScans(source: source, path: path).result
    }

    /// ``analyze(source:path:)``, and how many tokens the checks' own scans read
    /// (``SwiftTimerVisitor/tokensScanned``).
    static func analyzeCountingScans(source: String, path: String) -> (result: FileResult, tokensScanned: Int) {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        var result = FileResult()
        if tree.hasError {
            let broken = tree.tokens(viewMode: .all).first {
                $0.presence == .missing || $0.parent?.is(UnexpectedNodesSyntax.self) == true
            }
            result.diagnostics.append(
                FileDiagnostic(
                    path: path, line: broken.map { converter.location(for: $0.position).line },
                    message: "syntax errors; the parser recovered and findings for this file may be incomplete"))
        }
        let visitor = SwiftTimerVisitor(path: path, converter: converter, types: SwiftTypeIndex(tree))
        visitor.walk(tree)
        result.findings = visitor.finish()
        result.facts = visitor.facts()
        return (result, visitor.tokensScanned)
    }
}

/// What one function adds to run loops, for default-mode-in-scroll-view.
struct SwiftModeFacts {
    var typeName: String?
    var additions: [(timer: String, mode: String, position: AbsolutePosition)] = []
    var scheduled: [(position: AbsolutePosition, timer: String?)] = []
    var publishedInDefaultMode: [AbsolutePosition] = []
}

/// The left side of `x = call(…)` or `let x = call(…)`.
struct SwiftAssignment {
    var name: String
    var isLocal: Bool
    /// `helper` in `helper.timer = …`; nil for self.
    var holder: String?
}

final class SwiftTimerVisitor: SyntaxVisitor {
    let path: String
    let converter: SourceLocationConverter
    let types: SwiftTypeIndex
    var findings: [Finding] = []
    var stored: [String: [StoredTimer]] = [:]
    var stops: [String: [TimerStop]] = [:]
    /// Calls of methods (any receiver), selector references and nil assignments, for stops in other methods.
    var calls: [MethodCall] = []
    /// Repeating timers made in SwiftUI views, by view type, for swiftui-timer-never-stopped.
    var viewTimers: [String: [(finding: Finding, timer: StoredTimer)]] = [:]
    var modeFacts: [SyntaxIdentifier: SwiftModeFacts] = [:]
    var dispatchEvents: [(list: SyntaxIdentifier, kind: DispatchEvent, name: String, position: AbsolutePosition)] = []
    /// The file erases a `Timer.publish` publisher (`.eraseToAnyPublisher()` on it).
    var erasesTimerPublisher = false
    /// Types that hand a target parameter to a timer or display link (`CADisplayLink(target: target, …)` in
    /// `init(target:selector:)`): they retain the target they are made with.
    var forwardingTypes: Set<String> = []
    /// Types whose timer block or event handler calls a closure they keep or are given: they retain the closure
    /// they are made with (``checkClosureWrapper(_:name:base:)``).
    var closureForwardingTypes: Set<String> = []
    private var scopeFacts: [SyntaxIdentifier: SwiftScopeFacts] = [:]
    /// How each identifier is used in the file, for the migration fix-it: read in one pass over the file the
    /// first time a fix-it needs it.
    var tickerPropertyUses: [String: TickerPropertyUses]?
    /// Tokens read by the checks' own scans of parts of the tree (a closure, a function, the file), beside the
    /// one walk of the whole tree: the tests keep it proportional to the file's size.
    private(set) var tokensScanned = 0
    /// How each identifier is used in each statement list that keeps a local timer, for the migration fix-it.
    var localTickerUses: [SyntaxIdentifier: [String: LocalTickerUses]] = [:]
    /// The file's top-level imports, read the first time a migration fix-it needs them.
    var fileImports: [ImportDeclSyntax]?

    enum DispatchEvent { case resume, suspend, release }

    init(path: String, converter: SourceLocationConverter, types: SwiftTypeIndex) {
        self.path = path
        self.converter = converter
        self.types = types
        super.init(viewMode: .sourceAccurate)
    }

    /// The source-accurate tokens of `node` in order, each counted in ``tokensScanned`` as it is read.
    func tokens(of node: some SyntaxProtocol) -> LazyMapSequence<TokenSequence, TokenSyntax> {
        node.tokens(viewMode: .sourceAccurate).lazy.map { token in
            self.tokensScanned += 1
            return token
        }
    }

    func facts(_ context: SwiftContext) -> SwiftScopeFacts {
        if let cached = scopeFacts[context.scope.id] { return cached }
        let facts = SwiftScopeFacts(
            context.scope, properties: context.typeName.flatMap { types.types[$0]?.properties } ?? [:])
        scopeFacts[context.scope.id] = facts
        return facts
    }

    func finding(_ rule: Rule, at position: AbsolutePosition, site: Advice.Site) -> Finding {
        let location = converter.location(for: position)
        return Advice.finding(rule, at: (location.line, location.column), path: path, site: site)
    }

    func report(_ rule: Rule, at position: AbsolutePosition, site: Advice.Site) {
        findings.append(finding(rule, at: position, site: site))
    }

    /// Records a timer kept in a property with its creation finding, which ``finish()`` reports unless the
    /// type stops that timer in a life-cycle method; other findings are reported at once.
    func keep(
        _ finding: Finding?, storedIn lhs: SwiftAssignment?, retainsSelf: Bool, context: SwiftContext,
        details: StoredTimer = StoredTimer(name: "", retainsSelf: false)
    ) {
        if lhs?.holder != nil {
            if let finding { findings.append(finding) }
            return
        }
        var timer = details
        timer.name = lhs.map { $0.isLocal ? "" : $0.name } ?? ""
        timer.retainsSelf = retainsSelf
        timer.finding = finding
        if timer.method.isEmpty { timer.method = context.functionName }
        guard !timer.name.isEmpty || finding != nil else { return }
        stored[context.typeName ?? "", default: []].append(timer)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let callee = node.calledExpression
        let name: String
        let base: ExprSyntax?
        if let member = callee.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
            base = member.base
        } else if let reference = callee.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
            base = nil
        } else {
            return .visitChildren
        }
        let onSelf = base == nil || base?.trimmedText == "self"
        if onSelf || !["invalidate", "cancel", "removeAll"].contains(name) {
            record(callee: name, at: node, onSelf: onSelf)
        } else if let base, node.arguments.isEmpty, let type = declaredType(ofProperty: base, at: node) {
            // `self.animator.invalidate()`, `self?.poller.cancel()`: the property's type's own method.
            record(callee: name, at: node, receiverType: type)
        }
        checkClosureWrapper(node, name: name, base: base)
        switch name {
        case "scheduledTimer", "Timer", "init", "CADisplayLink", "displayLink", "scheduledTimerWithTimeInterval",
            "timerWithTimeInterval", "NSTimer":
            checkTimer(node, name: name, base: base?.trimmedText)
        case "setEventHandler":
            if let base { checkEventHandler(node, source: base) }
        case "dispatch_source_set_event_handler" where base == nil:
            if let source = node.arguments.first?.expression { checkEventHandler(node, source: source) }
        case "dispatch_source_cancel" where base == nil:
            if let source = node.arguments.first?.expression { recordStop(node, base: source) }
        case "eraseToAnyPublisher":
            if let base, SwiftNames.isTimerPublisher(base) { erasesTimerPublisher = true }
        case "sink", "assign":
            if let base { checkSubscription(node, name: name, publisher: base) }
        case "connect":
            if let base, isTimerPublisher(base, at: node) { checkViewTimer(node) }
        case "add", "publish":
            checkRunLoopMode(node, name: name, base: base)
        case "invalidate", "cancel", "resume", "suspend", "removeAll":
            if let base, node.arguments.isEmpty { checkStateCall(node, name: name, base: base) }
        case "remove":
            // `link.remove(from: .main, forMode: .common)`: the run loop no longer keeps the link.
            // It stops the cycle only when the link is also let go (`link = nil`) in the same function.
            if let base, node.arguments.map({ $0.label?.text ?? "_" }) == ["from", "forMode"],
                releases(SwiftNames.storage(base), after: node)
            {
                recordStop(node, base: base)
            }
        default:
            if base == nil, name.first?.isUppercase == true { checkLookalikeInit(node, name: name) }
        }
        return .visitChildren
    }

    /// The statement lists around `node`, innermost first, as `path:offset`.
    func enclosingBlocks(of node: some SyntaxProtocol) -> [String] {
        var result: [String] = []
        var current = node.parent
        while let parent = current {
            if parent.is(CodeBlockItemListSyntax.self) { result.append("\(path):\(parent.position.utf8Offset)") }
            current = parent.parent
        }
        return result
    }

    /// Whether the function around `node` sets `storage` (or `self.storage`) to nil.
    func releases(_ storage: String, after node: some SyntaxProtocol) -> Bool {
        let scope = SwiftContext(of: node, types: types).scope
        var previous: [TokenSyntax] = []
        for token in tokens(of: scope) {
            if token.tokenKind == .keyword(.nil), previous.count >= 2, previous[previous.count - 1].text == "=",
                previous[previous.count - 2].text == storage
            {
                return true
            }
            previous.append(token)
            if previous.count > 2 { previous.removeFirst() }
        }
        return false
    }

    /// `#selector(stop)`: the method may be called through the selector.
    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "selector", let first = node.arguments.first {
            var text = first.expression.trimmedText
            if let paren = text.firstIndex(of: "(") { text = String(text[..<paren]) }
            if let last = text.split(separator: ".").last { record(callee: String(last), at: node) }
        }
        return .visitChildren
    }

    /// `Timer.publish(…)…` itself, or a property of the type (`publisher`, `self.publisher`) that holds one.
    func isTimerPublisher(_ base: ExprSyntax, at call: FunctionCallExprSyntax) -> Bool {
        if SwiftNames.isTimerPublisher(base) { return true }
        let context = SwiftContext(of: call, types: types)
        guard let typeName = context.typeName, let publishers = types.types[typeName]?.publishers,
            !publishers.isEmpty
        else { return false }
        let name = SwiftNames.storage(base)
        return publishers.contains(name)
            && (base.trimmedText.hasPrefix("self.") || !facts(context).locals.contains(name))
    }

    /// Records a call of `callee` made at `node`, with the type and method it is made in.
    func record(callee: String, at node: some SyntaxProtocol, onSelf: Bool = false, receiverType: String? = nil) {
        let context = SwiftContext(of: node, types: types)
        let location = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        calls.append(
            MethodCall(
                callee: callee, path: path, line: location.line, column: location.column,
                callerType: context.typeName ?? "", callerMethod: context.functionName, inDeinit: context.isDeinit,
                inLifecycle: context.isLifecycle, onSelf: onSelf, inStatic: context.isStatic,
                receiverType: receiverType, position: node.position.utf8Offset,
                block: enclosingBlocks(of: node).first ?? ""))
    }

    /// The declared type of the property `base` names (`animator`, `self.animator`, `self?.animator`), when it
    /// is a project type rather than a timer: `RippleAnimator` for `let animator = RippleAnimator()`.
    func declaredType(ofProperty base: ExprSyntax, at node: some SyntaxProtocol) -> String? {
        var text = base.trimmedText.replacingOccurrences(of: "?", with: "").replacingOccurrences(
            of: "!", with: "")
        for prefix in ["self."] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        let context = SwiftContext(of: node, types: types)
        guard let typeName = context.typeName, !facts(context).locals.contains(text),
            let declared = types.types[typeName]?.properties[text]?.type
        else { return nil }
        let bare = declared.filter { $0 != "?" && $0 != "!" }
        guard bare.first?.isUppercase == true, bare.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
            ![
                "Timer", "NSTimer", "CADisplayLink", "AnyCancellable", "Cancellable", "DispatchSourceTimer",
                "DispatchWorkItem",
            ]
            .contains(bare)
        else { return nil }
        return bare
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let (left, right) = SwiftNames.assignment(node), right.is(NilLiteralExprSyntax.self) {
            let name = SwiftNames.storage(left)
            if types.dispatchSources.contains(name), let list = statementList(of: node) {
                dispatchEvents.append((list, .release, name, left.positionAfterSkippingLeadingTrivia))
            }
            // `timer = nil`, `view.timer = nil`: a call of the setter, which may stop the old timer.
            let member = left.as(MemberAccessExprSyntax.self)
            let property = member?.declName.baseName.text ?? name
            let onSelf = member == nil || member?.base?.trimmedText == "self"
            record(callee: SetterName.key(property), at: node, onSelf: onSelf)
        }
        return .visitChildren
    }

    /// The statement list that holds `node` as a whole statement, or nil when it is part of an expression.
    func statementList(of node: some SyntaxProtocol) -> SyntaxIdentifier? {
        guard let item = node.parent?.as(CodeBlockItemSyntax.self), let list = item.parent else { return nil }
        return list.id
    }

    /// The left side of an assignment or declaration whose value is `call` (through `try`).
    func assignment(of call: FunctionCallExprSyntax, context: SwiftContext) -> SwiftAssignment? {
        var node = Syntax(call)
        while let parent = node.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
            node = parent
        }
        if let list = node.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self),
            let (left, right) = SwiftNames.assignment(sequence), right.id == node.id
        {
            let text = left.trimmedText
            let name = SwiftNames.storage(left)
            if let member = left.as(MemberAccessExprSyntax.self), let holder = member.base,
                holder.trimmedText != "self"
            {
                return SwiftAssignment(
                    name: member.declName.baseName.text, isLocal: false, holder: holder.trimmedText)
            }
            let isProperty =
                text.hasPrefix("self.")
                || (context.typeName.flatMap { types.types[$0]?.properties[name] } != nil
                    && !facts(context).locals.contains(name))
            return SwiftAssignment(name: name, isLocal: !isProperty, holder: nil)
        }
        if let initializer = node.parent?.as(InitializerClauseSyntax.self),
            let binding = initializer.parent?.as(PatternBindingSyntax.self),
            let pattern = binding.pattern.as(IdentifierPatternSyntax.self)
        {
            let name = pattern.identifier.text
            if binding.parent?.parent?.parent?.is(MemberBlockItemSyntax.self) == true {
                return SwiftAssignment(name: name, isLocal: false, holder: nil)
            }
            // `let timer = Timer(…)` then `self.timer = timer`: the timer is kept in the property.
            if let property = facts(context).storedOnSelf[name] {
                return SwiftAssignment(name: property, isLocal: false, holder: nil)
            }
            return SwiftAssignment(name: name, isLocal: true, holder: nil)
        }
        return nil
    }

    /// Reports the findings that need only this file; the kept timers go to the scan's index.
    func finish() -> [Finding] {
        checkModes()
        checkDispatchSequences()
        for type in viewTimers.keys.sorted() {
            for (finding, timer) in viewTimers[type] ?? []
            where (stops[type] ?? []).allSatisfy({ $0.onlyReplaces(timer) }) {
                findings.append(finding)
            }
        }
        return findings
    }

    /// What this file adds to the scan's index.
    func facts() -> FileFacts {
        var facts = FileFacts()
        facts.language = .swift
        facts.timers = stored
        facts.stops = stops
        facts.calls = calls
        facts.types = types.typeFacts()
        facts.calledBySystem = types.calledBySystem
        facts.erasesTimerPublisher = erasesTimerPublisher
        for type in forwardingTypes { facts.types[type, default: TypeFacts()].retainsTarget = true }
        for type in closureForwardingTypes { facts.types[type, default: TypeFacts()].forwardsClosure = true }
        return facts
    }
}
