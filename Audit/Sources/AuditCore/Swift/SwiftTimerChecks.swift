import SwiftSyntax

extension SwiftTimerVisitor {
    enum Repeats { case yes, no, unknown }

    func repeats(_ call: FunctionCallExprSyntax) -> Repeats {
        guard let argument = call.arguments.first(where: { $0.label?.text == "repeats" }) else { return .unknown }
        guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else { return .unknown }
        return literal.literal.tokenKind == .keyword(.true) ? .yes : .no
    }

    func argument(_ call: FunctionCallExprSyntax, _ label: String) -> LabeledExprSyntax? {
        call.arguments.first { $0.label?.text == label }
    }

    /// The closure passed as `label:` or as the trailing closure.
    func closure(_ call: FunctionCallExprSyntax, _ label: String) -> ClosureExprSyntax? {
        argument(call, label)?.expression.as(ClosureExprSyntax.self) ?? call.trailingClosure
    }

    func site(
        _ subject: String, _ kind: Advice.TimerKind, _ context: SwiftContext, method: String? = nil,
        call: FunctionCallExprSyntax? = nil
    ) -> Advice.Site {
        var site = Advice.Site(
            language: .swift, kind: kind, subject: subject, typeName: context.typeName, method: method)
        site.mainActor = types.isMainActor(context.typeName)
        site.interval = call.flatMap(interval)
        return site
    }

    /// The interval argument when it is a number literal: `2` in `withTimeInterval: 2`.
    func interval(_ call: FunctionCallExprSyntax) -> String? {
        let labels = ["withTimeInterval", "timeInterval", "interval", "every"]
        guard let expression = call.arguments.first(where: { labels.contains($0.label?.text ?? "") })?.expression,
            expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
        else { return nil }
        return expression.trimmedDescription
    }

    // MARK: Timers and display links

    func checkTimer(_ call: FunctionCallExprSyntax, name: String, base: String?) {
        let timerBase = base == "Timer" || base == "Foundation.Timer"
        let isScheduled = name == "scheduledTimer" && timerBase
        let isInit = (name == "Timer" && (base == nil || base == "Foundation")) || (name == "init" && timerBase)
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        let isScreenLink = name == "displayLink" && base != nil && labels == ["withTarget", "selector"]
        let isLink =
            (name == "CADisplayLink" && base == nil) || (name == "init" && base == "CADisplayLink") || isScreenLink
        guard isScheduled || isInit || isLink else { return }
        let isTargetAction = labels.contains("target") && labels.contains("selector")
        let isBlock = labels.contains("repeats") && !labels.contains("target") && !labels.contains("owner")
        guard isLink ? labels == ["target", "selector"] || isScreenLink : (isTargetAction || isBlock),
            repeats(call) != .no
        else {
            return
        }
        let context = SwiftContext(of: call, types: types)
        let lhs = assignment(of: call, context: context)
        if isScheduled {
            modeFacts[context.scope.id, default: SwiftModeFacts(typeName: context.typeName)].scheduled.append(
                (call.positionAfterSkippingLeadingTrivia, lhs?.name))
        }
        if isLink || isTargetAction {
            checkTarget(call, isDisplayLink: isLink, lhs: lhs, context: context)
        } else {
            var capture: (Rule, AbsolutePosition, String)?
            if let block = closure(call, "block") {
                capture = strongCapture(in: block, context: context)
            } else if let reference = argument(call, "block"),
                let (position, written) = methodReference(reference, context)
            {
                capture = (.blockTimerStrongSelf, position, written)
            } else {
                return
            }
            guard let (found, position, written) = capture else {
                keep(nil, storedIn: lhs, retainsSelf: false, context: context)
                return
            }
            var rule = found
            var subject = written
            if let lhs, isWeakProperty(lhs, context) {
                rule = .weakTimerPropertyNoFix
                subject = lhs.name
            }
            keep(
                finding(rule, at: position, site: site(subject, .block, context, call: call)), storedIn: lhs,
                retainsSelf: true, context: context)
        }
    }

