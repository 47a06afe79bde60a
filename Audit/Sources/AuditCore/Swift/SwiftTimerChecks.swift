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
        return expression.trimmedText
    }

    // MARK: Timers and display links

    func checkTimer(_ call: FunctionCallExprSyntax, name: String, base: String?) {
        // Swift 3 and later spell it `Timer`; Swift 2 `NSTimer.scheduledTimerWithTimeInterval(_:target:…)`.
        let timerBase = ["Timer", "Foundation.Timer", "NSTimer"].contains(base ?? "")
        let isScheduled = ["scheduledTimer", "scheduledTimerWithTimeInterval"].contains(name) && timerBase
        let isInit =
            (["Timer", "NSTimer"].contains(name) && (base == nil || base == "Foundation"))
            || (["init", "timerWithTimeInterval"].contains(name) && timerBase)
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        let isScreenLink = name == "displayLink" && base != nil && labels == ["withTarget", "selector"]
        let isLink =
            (name == "CADisplayLink" && base == nil) || (name == "init" && base == "CADisplayLink") || isScreenLink
        guard isScheduled || isInit || isLink else { return }
        let isTargetAction = labels.contains("target") && labels.contains("selector")
        let isBlock = labels.contains("repeats") && !labels.contains("target") && !labels.contains("owner")
        guard isLink ? labels == ["target", "selector"] || isScreenLink : (isTargetAction || isBlock) else { return }
        let context = SwiftContext(of: call, types: types)
        var details = StoredTimer(name: "", retainsSelf: false)
        details.position = call.position.utf8Offset
        details.enclosingBlocks = Set(enclosingBlocks(of: call))
        // A project type that only looks like a screen (`MyLink.displayLink(withTarget:selector:)`).
        if isScreenLink, let base, !base.contains("."), base.first?.isUppercase == true,
            !["UIScreen", "NSScreen"].contains(base)
        {
            details.lookalikeType = base
        }
        if repeats(call) == .no {
            // A one-shot timer counts only when it re-arms itself from its callback.
            guard context.selfIsObject, !context.functionName.isEmpty else { return }
            if isTargetAction {
                details.rearmedFrom = context.functionName
            } else if let block = closure(call, "block"), !callsMethod(context.functionName, in: block) {
                return
            } else if closure(call, "block") == nil {
                return
            }
        }
        if isBlock, !isLink, types.isSwiftUIView(context.typeName), repeats(call) != .no {
            var site = site("timer", .block, context, call: call)
            site.subject = context.typeName ?? "View"
            viewTimers[context.typeName ?? "", default: []].append(
                (finding(.swiftuiTimerNeverStopped, at: call.positionAfterSkippingLeadingTrivia, site: site), details))
        }
        let lhs = assignment(of: call, context: context)
        if isScheduled, repeats(call) != .no {
            modeFacts[context.scope.id, default: SwiftModeFacts(typeName: context.typeName)].scheduled.append(
                (call.positionAfterSkippingLeadingTrivia, lhs?.name))
        }
        if isLink || isTargetAction {
            checkTarget(call, isDisplayLink: isLink, lhs: lhs, context: context, details: details)
        } else {
            guard
                let capture = callbackCapture(
                    closure(call, "block"), reference: argument(call, "block"), storage: lhs?.name, context: context,
                    details: &details)
            else { return }
            guard let (found, position, written) = capture else {
                keep(nil, storedIn: lhs, retainsSelf: false, context: context, details: details)
                return
            }
            var rule = found
            var subject = written
            if let lhs, isWeakProperty(lhs, context) {
                rule = .weakTimerPropertyNoFix
                subject = lhs.name
            }
            var site = site(subject, .block, context, call: call)
            site.rearms = repeats(call) == .no
            var result = finding(rule, at: position, site: site)
            if rule == .blockTimerStrongSelf, repeats(call) == .yes, let block = closure(call, "block") {
                result.fixIts = ownerFixIts(call, block: block, lhs: lhs, context: context)
            }
            keep(result, storedIn: lhs, retainsSelf: true, context: context, details: details)
        }
    }

    /// The strong capture of self by a timer's callback, given as a closure or as a method reference, and what
    /// the callback tells the index (it stops itself; the method it names). Nil when there is no callback to
    /// read; `.some(nil)` when the callback captures self weakly or not at all.
    func callbackCapture(
        _ closure: ClosureExprSyntax?, reference: LabeledExprSyntax?, storage: String?, context: SwiftContext,
        details: inout StoredTimer
    ) -> (Rule, AbsolutePosition, String)?? {
        if let closure {
            details.stopsItself = stopsItself(closure, storage: storage)
            return .some(strongCapture(in: closure, context: context))
        }
        guard let reference, let (position, written, method) = methodReference(reference, context) else { return nil }
        details.methodReference = method
        details.callback = SwiftNames.storage(reference.expression)
        return .some((.blockTimerStrongSelf, position, written))
    }

    /// Whether the closure calls the method `name` on self (`scheduleNext()`, `self.scheduleNext()`).
    func callsMethod(_ name: String, in closure: ClosureExprSyntax) -> Bool {
        for token in tokens(of: closure.statements) where token.text == name {
            guard token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen else { continue }
            let previous = token.previousToken(viewMode: .sourceAccurate)
            if previous?.tokenKind != .period { return true }
            let receiver = previous?.previousToken(viewMode: .sourceAccurate)
            if receiver?.tokenKind == .keyword(.self) || receiver?.tokenKind == .postfixQuestionMark { return true }
        }
        return false
    }

    /// Whether the closure invalidates or cancels the timer it is the block of: its parameter (`timer`, `$0`)
    /// or the property it is kept in.
    func stopsItself(_ closure: ClosureExprSyntax, storage: String?) -> Bool {
        var names: Set<String> = ["$0"]
        if let storage { names.insert(storage) }
        if let parameters = closure.signature?.parameterClause {
            if let shorthand = parameters.as(ClosureShorthandParameterListSyntax.self) {
                for parameter in shorthand { names.insert(parameter.name.text) }
            } else if let clause = parameters.as(ClosureParameterClauseSyntax.self) {
                for parameter in clause.parameters { names.insert((parameter.secondName ?? parameter.firstName).text) }
            }
        }
        for token in tokens(of: closure.statements)
        where token.text == "invalidate" || token.text == "cancel" {
            guard let member = token.parent?.parent?.as(MemberAccessExprSyntax.self), let base = member.base else {
                continue
            }
            if names.contains(SwiftNames.storage(base)), !Self.onlyOnFailure(member) { return true }
        }
        return false
    }

    /// Whether `node` runs only on a failure: under an `if` or `guard` whose condition is about an error or a
    /// failure, or in a `catch` clause, within its function or closure. Such a stop is not the normal end of the
    /// work.
    static func onlyOnFailure(_ node: some SyntaxProtocol) -> Bool {
        var child = Syntax(node)
        var current = node.parent
        while let parent = current {
            defer { child = parent }
            if parent.is(FunctionDeclSyntax.self) || parent.is(InitializerDeclSyntax.self)
                || parent.is(DeinitializerDeclSyntax.self) || parent.is(ClosureExprSyntax.self)
                || parent.is(AccessorDeclSyntax.self)
            {
                return false
            }
            if parent.is(CatchClauseSyntax.self) { return true }
            if let branch = parent.as(IfExprSyntax.self), child.id == branch.body.id,
                isAboutFailure(branch.conditions.trimmedText)
            {
                return true
            }
            if let guardStatement = parent.as(GuardStmtSyntax.self),
                isAboutFailure(guardStatement.conditions.trimmedText)
            {
                return true
            }
            current = parent.parent
        }
        return false
    }

    static func isAboutFailure(_ condition: String) -> Bool {
        let text = condition.lowercased()
        return text.contains("error") || text.contains("fail")
    }

    /// An unapplied reference to an instance method of self (`block: poll`, `receiveValue: self.update`),
    /// which captures self strongly. The method name comes back when this file does not declare it (an
    /// extension in another file may): the scan's index then decides.
    func methodReference(
        _ argument: LabeledExprSyntax, _ context: SwiftContext
    ) -> (AbsolutePosition, String, String?)? {
        guard context.selfIsObject, let typeName = context.typeName else { return nil }
        let info = types.types[typeName]
        let expression = argument.expression
        let name: String
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
            guard !facts(context).locals.contains(name), !context.parameters.contains(name),
                info?.properties[name] == nil, name.first?.isLowercase == true
            else { return nil }
        } else if let member = expression.as(MemberAccessExprSyntax.self), member.base?.trimmedText == "self" {
            name = member.declName.baseName.text
            guard info?.properties[name] == nil else { return nil }
        } else {
            return nil
        }
        return (
            expression.positionAfterSkippingLeadingTrivia,
            "the method reference \(expression.trimmedText) captures self",
            info?.methods.contains(name) == true ? nil : name
        )
    }

    func isWeakProperty(_ lhs: SwiftAssignment, _ context: SwiftContext) -> Bool {
        guard !lhs.isLocal, lhs.holder == nil, let typeName = context.typeName else { return false }
        return types.types[typeName]?.properties[lhs.name]?.isWeak == true
    }

    private func checkTarget(
        _ call: FunctionCallExprSyntax, isDisplayLink: Bool, lhs: SwiftAssignment?, context: SwiftContext,
        details: StoredTimer
    ) {
        var details = details
        let method = argument(call, "selector").map { selectorMethod($0.expression) }
        details.callback = method
        guard let target = argument(call, "target") ?? argument(call, "withTarget") else { return }
        let expression = SwiftNames.unwrapped(target.expression)
        let text = expression.trimmedText
        let baseRule: Rule = isDisplayLink ? .displayLinkTargetRetain : .timerTargetRetain
        let facts = facts(context)
        if context.parameters.contains(text), let typeName = context.typeName,
            types.types[typeName]?.kind == .referenceType
        {
            forwardingTypes.insert(typeName)
        }
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
            keep(nil, storedIn: lhs, retainsSelf: false, context: context, details: details)
            return
        }
        var subject = text
        if found == baseRule, let lhs, isWeakProperty(lhs, context) {
            found = .weakTimerPropertyNoFix
            subject = lhs.name
        }
        let kind: Advice.TimerKind = isDisplayLink ? .displayLink : .targetAction
        var site = site(subject, kind, context, method: method, call: call)
        site.rearms = details.rearmedFrom != nil
        var result = finding(found, at: target.positionAfterSkippingLeadingTrivia, site: site)
        if found == .timerTargetRetain, text == "self" {
            result.fixIts = migrationFixIts(call, lhs: lhs, context: context)
        }
        keep(result, storedIn: lhs, retainsSelf: lhs?.holder == nil, context: context, details: details)
    }

    /// `DropTimer(target: self, selector: #selector(step))`: a project type made with a target and a selector. It
    /// retains self when the scan shows that the type keeps its target strongly or hands it to a timer or display
    /// link (the index decides).
    func checkLookalikeInit(_ call: FunctionCallExprSyntax, name: String) {
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        guard labels.contains("target"), labels.contains("selector"),
            !["Timer", "NSTimer", "CADisplayLink"].contains(name)
        else { return }
        let context = SwiftContext(of: call, types: types)
        var details = StoredTimer(name: "", retainsSelf: false)
        details.position = call.position.utf8Offset
        details.enclosingBlocks = Set(enclosingBlocks(of: call))
        details.lookalikeType = name
        let isLink = name.contains("Link") || name.contains("Display") || name.contains("Frame")
        checkTarget(
            call, isDisplayLink: isLink, lhs: assignment(of: call, context: context), context: context,
            details: details)
    }

    /// The exact edit to TimerKitMigration's look-alike, when one exists:
    /// `Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(tick), userInfo: nil, repeats: true)`
    /// becomes `… target: self, action: Clock.tick, repeats: true)`, with `import TimerKit` and
    /// `import TimerKitMigration` added and a `Timer?` property that keeps it made `Ticker?`. Only for a method without parameters, `userInfo: nil`, a
    /// main-actor type (a view or view controller: the look-alikes are main-actor methods, so in a nonisolated
    /// type the edit would not compile in Swift 6), and a result that is discarded, local or kept in a property
    /// declared in this file.
    func migrationFixIts(_ call: FunctionCallExprSyntax, lhs: SwiftAssignment?, context: SwiftContext) -> [FixIt] {
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        guard labels == ["timeInterval", "target", "selector", "userInfo", "repeats"],
            let typeName = context.typeName, let info = types.types[typeName],
            let selector = argument(call, "selector"), let userInfo = argument(call, "userInfo"),
            userInfo.expression.is(NilLiteralExprSyntax.self),
            let macro = selector.expression.as(MacroExpansionExprSyntax.self), macro.macroName.text == "selector",
            let method = macro.arguments.first?.expression.as(DeclReferenceExprSyntax.self),
            method.argumentNames == nil, info.nullaryMethods.contains(method.baseName.text),
            var edits = migrationEdits(call, lhs: lhs, context: context)
        else { return [] }
        edits.append(
            edit(
                from: selector.positionAfterSkippingLeadingTrivia,
                to: userInfo.expression.endPositionBeforeTrailingTrivia,
                "action: \(typeName).\(method.baseName.text)"))
        return edits.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// The exact edit to TimerKitMigration's owner form, when one exists:
    /// `Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.tick() }` becomes
    /// `Timer.scheduledTimer(withTimeInterval: 1, repeats: true, owner: self) { owner, _ in owner.tick() }`
    /// (the block receives the owner, held weakly, instead of capturing self). Only for a closure with one
    /// parameter, no capture list and no closure inside it, that uses self only as `self`.
    func ownerFixIts(
        _ call: FunctionCallExprSyntax, block: ClosureExprSyntax, lhs: SwiftAssignment?, context: SwiftContext
    ) -> [FixIt] {
        guard call.arguments.map({ $0.label?.text ?? "_" }) == ["withTimeInterval", "repeats"],
            call.trailingClosure?.id == block.id, call.rightParen != nil, let last = call.arguments.last,
            let signature = block.signature, signature.capture == nil,
            let parameters = signature.parameterClause?.as(ClosureShorthandParameterListSyntax.self),
            parameters.count == 1, let parameter = parameters.first,
            !tokens(of: block.statements).contains(where: {
                $0.tokenKind == .leftBrace && $0.parent?.is(ClosureExprSyntax.self) == true
            }),
            var edits = migrationEdits(call, lhs: lhs, context: context)
        else { return [] }
        edits.append(
            edit(from: last.endPositionBeforeTrailingTrivia, to: last.endPositionBeforeTrailingTrivia, ", owner: self"))
        edits.append(
            edit(
                from: parameter.positionAfterSkippingLeadingTrivia, to: parameter.positionAfterSkippingLeadingTrivia,
                "owner, "))
        for token in tokens(of: block.statements) where token.tokenKind == .keyword(.self) {
            edits.append(
                edit(from: token.positionAfterSkippingLeadingTrivia, to: token.endPositionBeforeTrailingTrivia, "owner")
            )
        }
        return edits.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// What both migration fix-its need: a `Timer.scheduledTimer` call in a main-actor type (the look-alikes
    /// are main-actor methods), `import TimerKit` and `import TimerKitMigration` when they are missing, and the
    /// `Timer?` property that keeps the result (declared in this file) made `Ticker?`. Nil when the edit would not
    /// be exact.
    private func migrationEdits(_ call: FunctionCallExprSyntax, lhs: SwiftAssignment?, context: SwiftContext)
        -> [FixIt]?
    {
        guard let called = call.calledExpression.as(MemberAccessExprSyntax.self),
            called.declName.baseName.text == "scheduledTimer",
            ["Timer", "Foundation.Timer"].contains(called.base?.trimmedText ?? ""),
            let typeName = context.typeName, let info = types.types[typeName], types.isMainActor(typeName)
        else { return nil }
        var edits: [FixIt] = []
        if let lhs, lhs.isLocal, !localFitsTicker(lhs.name, call: call) { return nil }
        if let lhs, !lhs.isLocal {
            guard lhs.holder == nil, let property = info.properties[lhs.name], let start = property.typeStart,
                let end = property.typeEnd, let type = property.type,
                let replacement = ["Timer?": "Ticker?", "Timer!": "Ticker!", "Timer": "Ticker"][type],
                propertyFitsTicker(lhs.name, call: call)
            else { return nil }
            edits.append(edit(from: start, to: end, replacement))
        }
        let statements = call.root.as(SourceFileSyntax.self)?.statements
        let imports = fileImports ?? statements?.compactMap { $0.item.as(ImportDeclSyntax.self) } ?? []
        fileImports = imports
        // `Ticker` is TimerKit's (TimerKitMigration does not re-export it): both imports, whichever are missing,
        // in one edit that every fix of the file shares.
        let missing = ["TimerKit", "TimerKitMigration"].filter { module in
            !imports.contains { $0.path.trimmedText == module }
        }
        if !missing.isEmpty {
            let line = imports.last.map { converter.location(for: $0.endPositionBeforeTrailingTrivia).line + 1 } ?? 1
            edits.append(
                FixIt(
                    line: line, column: 1, endLine: line, endColumn: 1,
                    replacement: missing.map { "import \($0)\n" }.joined()))
        }
        return edits
    }

    /// Whether the local that keeps the timer (`let blink = Timer.scheduledTimer(…)`) still compiles when it
    /// holds the look-alike's `Ticker`: declared here without a type, and otherwise only used for `invalidate()`
    /// and `isValid`, which TimerKitMigration adds to `Ticker`. A local passed on (`RunLoop.current.add(blink,
    /// forMode: .common)`), configured (`blink.tolerance = 0.5`) or assigned elsewhere keeps Foundation's type:
    /// no exact edit.
    private func localFitsTicker(_ name: String, call: FunctionCallExprSyntax) -> Bool {
        var node = Syntax(call)
        while let parent = node.parent, !parent.is(CodeBlockItemListSyntax.self) { node = parent }
        guard let scope = node.parent else { return false }
        let table = localTickerUses[scope.id] ?? readLocalTickerUses(scope)
        localTickerUses[scope.id] = table
        guard let uses = table[name] else { return true }
        return !uses.otherUse && uses.declarations.allSatisfy { $0?.contains(call.position) == true }
    }

    /// The uses of every identifier in the statements `scope`, read in one pass (once per statement list, not
    /// once per local timer in it).
    private func readLocalTickerUses(_ scope: Syntax) -> [String: LocalTickerUses] {
        var table: [String: LocalTickerUses] = [:]
        for token in tokens(of: scope) {
            guard case .identifier(let name) = token.tokenKind, table[name]?.otherUse != true else { continue }
            if let pattern = token.parent?.as(IdentifierPatternSyntax.self) {
                var value: Range<AbsolutePosition>?
                if let binding = pattern.parent?.as(PatternBindingSyntax.self), binding.typeAnnotation == nil,
                    let initializer = binding.initializer?.value
                {
                    value = initializer.position..<initializer.endPosition
                }
                table[name, default: LocalTickerUses()].declarations.append(value)
                continue
            }
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.id == reference.id,
                ["invalidate", "isValid"].contains(member.declName.baseName.text)
            else {
                table[name, default: LocalTickerUses()].otherUse = true
                continue
            }
        }
        return table
    }

    /// Whether every use of the property in this file still compiles when it holds a `Ticker`: `invalidate()`,
    /// `isValid` (TimerKitMigration adds both to `Ticker`), `= nil`, and the assignment of this call. Any other
    /// use (`timer.fireDate`, `RunLoop.main.add(timer!, forMode: .common)`, another `Timer` assigned to it, or a
    /// use through another object) keeps Foundation's type: no exact edit. Names are matched without types, so a
    /// local or parameter of the same name used another way also stops the edit.
    private func propertyFitsTicker(_ name: String, call: FunctionCallExprSyntax) -> Bool {
        let table = tickerPropertyUses ?? readTickerPropertyUses(root: call.root)
        tickerPropertyUses = table
        guard let table else { return false }
        let uses = table[name] ?? TickerPropertyUses()
        return !uses.otherUse && uses.assigned.allSatisfy { $0 == Syntax(call).id }
    }

    /// The uses of every identifier of the file, read in one pass over its tokens (the first time a fix-it
    /// asks), so that a file with many timers, each in its own property, is read once and not once a timer.
    /// Nil when `root` is not a source file.
    private func readTickerPropertyUses(root: Syntax) -> [String: TickerPropertyUses]? {
        guard root.is(SourceFileSyntax.self) else { return nil }
        var table: [String: TickerPropertyUses] = [:]
        for token in tokens(of: root) {
            guard case .identifier(let name) = token.tokenKind, table[name]?.otherUse != true else { continue }
            switch tickerPropertyUse(token) {
            case .declaration, .fits: continue
            case .assigned(let value): table[name, default: TickerPropertyUses()].assigned.append(value)
            case .other: table[name, default: TickerPropertyUses()].otherUse = true
            }
        }
        return table
    }

    private enum TickerPropertyUse {
        /// The property itself, a local or a parameter of the name.
        case declaration
        /// `invalidate()`, `isValid`, `= nil`.
        case fits
        /// A value other than nil assigned to it.
        case assigned(SyntaxIdentifier)
        /// A use that needs a `Foundation.Timer`.
        case other
    }

    /// What the identifier token `token` does with its name, for ``propertyFitsTicker(_:call:)``.
    private func tickerPropertyUse(_ token: TokenSyntax) -> TickerPropertyUse {
        guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else {
            if let parent = token.parent,
                parent.is(IdentifierPatternSyntax.self) || parent.is(ClosureShorthandParameterSyntax.self)
                    || parent.is(ClosureParameterSyntax.self) || parent.is(FunctionParameterSyntax.self)
            {
                return .declaration
            }
            return .other
        }
        var use = ExprSyntax(reference)
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
            guard member.base?.trimmedText == "self" else { return .other }
            use = ExprSyntax(member)
        }
        if let list = use.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self),
            let (left, right) = SwiftNames.assignment(sequence), left.id == use.id
        {
            return right.is(NilLiteralExprSyntax.self) ? .fits : .assigned(right.id)
        }
        var node = Syntax(use)
        if let parent = node.parent,
            parent.is(OptionalChainingExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self)
        {
            node = parent
        }
        guard let member = node.parent?.as(MemberAccessExprSyntax.self), member.base?.id == node.id,
            ["invalidate", "isValid"].contains(member.declName.baseName.text)
        else { return .other }
        return .fits
    }

    private func edit(from start: AbsolutePosition, to end: AbsolutePosition, _ text: String) -> FixIt {
        let first = converter.location(for: start)
        let last = converter.location(for: end)
        return FixIt(
            line: first.line, column: first.column, endLine: last.line, endColumn: last.column, replacement: text)
    }

    /// `tick` for `#selector(tick)`, `#selector(Clock.tick(_:))`, and Swift 2's `"tick:"` and
    /// `Selector("tick")`.
    private func selectorMethod(_ expression: ExprSyntax) -> String {
        var text: String
        if let macro = expression.as(MacroExpansionExprSyntax.self), let first = macro.arguments.first {
            text = first.expression.trimmedText
        } else if let literal = expression.as(StringLiteralExprSyntax.self) {
            text = literal.segments.trimmedText
        } else if let call = expression.as(FunctionCallExprSyntax.self),
            call.calledExpression.trimmedText == "Selector",
            let literal = call.arguments.first?.expression.as(StringLiteralExprSyntax.self)
        {
            text = literal.segments.trimmedText
        } else {
            return "method"
        }
        if let colon = text.firstIndex(of: ":") { text = String(text[..<colon]) }
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
        for token in tokens(of: context.scope) where token.text == name {
            guard let pattern = token.parent?.as(IdentifierPatternSyntax.self),
                let binding = pattern.parent?.as(PatternBindingSyntax.self)
            else { continue }
            return binding.typeAnnotation?.type.trimmedText
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
            let value = item.initializer.map { SwiftNames.unwrapped($0.value).trimmedText } ?? name
            guard value == "self", context.selfIsObject else { continue }
            if isWeak {
                capturesSelfWeakly = true
            } else if rebindsSelfOutside(closure) {
                return (.strongselfEscapes, item.positionAfterSkippingLeadingTrivia, "self")
            } else {
                return (
                    .blockTimerStrongSelf, item.positionAfterSkippingLeadingTrivia,
                    "[\(item.trimmedText)] in its capture list"
                )
            }
        }
        for token in tokens(of: closure.statements) {
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
        for token in tokens(of: closure.statements) {
            if token.tokenKind == .keyword(.self), previous == .keyword(.let) || previous == .keyword(.var) {
                return true
            }
            previous = token.tokenKind
        }
        return false
    }

    // MARK: Dispatch sources and subscriptions

    func checkEventHandler(_ call: FunctionCallExprSyntax, source: ExprSyntax) {
        // `setEventHandler { … }`, `setEventHandler(handler: drawFrame)`, and from Swift 2
        // `dispatch_source_set_event_handler(source, { … })` or with a trailing closure.
        let unlabelled = call.arguments.dropFirst().first { $0.label == nil }
        let handler =
            closure(call, "handler") ?? unlabelled?.expression.as(ClosureExprSyntax.self)
        let context = SwiftContext(of: call, types: types)
        var details = StoredTimer(name: "", retainsSelf: false)
        guard
            let capture = callbackCapture(
                handler, reference: argument(call, "handler") ?? unlabelled, storage: SwiftNames.storage(source),
                context: context, details: &details)
        else { return }
        let name = SwiftNames.storage(source)
        let facts = facts(context)
        let isProperty = context.typeName.flatMap { types.types[$0]?.properties[name] } != nil
        let lazyProperty = lazyPropertyReturning(name, from: call)
        let storedOnSelf =
            source.trimmedText.hasPrefix("self.") || (isProperty && !facts.locals.contains(name))
            || facts.storedOnSelf[name] != nil || lazyProperty != nil
        guard storedOnSelf else { return }
        details.name = lazyProperty ?? name
        details.method = context.functionName
        details.retainsSelf = capture != nil
        details.finding = capture.map { finding($0.0, at: $0.1, site: site($0.2, .dispatchHandler, context)) }
        stored[context.typeName ?? "", default: []].append(details)
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
        return returned?.trimmedText == name ? property : nil
    }

    /// A `sink`/`assign` on a timer publisher whose subscription is kept by self (or by another object the
    /// closure captures): `Timer.publish(…)` itself, or a property holding one, declared in any file.
    func checkSubscription(_ call: FunctionCallExprSyntax, name: String, publisher: ExprSyntax) {
        let context = SwiftContext(of: call, types: types)
        var details = StoredTimer(name: "", retainsSelf: true)
        details.method = context.functionName
        if !SwiftNames.isTimerPublisher(publisher) {
            if let type = parameterType(of: publisher, at: call, context: context) {
                // A publisher handed in as a parameter (`init(ticks: Publishers.Autoconnect<Timer.TimerPublisher>)`).
                if type.contains("TimerPublisher") {
                    // A timer publisher by its type.
                } else if Self.isDatePublisherType(type) {
                    details.needsErasedTimerPublisher = true
                } else {
                    return
                }
            } else if let type = erasedPropertyType(of: publisher, context: context) {
                // A property typed `AnyPublisher<Date, Never>`, set from a timer publisher in another file.
                _ = type
                details.needsErasedTimerPublisher = true
            } else {
                guard let property = publisherProperty(publisher, context: context) else { return }
                if !(context.typeName.flatMap { types.types[$0]?.publishers.contains(property) } ?? false) {
                    details.publisherProperty = property
                }
            }
        }
        guard let (holder, storage) = subscriptionHolder(call, context: context) else { return }
        var found: (Rule, AbsolutePosition, String)?
        if holder == "self" {
            details.name = storage
            if name == "sink" {
                if let reference = argument(call, "receiveValue"),
                    let (position, subject, method) = methodReference(reference, context)
                {
                    found = (.blockTimerStrongSelf, position, subject)
                    details.methodReference = method
                } else if let body = closure(call, "receiveValue") {
                    found = strongCapture(in: body, context: context)
                }
            } else if let target = argument(call, "on"), target.expression.trimmedText == "self",
                context.selfIsObject
            {
                found = (
                    .blockTimerStrongSelf, target.positionAfterSkippingLeadingTrivia, "assign(to:on: self) retains self"
                )
            }
        } else if name == "sink", let body = closure(call, "receiveValue") {
            found = capture(of: holder, in: body).map {
                (.blockTimerStrongSelf, $0, "it uses \(holder), which keeps the subscription")
            }
        }
        guard let (rule, position, subject) = found else { return }
        details.finding = finding(rule, at: position, site: site(subject, .publisher, context))
        stored[context.typeName ?? "", default: []].append(details)
    }

    /// `AnyPublisher<Date, Never>` and `some Publisher<Date, Never>`: what a timer publisher is erased to.
    static func isDatePublisherType(_ type: String) -> Bool {
        let compact = type.filter { !$0.isWhitespace }
        return compact.contains("Publisher<Date,Never>")
    }

    /// The declared type of the function or initializer parameter that `base` names, if it is one.
    private func parameterType(of base: ExprSyntax, at call: FunctionCallExprSyntax, context: SwiftContext) -> String? {
        guard let reference = base.as(DeclReferenceExprSyntax.self),
            context.parameters.contains(reference.baseName.text)
        else { return nil }
        let name = reference.baseName.text
        let parameters: FunctionParameterListSyntax?
        if let function = context.scope.as(FunctionDeclSyntax.self) {
            parameters = function.signature.parameterClause.parameters
        } else if let initializer = context.scope.as(InitializerDeclSyntax.self) {
            parameters = initializer.signature.parameterClause.parameters
        } else {
            parameters = nil
        }
        return parameters?.first { ($0.secondName ?? $0.firstName).text == name }?.type.trimmedText
    }

    /// The name of the property of self that `base` reads (`ticks` that no local or parameter shadows, or
    /// `self.ticks`), or nil.
    private func selfPropertyName(_ base: ExprSyntax, context: SwiftContext) -> String? {
        if let reference = base.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            guard !facts(context).locals.contains(name), !context.parameters.contains(name) else { return nil }
            return name
        }
        if let member = base.as(MemberAccessExprSyntax.self), member.base?.trimmedText == "self" {
            return member.declName.baseName.text
        }
        return nil
    }

    /// The type of the property `base` names when it is declared as a type-erased `Date` publisher.
    private func erasedPropertyType(of base: ExprSyntax, context: SwiftContext) -> String? {
        guard let name = selfPropertyName(base, context: context),
            let type = context.typeName.flatMap({ types.types[$0]?.properties[name]?.type }),
            Self.isDatePublisherType(type)
        else { return nil }
        return type
    }

    /// The property a subscription's publisher is read from (`ticks`, `self.ticks`), when it is a property of
    /// self that this file does not show to hold something else.
    private func publisherProperty(_ base: ExprSyntax, context: SwiftContext) -> String? {
        guard context.typeName != nil, !context.isStatic, let name = selfPropertyName(base, context: context) else {
            return nil
        }
        let info = context.typeName.flatMap { types.types[$0] }
        if info?.publishers.contains(name) == true { return name }
        return info?.properties[name] == nil ? name : nil
    }

    /// The first strong use of `holder` (its first name) in the closure, unless the closure captures it weakly.
    private func capture(of holder: String, in closure: ClosureExprSyntax) -> AbsolutePosition? {
        let root = String(holder.split(separator: ".").first ?? "")
        guard !root.isEmpty else { return nil }
        for item in closure.signature?.capture?.items ?? [] where item.name.text == root && item.specifier != nil {
            return nil
        }
        for token in tokens(of: closure.statements) where token.text == root {
            if token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period { continue }
            return token.positionAfterSkippingLeadingTrivia
        }
        return nil
    }

    /// Who keeps the subscription and under which name: `("self", "cancellables")` for
    /// `.store(in: &cancellables)`, `("model", "cancellable")` for `model.cancellable = …`; nil for a local.
    private func subscriptionHolder(_ call: FunctionCallExprSyntax, context: SwiftContext) -> (String, String)? {
        let properties = context.typeName.flatMap { types.types[$0]?.properties } ?? [:]
        if let member = call.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "store",
            let store = member.parent?.as(FunctionCallExprSyntax.self),
            let reference = store.arguments.first?.expression.as(InOutExprSyntax.self)
        {
            let expression = reference.expression
            if let access = expression.as(MemberAccessExprSyntax.self), let base = access.base {
                let holder = base.trimmedText
                if holder == "self" { return ("self", access.declName.baseName.text) }
                let bare = holder.hasPrefix("self.") ? String(holder.dropFirst(5)) : holder
                return (bare, access.declName.baseName.text)
            }
            let name = SwiftNames.storage(expression)
            let isLocal = facts(context).locals.contains(name) || context.parameters.contains(name)
            // In an extension of a type declared in another file, a name that is not local is a property.
            let extensionOnly = context.typeName.flatMap { types.types[$0]?.kind } == .unknown
            return (properties[name] != nil || extensionOnly) && !isLocal ? ("self", name) : nil
        }
        guard let lhs = assignment(of: call, context: context), !lhs.isLocal else { return nil }
        if let holder = lhs.holder {
            return (holder.hasPrefix("self.") ? String(holder.dropFirst(5)) : holder, lhs.name)
        }
        return ("self", lhs.name)
    }

    /// A repeating timer or a connected timer publisher in a SwiftUI view: reported when nothing in the view
    /// invalidates or cancels anything.
    func checkViewTimer(_ call: FunctionCallExprSyntax) {
        let context = SwiftContext(of: call, types: types)
        guard types.isSwiftUIView(context.typeName) else { return }
        var site = site("timer", .publisher, context)
        site.subject = context.typeName ?? "View"
        var timer = StoredTimer(name: "", retainsSelf: false)
        timer.position = call.position.utf8Offset
        timer.enclosingBlocks = Set(enclosingBlocks(of: call))
        viewTimers[context.typeName ?? "", default: []].append(
            (finding(.swiftuiTimerNeverStopped, at: call.positionAfterSkippingLeadingTrivia, site: site), timer))
    }

    // MARK: Run-loop modes, stops and dispatch state

    func checkRunLoopMode(_ call: FunctionCallExprSyntax, name: String, base: ExprSyntax?) {
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        let context = SwiftContext(of: call, types: types)
        guard types.isScrollRelated(context.typeName) else { return }
        var facts = modeFacts[context.scope.id] ?? SwiftModeFacts(typeName: context.typeName)
        if name == "publish", base?.trimmedText == "Timer", let mode = argument(call, "in"),
            mode.expression.trimmedText.lowercased().contains("default")
        {
            facts.publishedInDefaultMode.append(mode.positionAfterSkippingLeadingTrivia)
        } else if name == "add", let mode = argument(call, "forMode") {
            let timer: String?
            if labels == ["_", "forMode"], base?.trimmedText.contains("RunLoop") == true {
                timer = call.arguments.first.map { SwiftNames.storage($0.expression) }
            } else if labels == ["to", "forMode"], let base {
                timer = SwiftNames.storage(base)
            } else {
                timer = nil
            }
            if let timer {
                facts.additions.append(
                    (timer, mode.expression.trimmedText.lowercased(), mode.positionAfterSkippingLeadingTrivia))
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
        case "invalidate", "cancel", "removeAll":
            recordStop(call, base: base)
        default:
            guard types.dispatchSources.contains(storage), let list = statementList(of: call) else { return }
            dispatchEvents.append(
                (list, name == "resume" ? .resume : .suspend, storage, call.positionAfterSkippingLeadingTrivia))
        }
    }

    /// Records a stop of the timer, source or subscription named by `base`, with the method it is in.
    func recordStop(_ call: FunctionCallExprSyntax, base: ExprSyntax) {
        let context = SwiftContext(of: call, types: types)
        let location = converter.location(for: call.positionAfterSkippingLeadingTrivia)
        var storage = SwiftNames.storage(base)
        // `guard let t = self.timer else { return }; t.invalidate()`: the local stands for the property.
        if let property = facts(context).aliasOf[storage] { storage = property }
        let function = context.functionName
        var display = function.isEmpty ? "" : "\(function)()"
        if function.hasPrefix("set"), function != storage, storage == "oldValue" || SetterName.key(storage) == function
        {
            // `oldValue?.invalidate()` in `didSet`: the property's own timer, stopped by assigning nil.
            if storage == "oldValue", let first = function.dropFirst(3).first {
                storage = first.lowercased() + function.dropFirst(4)
            }
            display = "self.\(storage) = nil"
        }
        stops[context.typeName ?? "", default: []].append(
            TimerStop(
                name: storage, written: SwiftNames.written(base), path: path, line: location.line,
                column: location.column, inDeinit: context.isDeinit, inLifecycle: context.isLifecycle,
                method: function, methodDisplay: display, onParameter: context.parameters.contains(storage),
                position: call.position.utf8Offset, block: enclosingBlocks(of: call).first ?? "",
                onlyOnFailure: Self.onlyOnFailure(call)))
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

/// How a property name is used in a file, for the migration fix-it: whether any use needs a
/// `Foundation.Timer`, and the values assigned to it other than nil.
struct TickerPropertyUses {
    var otherUse = false
    var assigned: [SyntaxIdentifier] = []
}

/// How a name is used in a statement list, for the migration fix-it of a local timer: whether any use other
/// than `invalidate()` and `isValid` needs a `Foundation.Timer`, and the declarations of the name (the range of
/// the initial value of each declared without a type and with one; nil for any other declaration).
struct LocalTickerUses {
    var otherUse = false
    var declarations: [Range<AbsolutePosition>?] = []
}
