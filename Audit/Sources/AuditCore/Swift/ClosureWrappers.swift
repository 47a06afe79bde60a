import SwiftSyntax

/// Project types that run a closure they are given from a timer or dispatch source (`Poller(every: 8) {
/// self.refresh() }`): the source keeps the closure, so a closure that captures self strongly retains its maker
/// until the wrapper is stopped, as a block timer does.
extension SwiftTimerVisitor {
    /// The calls this file makes that concern such wrappers: in a wrapper, a timer block or event handler that
    /// calls a closure property or parameter; in a client, the wrapper made with a closure that captures self,
    /// and a method of the wrapper called on the property that keeps it (which may be its stop).
    func checkClosureWrapper(_ call: FunctionCallExprSyntax, name: String, base: ExprSyntax?) {
        switch name {
        case "setEventHandler", "dispatch_source_set_event_handler", "scheduledTimer", "Timer", "sink":
            noteClosureForwarding(call)
        default:
            if let base {
                noteWrapperMethodCall(call, name: name, base: base)
            } else if name.first?.isUppercase == true {
                checkClosureWrapperInit(call, name: name)
            }
        }
    }

    /// A wrapper: the timer's block or the source's handler calls a closure the type keeps
    /// (`setEventHandler { self.runner() }` with `var runner: () -> Void`) or one its function was given
    /// (`setEventHandler { onFire() }`). The type retains the closure it is made with, as a wrapper that hands
    /// its target to a timer retains the target.
    private func noteClosureForwarding(_ call: FunctionCallExprSyntax) {
        var closures = call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
        if let trailing = call.trailingClosure { closures.append(trailing) }
        guard !closures.isEmpty else { return }
        let context = SwiftContext(of: call, types: types)
        guard let typeName = context.typeName, let info = types.types[typeName], info.kind == .referenceType else {
            return
        }
        let closureParameters = Self.closureParameters(around: call)
        for closure in closures {
            for called in closure.statements.tokens(viewMode: .sourceAccurate) {
                guard case .identifier = called.tokenKind,
                    called.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen
                else { continue }
                let previous = called.previousToken(viewMode: .sourceAccurate)
                let onSelf = previous?.tokenKind != .period
                let receiver = previous?.previousToken(viewMode: .sourceAccurate)
                let isSelf =
                    receiver?.tokenKind == .keyword(.self)
                    || (receiver?.tokenKind == .postfixQuestionMark
                        && receiver?.previousToken(viewMode: .sourceAccurate)?.tokenKind == .keyword(.self))
                let text = called.text
                if (onSelf && closureParameters.contains(text))
                    || ((onSelf || isSelf) && info.properties[text]?.type?.contains("->") == true)
                {
                    closureForwardingTypes.insert(typeName)
                    return
                }
            }
        }
    }

    /// The parameters of function type of the function, initializer or closure around `node`.
    private static func closureParameters(around node: some SyntaxProtocol) -> Set<String> {
        var current = node.parent
        while let parent = current {
            let clause =
                parent.as(FunctionDeclSyntax.self)?.signature.parameterClause
                ?? parent.as(InitializerDeclSyntax.self)?.signature.parameterClause
            if let clause {
                return Set(
                    clause.parameters.filter { $0.type.trimmedDescription.contains("->") }.map {
                        ($0.secondName ?? $0.firstName).text
                    })
            }
            current = parent.parent
        }
        return []
    }

    /// A client: `self.fetcher = Poller(every: 8) { self.refresh() }` (a trailing closure or a closure argument)
    /// whose closure captures self strongly. It retains self when the scan shows that the type runs the closure
    /// from a timer or source (the index decides, as for a type made with `target: self`).
    private func checkClosureWrapperInit(_ call: FunctionCallExprSyntax, name: String) {
        guard !["Timer", "NSTimer", "CADisplayLink", "DispatchWorkItem", "Task"].contains(name),
            let block = call.trailingClosure ?? call.arguments.lazy.compactMap(\.closureArgument).first
        else { return }
        let context = SwiftContext(of: call, types: types)
        guard context.selfIsObject else { return }
        var details = StoredTimer(name: "", retainsSelf: false)
        details.position = call.position.utf8Offset
        details.enclosingBlocks = Set(enclosingBlocks(of: call))
        details.lookalikeType = name
        details.lookalikeTakesClosure = true
        let lhs = assignment(of: call, context: context)
        guard
            let capture = callbackCapture(
                block, reference: nil, storage: lhs?.name, context: context, details: &details),
            let (rule, position, written) = capture
        else { return }
        keep(
            finding(rule, at: position, site: site(written, .block, context)), storedIn: lhs, retainsSelf: true,
            context: context, details: details)
    }

    /// `self.fetcher?.halt()`: a method of the project type kept in `fetcher`. It stops the wrapper kept there
    /// when the scan shows that this method of that type stops its timer (the index decides).
    private func noteWrapperMethodCall(_ call: FunctionCallExprSyntax, name: String, base: ExprSyntax) {
        guard !["invalidate", "cancel", "removeAll"].contains(name),
            let type = declaredType(ofProperty: base, at: call)
        else { return }
        recordStop(call, base: base)
        let context = SwiftContext(of: call, types: types)
        let owner = context.typeName ?? ""
        guard var last = stops[owner]?.popLast() else { return }
        last.through = (type, name)
        stops[owner, default: []].append(last)
    }
}

extension Auditor {
    /// Swift files that name no timer API are only read quickly; one that makes a closure wrapper of the scan
    /// (`Poller(every: 8) { self.refresh() }`) is parsed after all, now that the scan knows the wrapper.
    static func reanalyzingWrapperClients(_ results: [FileResult]) -> [FileResult] {
        var wrappers: Set<String> = []
        for result in results where result.language == .swift {
            for (type, facts) in result.facts.types where facts.forwardsClosure { wrappers.insert(type) }
        }
        guard !wrappers.isEmpty else { return results }
        var updated = results
        for (index, result) in results.enumerated() where result.language == .swift {
            let source = result.source
            guard !keywords.contains(where: { source.contains($0) }),
                wrappers.contains(where: { source.contains($0 + "(") }),
                NestingDepth.tooDeep(source, language: .swift) == nil
            else { continue }
            var parsed = SwiftAnalyzer.analyze(source: source, path: result.path)
            parsed.facts.language = .swift
            parsed.source = source
            parsed.language = .swift
            parsed.path = result.path
            updated[index] = parsed
        }
        return updated
    }
}

extension LabeledExprSyntax {
    /// The argument when it is a closure literal.
    fileprivate var closureArgument: ClosureExprSyntax? { expression.as(ClosureExprSyntax.self) }
}