    /// An unapplied reference to an instance method of self (`block: poll`, `receiveValue: self.update`),
    /// which captures self strongly.
    func methodReference(_ argument: LabeledExprSyntax, _ context: SwiftContext) -> (AbsolutePosition, String)? {
        guard context.selfIsObject, let typeName = context.typeName, let methods = types.types[typeName]?.methods
        else { return nil }
        let expression = argument.expression
        let name: String
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
            guard !facts(context).locals.contains(name) else { return nil }
        } else if let member = expression.as(MemberAccessExprSyntax.self), member.base?.trimmedDescription == "self" {
            name = member.declName.baseName.text
        } else {
            return nil
        }
        guard methods.contains(name) else { return nil }
        return (
            expression.positionAfterSkippingLeadingTrivia,
            "the method reference \(expression.trimmedDescription) captures self"
        )
    }

    func isWeakProperty(_ lhs: SwiftAssignment, _ context: SwiftContext) -> Bool {
        guard !lhs.isLocal, lhs.holder == nil, let typeName = context.typeName else { return false }
        return types.types[typeName]?.properties[lhs.name]?.isWeak == true
    }

    private func checkTarget(
        _ call: FunctionCallExprSyntax, isDisplayLink: Bool, lhs: SwiftAssignment?, context: SwiftContext
    ) {
        guard let target = argument(call, "target") ?? argument(call, "withTarget") else { return }
        let expression = SwiftNames.unwrapped(target.expression)
        let text = expression.trimmedDescription
        let baseRule: Rule = isDisplayLink ? .displayLinkTargetRetain : .timerTargetRetain
        let facts = facts(context)
        let before = { (position: AbsolutePosition?) in position.map { $0 < call.position } ?? false }
        var rule: Rule?
        if context.selfIsObject, text == "self" || before(facts.strongAliases[text]) {
            rule = baseRule
        } else if context.selfIsObject, before(facts.weakAliases[text]) {
            rule = .weakselfAsTarget
        } else if let lhs, lhs.holder == text, holderRetainsTimer(holder: text, property: lhs.name, context) {
            rule = baseRule
        }
        guard var found = rule else {
            keep(nil, storedIn: lhs, retainsSelf: false, context: context)
            return
        }
        var subject = text
        if found == baseRule, let lhs, isWeakProperty(lhs, context) {
            found = .weakTimerPropertyNoFix
            subject = lhs.name
        }
        let kind: Advice.TimerKind = isDisplayLink ? .displayLink : .targetAction
        let method = argument(call, "selector").map { selectorMethod($0.expression) }
        keep(
            finding(
                found, at: target.positionAfterSkippingLeadingTrivia,
                site: site(subject, kind, context, method: method, call: call)
            ),
            storedIn: lhs, retainsSelf: lhs?.holder == nil, context: context)
    }

    /// `tick` for `#selector(tick)`, `#selector(Clock.tick(_:))`.
    private func selectorMethod(_ expression: ExprSyntax) -> String {
        guard let macro = expression.as(MacroExpansionExprSyntax.self), let first = macro.arguments.first else {
            return "method"
        }
        var text = first.expression.trimmedDescription
        if let paren = text.firstIndex(of: "(") { text = String(text[..<paren]) }
        return text.split(separator: ".").last.map(String.init) ?? text
    }

    private func holderRetainsTimer(holder: String, property: String, _ context: SwiftContext) -> Bool {
        let ownProperties = context.typeName.flatMap { types.types[$0]?.properties } ?? [:]
        let key = holder.hasPrefix("self.") ? String(holder.dropFirst(5)) : holder
        var holderType = ownProperties[key]?.type
        if holderType == nil {
            holderType = localType(named: holder, in: context)
        }
        guard let holderType, let info = types.types[holderType.replacingOccurrences(of: "?", with: "")],
            let stored = info.properties[property]
        else { return false }
        return !stored.isWeak
    }

    private func localType(named name: String, in context: SwiftContext) -> String? {
        for token in context.scope.tokens(viewMode: .sourceAccurate) where token.text == name {
            guard let pattern = token.parent?.as(IdentifierPatternSyntax.self),
                let binding = pattern.parent?.as(PatternBindingSyntax.self)
            else { continue }
            return binding.typeAnnotation?.type.trimmedDescription
                ?? binding.initializer.flatMap { SwiftNames.constructedType($0.value) }
        }
        return nil
    }

    // MARK: Closures

    /// The first capture of self in `closure` that retains it: `self`, `[self]`, or a strong alias of self
    /// made outside the closure.
    func strongCapture(in closure: ClosureExprSyntax, context: SwiftContext) -> (Rule, AbsolutePosition, String)? {
        let facts = facts(context)
        var capturesSelfWeakly = false
        var weaklyCaptured: Set<String> = []
        for item in closure.signature?.capture?.items ?? [] {
            let name = item.name.text
            let isWeak = item.specifier.map { ["weak", "unowned"].contains($0.specifier.text) } ?? false
            if isWeak { weaklyCaptured.insert(name) }
            let value = item.initializer.map { SwiftNames.unwrapped($0.value).trimmedDescription } ?? name
            guard value == "self", context.selfIsObject else { continue }
            if isWeak {
                capturesSelfWeakly = true
            } else if rebindsSelfOutside(closure) {
                return (.strongselfEscapes, item.positionAfterSkippingLeadingTrivia, "self")
            } else {
                return (
                    .blockTimerStrongSelf, item.positionAfterSkippingLeadingTrivia,
                    "[\(item.trimmedDescription)] in its capture list"
                )
            }
        }
        for token in closure.statements.tokens(viewMode: .sourceAccurate) {
            if token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period { continue }
            if token.tokenKind == .keyword(.self) {
                guard context.selfIsObject, !capturesSelfWeakly else { continue }
                if let outer = enclosingWeakSelfClosure(closure) {
                    if rebindsSelf(outer) {
                        return (.strongselfEscapes, token.positionAfterSkippingLeadingTrivia, "self")
                    }
                    continue
                }
                return (.blockTimerStrongSelf, token.positionAfterSkippingLeadingTrivia, "it uses self")
            }
            if case .identifier(let name) = token.tokenKind, !weaklyCaptured.contains(name),
                let declared = facts.strongAliases[name], declared < closure.position
            {
                return (.strongselfEscapes, token.positionAfterSkippingLeadingTrivia, name)
            }
        }
        return nil
    }

    private func enclosingWeakSelfClosure(_ closure: ClosureExprSyntax) -> ClosureExprSyntax? {
        var current = closure.parent
        while let node = current {
            if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) { return nil }
            if let outer = node.as(ClosureExprSyntax.self),
                outer.signature?.capture?.items.contains(where: {
                    $0.name.text == "self" && $0.specifier != nil
                }) == true
            {
                return outer
            }
            current = node.parent
        }
        return nil
    }

    private func rebindsSelfOutside(_ closure: ClosureExprSyntax) -> Bool {
        enclosingWeakSelfClosure(closure).map(rebindsSelf) ?? false
    }

    /// `guard let self`, `if let self = self` in the closure's own statements.
    private func rebindsSelf(_ closure: ClosureExprSyntax) -> Bool {
        var previous: TokenKind?
        for token in closure.statements.tokens(viewMode: .sourceAccurate) {
            if token.tokenKind == .keyword(.self), previous == .keyword(.let) || previous == .keyword(.var) {
                return true
            }
            previous = token.tokenKind
        }
        return false
    }

    // MARK: Dispatch sources and subscriptions

    func checkEventHandler(_ call: FunctionCallExprSyntax, source: ExprSyntax) {
        guard let handler = closure(call, "handler") else { return }
        let context = SwiftContext(of: call, types: types)
        let name = SwiftNames.storage(source)
        let facts = facts(context)
        let isProperty = context.typeName.flatMap { types.types[$0]?.properties[name] } != nil
        let lazyProperty = lazyPropertyReturning(name, from: call)
        let storedOnSelf =
            source.trimmedDescription.hasPrefix("self.") || (isProperty && !facts.locals.contains(name))
            || facts.storedOnSelf[name] != nil || lazyProperty != nil
        guard storedOnSelf else { return }
        let capture = strongCapture(in: handler, context: context)
        stored[context.typeName ?? "", default: []].append(
            StoredTimer(
                name: lazyProperty ?? name, retainsSelf: capture != nil,
                finding: capture.map { finding($0.0, at: $0.1, site: site($0.2, .dispatchHandler, context)) }))
    }

    /// The property when `call` is in the closure that initialises a `lazy var` and that closure returns the
    /// local `name`: `lazy var source: DispatchSourceTimer = { let source = …; return source }()`.
    func lazyPropertyReturning(_ name: String, from call: FunctionCallExprSyntax) -> String? {
        var node = call.parent
        while let current = node, !current.is(ClosureExprSyntax.self) {
            if current.is(FunctionDeclSyntax.self) || current.is(MemberBlockSyntax.self) { return nil }
            node = current.parent
        }
        guard let closure = node?.as(ClosureExprSyntax.self),
            let invocation = closure.parent?.as(FunctionCallExprSyntax.self), invocation.arguments.isEmpty,
            let binding = invocation.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
            let variable = binding.parent?.parent?.as(VariableDeclSyntax.self),
            variable.modifiers.contains(where: { $0.name.text == "lazy" }),
            let property = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let last = closure.statements.last?.item
        else { return nil }
        let returned = last.as(ReturnStmtSyntax.self)?.expression ?? last.as(ExprSyntax.self)
        return returned?.trimmedDescription == name ? property : nil
    }

    func checkSubscription(_ call: FunctionCallExprSyntax, name: String) {
        let context = SwiftContext(of: call, types: types)
        guard isStoredOnSelf(call, context: context) else { return }
        if name == "sink" {
            if let reference = argument(call, "receiveValue"),
                let (position, subject) = methodReference(reference, context)
            {
                report(.blockTimerStrongSelf, at: position, site: site(subject, .publisher, context))
                return
            }
            guard let body = closure(call, "receiveValue"),
                let (rule, position, subject) = strongCapture(in: body, context: context)
            else { return }
            report(rule, at: position, site: site(subject, .publisher, context))
        } else if let target = argument(call, "on"), target.expression.trimmedDescription == "self",
            context.selfIsObject
        {
            report(
                .blockTimerStrongSelf, at: target.positionAfterSkippingLeadingTrivia,
                site: site("assign(to:on: self) retains self", .publisher, context))
        }
    }

    /// Whether the subscription is kept by self: `.store(in: &cancellables)` or assigned to a property.
    private func isStoredOnSelf(_ call: FunctionCallExprSyntax, context: SwiftContext) -> Bool {
        let properties = context.typeName.flatMap { types.types[$0]?.properties } ?? [:]
        if let member = call.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "store",
            let store = member.parent?.as(FunctionCallExprSyntax.self),
            let reference = store.arguments.first?.expression.as(InOutExprSyntax.self)
        {
            let text = reference.expression.trimmedDescription
            return text.hasPrefix("self.") || properties[SwiftNames.storage(reference.expression)] != nil
        }
        if let lhs = assignment(of: call, context: context) { return !lhs.isLocal && lhs.holder == nil }
        return false
    }

    // MARK: Run-loop modes, stops and dispatch state

    func checkRunLoopMode(_ call: FunctionCallExprSyntax, name: String, base: ExprSyntax?) {
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        let context = SwiftContext(of: call, types: types)
        guard types.isScrollRelated(context.typeName) else { return }
        var facts = modeFacts[context.scope.id] ?? SwiftModeFacts(typeName: context.typeName)
        if name == "publish", base?.trimmedDescription == "Timer", let mode = argument(call, "in"),
            mode.expression.trimmedDescription.lowercased().contains("default")
        {
            facts.publishedInDefaultMode.append(mode.positionAfterSkippingLeadingTrivia)
        } else if name == "add", let mode = argument(call, "forMode") {
            let timer: String?
            if labels == ["_", "forMode"], base?.trimmedDescription.contains("RunLoop") == true {
                timer = call.arguments.first.map { SwiftNames.storage($0.expression) }
            } else if labels == ["to", "forMode"], let base {
                timer = SwiftNames.storage(base)
            } else {
                timer = nil
            }
            if let timer {
                facts.additions.append(
                    (timer, mode.expression.trimmedDescription.lowercased(), mode.positionAfterSkippingLeadingTrivia))
            }
        }
        modeFacts[context.scope.id] = facts
    }

    func checkModes() {
        let ordered = modeFacts.values.sorted {
            ($0.scheduled.first?.position ?? $0.additions.first?.position ?? AbsolutePosition(utf8Offset: 0))
                < ($1.scheduled.first?.position ?? $1.additions.first?.position ?? AbsolutePosition(utf8Offset: 0))
        }
        for facts in ordered where types.isScrollRelated(facts.typeName) {
            let covered = Set(
                facts.additions.filter { $0.mode.contains("common") || $0.mode.contains("tracking") }.map(\.timer))
            var site = Advice.Site(language: .swift, subject: "timer", typeName: facts.typeName)
            site.mainActor = types.isMainActor(facts.typeName)
            for addition in facts.additions where addition.mode.contains("default") && !covered.contains(addition.timer)
            {
                report(.defaultModeInScrollView, at: addition.position, site: site)
            }
            for scheduled in facts.scheduled where scheduled.timer.map({ !covered.contains($0) }) ?? true {
                report(.defaultModeInScrollView, at: scheduled.position, site: site)
            }
            for position in facts.publishedInDefaultMode {
                report(.defaultModeInScrollView, at: position, site: site)
            }
        }
    }

    func checkStateCall(_ call: FunctionCallExprSyntax, name: String, base: ExprSyntax) {
        let storage = SwiftNames.storage(base)
        switch name {
        case "invalidate", "cancel":
            let context = SwiftContext(of: call, types: types)
            let location = converter.location(for: call.positionAfterSkippingLeadingTrivia)
            stops[context.typeName ?? "", default: []].append(
                TimerStop(
                    name: storage, written: SwiftNames.written(base), line: location.line, column: location.column,
                    inDeinit: context.isDeinit, inLifecycle: context.isLifecycle, method: context.functionName))
        default:
            guard types.dispatchSources.contains(storage), let list = statementList(of: call) else { return }
            dispatchEvents.append(
                (list, name == "resume" ? .resume : .suspend, storage, call.positionAfterSkippingLeadingTrivia))
        }
    }

    /// Suspend → release and resume → resume, for statements of the same block only (a branch may not run).
    func checkDispatchSequences() {
        var state: [String: (suspendedAt: AbsolutePosition?, resumedAt: AbsolutePosition?)] = [:]
        for event in dispatchEvents.sorted(by: { $0.position < $1.position }) {
            let key = "\(event.list.hashValue)|\(event.name)"
            var current = state[key] ?? (nil, nil)
            var details = Advice.Site(language: .swift, kind: .dispatchHandler, subject: event.name)
            switch event.kind {
            case .resume:
                if let earlier = current.resumedAt {
                    details.earlierLine = converter.location(for: earlier).line
                    report(.dispatchSourceDoubleResume, at: event.position, site: details)
                }
                current = (nil, event.position)
            case .suspend:
                current = (event.position, nil)
            case .release:
                if let earlier = current.suspendedAt {
                    details.earlierLine = converter.location(for: earlier).line
                    report(.dispatchSourceSuspendedRelease, at: event.position, site: details)
                }
                current = (nil, nil)
            }
            state[key] = current
        }
    }
}
