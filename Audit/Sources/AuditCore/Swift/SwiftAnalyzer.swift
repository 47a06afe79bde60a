import SwiftParser
import SwiftSyntax

/// The Swift analyzer: parses the file with SwiftParser (which recovers from errors) and checks every
/// timer, display link, dispatch source and `Timer.publish` call.
enum SwiftAnalyzer {
    static func analyze(source: String, path: String) -> FileResult {
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
        return result
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
    /// Calls of methods of self (`stopTimer()`, `self.stopTimer()`), for stops in helper methods.
    var calls: [String: [MethodCall]] = [:]
    var modeFacts: [SyntaxIdentifier: SwiftModeFacts] = [:]
    var dispatchEvents: [(list: SyntaxIdentifier, kind: DispatchEvent, name: String, position: AbsolutePosition)] = []
    private var scopeFacts: [SyntaxIdentifier: SwiftScopeFacts] = [:]

    enum DispatchEvent { case resume, suspend, release }

    init(path: String, converter: SourceLocationConverter, types: SwiftTypeIndex) {
        self.path = path
        self.converter = converter
        self.types = types
        super.init(viewMode: .sourceAccurate)
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
    func keep(_ finding: Finding?, storedIn lhs: SwiftAssignment?, retainsSelf: Bool, context: SwiftContext) {
        guard let lhs, !lhs.isLocal, lhs.holder == nil else {
            if let finding { findings.append(finding) }
            return
        }
        stored[context.typeName ?? "", default: []].append(
            StoredTimer(name: lhs.name, retainsSelf: retainsSelf, finding: finding))
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
        switch name {
        case "scheduledTimer", "Timer", "init", "CADisplayLink", "displayLink":
            checkTimer(node, name: name, base: base?.trimmedDescription)
        case "setEventHandler":
            if let base { checkEventHandler(node, source: base) }
        case "sink", "assign":
            if let base, isTimerPublisher(base, at: node) { checkSubscription(node, name: name) }
        case "add", "publish":
            checkRunLoopMode(node, name: name, base: base)
        case "invalidate", "cancel", "resume", "suspend":
            if let base, node.arguments.isEmpty { checkStateCall(node, name: name, base: base) }
        default:
            if base == nil || base?.trimmedDescription == "self" { recordCall(node, name: name) }
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
            && (base.trimmedDescription.hasPrefix("self.") || !facts(context).locals.contains(name))
    }

    func recordCall(_ call: FunctionCallExprSyntax, name: String) {
        let context = SwiftContext(of: call, types: types)
        guard context.typeName != nil, !context.isStatic else { return }
        let location = converter.location(for: call.positionAfterSkippingLeadingTrivia)
        calls[context.typeName ?? "", default: []].append(
            MethodCall(
                callee: name, line: location.line, column: location.column, inDeinit: context.isDeinit,
                inLifecycle: context.isLifecycle))
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let (left, right) = SwiftNames.assignment(node), right.is(NilLiteralExprSyntax.self) {
            let name = SwiftNames.storage(left)
            if types.dispatchSources.contains(name), let list = statementList(of: node) {
                dispatchEvents.append((list, .release, name, left.positionAfterSkippingLeadingTrivia))
            }
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
            let text = left.trimmedDescription
            let name = SwiftNames.storage(left)
            if let member = left.as(MemberAccessExprSyntax.self), let holder = member.base,
                holder.trimmedDescription != "self"
            {
                return SwiftAssignment(
                    name: member.declName.baseName.text, isLocal: false, holder: holder.trimmedDescription)
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

    /// Reports the kept creation findings, then invalidate-only-in-deinit, in a stable order.
    func finish() -> [Finding] {
        findings += TimerLifetimes.findings(
            stored: stored, stops: stops, calls: calls, language: .swift, path: path,
            isMainActor: { [types] in types.isMainActor($0) })
        checkModes()
        checkDispatchSequences()
        return findings
    }
}
