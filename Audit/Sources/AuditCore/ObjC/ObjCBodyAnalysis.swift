/// The left side of `x = [send …]`: the storage name, whether it is a new local, and its holder (`obj`
/// in `obj.timer = …`).
struct ObjCAssignment {
    var name: String
    var isLocal: Bool
    var holder: String?
    var property: String
}

/// The checks on one method or function body.
struct ObjCBodyAnalysis {
    private let file: ObjCFileAnalysis
    private let method: ObjCMethod
    private var syntax: ObjCSyntax { file.syntax }
    private var tokens: [ObjCToken] { file.syntax.tokens }
    private let info: ObjCClass

    private var locals: [String: ObjCLocal] = [:]
    /// Local → the property or ivar it is stored in (`self.timer = timer;`).
    private var storedOnSelf: [String: String] = [:]
    private var weakAliases: Set<String> = []
    /// Strong references to self: name → the index of its declaration.
    private var strongAliases: [String: Int] = [:]

    private(set) var findings: [Finding] = []
    private(set) var stored: [StoredTimer] = []
    private(set) var stops: [TimerStop] = []
    /// Sends to self (`[self stopTimer]`), for stops in helper methods.
    private(set) var calls: [MethodCall] = []

    private var modeAdditions: [(timer: String, mode: String, label: Int)] = []
    private var scheduledInDefaultMode: [(index: Int, timer: String?)] = []
    private var dispatchEvents: [(kind: DispatchEvent, name: String, index: Int)] = []

    init(file: ObjCFileAnalysis, method: ObjCMethod) {
        self.file = file
        self.method = method
        info = method.className.flatMap { file.classes[$0] } ?? ObjCClass()
    }

    private var bodyRange: Range<Int> { (method.body + 1)..<method.bodyEnd }

    mutating func run() {
        collectLocals()
        for index in bodyRange {
            let token = tokens[index]
            switch token.kind {
            case .punctuation where token.text == "[":
                if let send = syntax.messageSend(at: index) { check(send) }
            case .punctuation where token.text == "=":
                checkNilAssignment(at: index)
            case .identifier where token.text.hasPrefix("dispatch_"):
                checkDispatchCall(at: index)
            case .atKeyword where token.text == "@selector":
                if syntax.isPunctuation(index + 1, "("), syntax.isIdentifier(index + 2) {
                    record(callee: syntax.text(index + 2), at: index)
                }
            default:
                continue
            }
        }
        checkDefaultModes()
        checkDispatchSequences()
    }

    private func site(
        _ subject: String, _ kind: Advice.TimerKind, method selector: String? = nil, send: MessageSend? = nil
    ) -> Advice.Site {
        var site = Advice.Site(
            language: .objectiveC, kind: kind, subject: subject, typeName: method.className, method: selector)
        site.mainActor = file.isMainActor(method.className)
        if let send {
            let parts = ["scheduledTimerWithTimeInterval", "timerWithTimeInterval", "interval"]
            if let range = parts.lazy.compactMap({ send.argument($0) }).first, range.count == 1,
                tokens[range.lowerBound].kind == .number
            {
                site.interval = tokens[range.lowerBound].text
            }
        }
        return site
    }

    private mutating func report(_ rule: Rule, at index: Int, site: Advice.Site) {
        findings.append(finding(rule, at: index, site: site))
    }

    private func finding(_ rule: Rule, at index: Int, site: Advice.Site) -> Finding {
        let token = tokens[index]
        return Advice.finding(rule, at: (token.line, token.column), path: file.path, site: site)
    }

    /// Records a timer kept in `lhs` (when it is not a new local) with its creation finding, which the
    /// file analysis reports unless the class stops that timer in a life-cycle method.
    private mutating func keep(
        _ finding: Finding?, storedIn lhs: ObjCAssignment?, retainsSelf: Bool,
        details: StoredTimer = StoredTimer(name: "", retainsSelf: false)
    ) {
        if lhs?.holder != nil, details.holderProperty == nil {
            if let finding { findings.append(finding) }
            return
        }
        var timer = details
        timer.name = lhs.map { $0.isLocal ? "" : $0.name } ?? ""
        timer.retainsSelf = retainsSelf
        timer.finding = finding
        if timer.method.isEmpty { timer.method = Self.key(method.name) }
        guard !timer.name.isEmpty || finding != nil else { return }
        stored.append(timer)
    }

    /// A timer record placed at the send `open`: its position and the braces around it.
    private func placed(at open: Int) -> StoredTimer {
        var timer = StoredTimer(name: "", retainsSelf: false)
        timer.position = open
        var brace = syntax.scope[open]
        var steps = 0
        while brace >= 0, steps < 256 {
            timer.enclosingBlocks.insert("\(file.path):\(brace)")
            brace = syntax.scope[brace]
            steps += 1
        }
        return timer
    }

    /// The method's key in the scan's index: the first part of its selector (`setTimer` for `setTimer:`).
    static func key(_ selector: String) -> String {
        String(selector.split(separator: ":", omittingEmptySubsequences: false).first ?? "")
    }

    /// The class a timer factory is sent to, when it is not the real one (`NSTimer`, `CADisplayLink`): a
    /// project or library type that only looks like a timer counts only when the scan shows it retains its
    /// target. `[[X alloc] init…]` names X.
    private func lookalike(_ send: MessageSend, real: String) -> String? {
        var receiver = send.receiver
        if syntax.isPunctuation(receiver.lowerBound, "["), let inner = syntax.messageSend(at: receiver.lowerBound),
            inner.names == ["alloc"] || inner.names == ["new"]
        {
            receiver = inner.receiver
        }
        guard receiver.count == 1, syntax.isIdentifier(receiver.lowerBound) else { return nil }
        let name = tokens[receiver.lowerBound].text
        guard name.first?.isUppercase == true, name != real, !["UIScreen", "NSScreen"].contains(name) else {
            return nil
        }
        return name
    }

    /// Whether the block invalidates or cancels its own timer: `[t invalidate]` on its parameter or
    /// `[self.timer invalidate]`/`dispatch_source_cancel(_timer)` on the storage it is kept in.
    private func blockStopsItself(_ open: Int, storage: String?) -> Bool {
        guard syntax.match[open] > open else { return false }
        var names: Set<String> = []
        if let storage { names.insert(storage) }
        var back = open - 1
        while back > method.body, open - back < 16, !syntax.isPunctuation(back, "^") {
            if tokens[back].kind == .identifier { names.insert(tokens[back].text) }
            back -= 1
        }
        for index in (open + 1)..<syntax.match[open] {
            if syntax.text(index) == "invalidate", syntax.isPunctuation(index + 1, "]") {
                var start = index - 1
                while start > open, !syntax.isPunctuation(start, "[") { start -= 1 }
                if names.contains(storageName((start + 1)..<index))
                    || names.contains(syntax.joined((start + 1)..<index)), !onlyOnFailure(at: index)
                {
                    return true
                }
            }
            if syntax.text(index) == "dispatch_source_cancel", let arguments = syntax.callArguments(at: index),
                let first = arguments.first, names.contains(storageName(first))
            {
                return true
            }
        }
        return false
    }

    // MARK: Locals and aliases of self

    private static let qualifiers: Set<String> = [
        "__weak", "__strong", "__block", "__unsafe_unretained", "const", "static", "typeof", "__typeof",
        "__typeof__", "id", "weak",
    ]

    private mutating func collectLocals() {
        for index in bodyRange where syntax.isPunctuation(index, "=") {
            let nameIndex = index - 1
            guard syntax.isIdentifier(nameIndex), nameIndex - 1 > method.body,
                syntax.isIdentifier(nameIndex - 1) || syntax.isPunctuation(nameIndex - 1, "*")
                    || syntax.isPunctuation(nameIndex - 1, ")")
            else { continue }
            let start = statementStart(before: nameIndex)
            let declaration = start..<nameIndex
            guard !declaration.isEmpty,
                !declaration.contains(where: { syntax.isPunctuation($0, ".") || syntax.isPunctuation($0, "->") })
            else { continue }
            let words = declaration.filter { tokens[$0].kind == .identifier }.map { tokens[$0].text }
            guard !words.contains("return") else { continue }
            var end = index + 1
            while end < method.bodyEnd, !syntax.isPunctuation(end, ";"), !syntax.isPunctuation(end, ",") {
                end = syntax.after(end)
            }
            let name = tokens[nameIndex].text
            locals[name] = ObjCLocal(
                name: name, typeName: words.first { !Self.qualifiers.contains($0) },
                isWeak: words.contains("__weak") || words.contains("__unsafe_unretained"), declaration: index,
                initialValue: syntax.joined((index + 1)..<end))
        }
        for index in bodyRange where syntax.isPunctuation(index, "=") && syntax.isPunctuation(index + 2, ";") {
            let value = syntax.text(index + 1)
            let start = statementStart(before: index)
            guard locals[value] != nil, start < index else { continue }
            let target = syntax.joined(start..<index)
            if target.hasPrefix("self.") || target.hasPrefix("self->") || info.ivarNames.contains(target) {
                storedOnSelf[value] = storageName(start..<index)
            }
        }
        for local in locals.values where local.initialValue == "self" {
            if local.isWeak { weakAliases.insert(local.name) } else { strongAliases[local.name] = local.declaration }
        }
        for index in bodyRange where tokens[index].kind == .atKeyword && tokens[index].text == "@weakify" {
            weakAliases.insert("self_weak_")
        }
        for local in locals.values where !local.isWeak && weakAliases.contains(local.initialValue) {
            strongAliases[local.name] = local.declaration
        }
    }

    /// The start of the simple statement that holds `index`, after a brace-less `if (…)`, `while (…)`,
    /// `else` or `do` in front of it: `timer` in `if (timer == nil) timer = [NSTimer …];`.
    private func statementStart(before index: Int) -> Int {
        var start = syntax.statementStart(before: index, notBefore: method.body)
        var steps = 0
        while start < index, steps < 8 {
            steps += 1
            let word = syntax.text(start)
            if ["if", "while", "for", "switch"].contains(word), syntax.isPunctuation(start + 1, "("),
                syntax.match[start + 1] > start + 1, syntax.match[start + 1] < index
            {
                start = syntax.match[start + 1] + 1
            } else if word == "else" || word == "do" {
                start += 1
            } else {
                break
            }
        }
        return start
    }

    /// `self.timer`, `self->_timer`, `_timer` and `timer` all name the storage `timer`.
    private func storageName(_ range: Range<Int>) -> String {
        var text = syntax.joined(range)
        for prefix in ["self.", "self->"] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        if text.hasPrefix("_") { text.removeFirst() }
        return text
    }

    // MARK: Message sends

    private static let targetTimerSelectors: Set<[String]> = [
        ["scheduledTimerWithTimeInterval", "target", "selector", "userInfo", "repeats"],
        ["timerWithTimeInterval", "target", "selector", "userInfo", "repeats"],
        ["initWithFireDate", "interval", "target", "selector", "userInfo", "repeats"],
    ]

    private static let invocationTimerSelectors: Set<[String]> = [
        ["scheduledTimerWithTimeInterval", "invocation", "repeats"],
        ["timerWithTimeInterval", "invocation", "repeats"],
    ]

    /// A timer firing an NSInvocation whose target is self (`inv.target = self;` or `[inv setTarget:self];`
    /// in the same method): the timer retains the invocation and the invocation retains its target.
    private mutating func checkInvocationTimer(_ send: MessageSend) {
        let lhs = assignment(before: send.open)
        if send.names.first == "scheduledTimerWithTimeInterval", repeats(send) != .no {
            scheduledInDefaultMode.append((send.open, lhs?.name))
        }
        guard repeats(send) != .no, !method.isClassMethod, let argument = send.argument("invocation"),
            argument.count == 1, let label = send.label("invocation")
        else { return }
        let invocation = tokens[argument.lowerBound].text
        let setsSelf = bodyRange.contains { index in
            let property =
                syntax.text(index) == invocation && syntax.isPunctuation(index + 1, ".")
                && syntax.text(index + 2) == "target" && syntax.isPunctuation(index + 3, "=")
                && syntax.text(index + 4) == "self"
            let setter =
                syntax.isPunctuation(index, "[") && syntax.text(index + 1) == invocation
                && syntax.text(index + 2) == "setTarget" && syntax.isPunctuation(index + 3, ":")
                && syntax.text(index + 4) == "self"
            return property || setter
        }
        guard setsSelf else {
            keep(nil, storedIn: lhs, retainsSelf: false)
            return
        }
        var rule = Rule.timerTargetRetain
        var subject = "self"
        if let lhs, !lhs.isLocal, lhs.holder == nil, info.properties[lhs.name]?.isWeak == true {
            rule = .weakTimerPropertyNoFix
            subject = lhs.name
        }
        keep(finding(rule, at: label, site: site(subject, .targetAction, send: send)), storedIn: lhs, retainsSelf: true)
    }

    private mutating func check(_ send: MessageSend) {
        let names = send.names
        if Self.targetTimerSelectors.contains(names) || names == ["displayLinkWithTarget", "selector"] {
            checkTargetTimer(send, isDisplayLink: names[0] == "displayLinkWithTarget")
        } else if Self.invocationTimerSelectors.contains(names) {
            checkInvocationTimer(send)
        } else if names.contains("block"), names.contains("repeats"),
            names[0].lowercased().contains("timer") || syntax.joined(send.receiver).contains("Timer")
        {
            checkBlockTimer(send, blockPart: "block")
        } else if syntax.joined(send.receiver) == "NSTimer",
            let part = send.parts.first(where: { syntax.isPunctuation($0.arguments.lowerBound, "^") })
        {
            // A category on NSTimer that takes a block (`[NSTimer bk_every:1 repeats:YES run:^{ … }]`) keeps it
            // in the timer it schedules: the same cycle as Foundation's block API.
            checkBlockTimer(send, blockPart: part.name)
        } else if names == ["addTimer", "forMode"] || names == ["addToRunLoop", "forMode"],
            let mode = send.argument("forMode"), let label = send.label("forMode")
        {
            let timer = names[0] == "addTimer" ? send.argument("addTimer") ?? send.receiver : send.receiver
            modeAdditions.append((storageName(timer), syntax.joined(mode), label))
        } else if names == ["invalidate"], !send.receiver.isEmpty {
            stop(send.receiver, at: send.open)
        }
        let onSelf = syntax.joined(send.receiver) == "self"
        if let first = names.first, onSelf || !["invalidate", "cancel"].contains(first) {
            record(callee: first, at: send.open, onSelf: onSelf)
        } else if let first = names.first, let type = declaredType(ofReceiver: send.receiver) {
            // `[self.levelMeter invalidate]`: the property's class's own method.
            record(callee: first, at: send.open, receiverType: type)
        }
        if names == ["alloc"] || names == ["new"], send.receiver.count == 1,
            syntax.isIdentifier(send.receiver.lowerBound),
            tokens[send.receiver.lowerBound].text.first?.isUppercase == true
        {
            // `[[Clock alloc] init]`: an instance of Clock is made here (a singleton's accessor makes its own).
            record(callee: tokens[send.receiver.lowerBound].text, at: send.open)
        }
    }

    /// The class of the property or instance variable a receiver names (`self.meter`, `_meter`, `meter`), when it
    /// is a project class rather than a timer or display link.
    private func declaredType(ofReceiver receiver: Range<Int>) -> String? {
        let text = syntax.joined(receiver)
        var name = text
        for prefix in ["self.", "self->"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), locals[name] == nil
        else { return nil }
        let bare = name.hasPrefix("_") ? String(name.dropFirst()) : name
        guard let type = info.properties[bare]?.type ?? info.properties[name]?.type,
            !["NSTimer", "CADisplayLink", "NSThread", "NSOperation", "NSURLSessionTask"].contains(type)
        else { return nil }
        return type
    }

    /// Records a call of `callee` (a message send, a `@selector`, a setter through `self.timer = nil`).
    private mutating func record(callee: String, at index: Int, onSelf: Bool = false, receiverType: String? = nil) {
        let token = tokens[index]
        calls.append(
            MethodCall(
                callee: callee, path: file.path, line: token.line, column: token.column,
                callerType: method.className ?? "", callerMethod: Self.key(method.name), inDeinit: method.isDealloc,
                inLifecycle: ObjCMethod.lifecycleNames.contains(method.name), onSelf: onSelf,
                inStatic: method.isClassMethod || method.className == nil, receiverType: receiverType,
                position: index, block: "\(file.path):\(syntax.scope[index])"))
    }

    /// Whether the statement at `index` runs only on a failure: under an `if` whose condition is about an error
    /// or a failure (with or without braces), or in a `@catch`. Such a stop is not the normal end of the work.
    private func onlyOnFailure(at index: Int) -> Bool {
        let start = syntax.statementStart(before: index, notBefore: method.body)
        if syntax.text(start) == "if", syntax.isPunctuation(start + 1, "("), syntax.match[start + 1] > start + 1,
            syntax.match[start + 1] < index, Self.isAboutFailure(syntax.joined((start + 2)..<syntax.match[start + 1]))
        {
            return true
        }
        var brace = syntax.scope[index]
        var steps = 0
        while brace > method.body, steps < 64 {
            steps += 1
            if syntax.text(brace - 1) == "@catch" || syntax.text(syntax.match[brace - 1] - 1) == "@catch" {
                return true
            }
            if syntax.isPunctuation(brace - 1, ")"), syntax.match[brace - 1] >= 0, syntax.match[brace - 1] < brace - 1,
                syntax.text(syntax.match[brace - 1] - 1) == "if",
                Self.isAboutFailure(syntax.joined((syntax.match[brace - 1] + 1)..<(brace - 1)))
            {
                return true
            }
            brace = syntax.scope[brace]
        }
        return false
    }

    private static func isAboutFailure(_ condition: String) -> Bool {
        let text = condition.lowercased()
        return text.contains("error") || text.contains("fail")
    }

    private mutating func stop(_ receiver: Range<Int>, at index: Int) {
        let key = Self.key(method.name)
        var name = storageName(receiver)
        // `NSTimer *t = self.timer; [t invalidate];`: the local stands for the property.
        if receiver.count == 1, let local = locals[syntax.joined(receiver)], local.declaration < index {
            var value = local.initialValue
            for prefix in ["self.", "self->"] where value.hasPrefix(prefix) { value.removeFirst(prefix.count) }
            let bare = value.hasPrefix("_") ? String(value.dropFirst()) : value
            if !bare.isEmpty, bare.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                local.initialValue.hasPrefix("self") || info.properties[bare] != nil || info.ivarNames.contains(value)
            {
                name = bare
            }
        }
        let isSetter =
            method.name.hasSuffix(":") && method.name.filter({ $0 == ":" }).count == 1
            && key == SetterName.key(name)
        stops.append(
            TimerStop(
                name: name, written: syntax.joined(receiver), path: file.path, line: tokens[index].line,
                column: tokens[index].column, inDeinit: method.isDealloc,
                inLifecycle: ObjCMethod.lifecycleNames.contains(method.name), method: key,
                methodDisplay: isSetter ? "self.\(name) = nil" : "-\(method.name)",
                onParameter: receiver.count == 1 && method.parameters.contains(syntax.joined(receiver)),
                position: index, block: "\(file.path):\(syntax.scope[index])", onlyOnFailure: onlyOnFailure(at: index)))
    }

    private enum Repeats { case yes, no, unknown }

    private func repeats(_ send: MessageSend) -> Repeats {
        guard let range = send.argument("repeats") else { return .unknown }
        switch syntax.joined(range) {
        case "YES", "true", "1": return .yes
        case "NO", "false", "0": return .no
        default: return .unknown
        }
    }

    /// The left side of `x = [send …]`: the storage name, whether it is a new local, and its holder
    /// (`obj` in `obj.timer = …`).
    private func assignment(before open: Int) -> ObjCAssignment? {
        // Manual reference counting: `_timer = [[NSTimer scheduledTimerWithTimeInterval:…] retain];`.
        if syntax.isPunctuation(open - 1, "["), let outer = syntax.messageSend(at: open - 1), outer.names == ["retain"],
            outer.receiver.lowerBound == open
        {
            return assignment(before: open - 1)
        }
        // Key-value coding: `[self setValue:[NSTimer …] forKey:@"timer"]` keeps the timer in `timer`.
        if open >= 4, syntax.isPunctuation(open - 1, ":"), syntax.text(open - 2) == "setValue",
            syntax.text(open - 3) == "self", syntax.isPunctuation(open - 4, "["),
            let outer = syntax.messageSend(at: open - 4), outer.names == ["setValue", "forKey"],
            let key = outer.argument("forKey"), key.count == 1, tokens[key.lowerBound].kind == .literal,
            tokens[key.lowerBound].text.hasPrefix("@\"")
        {
            let name = String(tokens[key.lowerBound].text.dropFirst(2).dropLast())
            let bare = name.hasPrefix("_") ? String(name.dropFirst()) : name
            return ObjCAssignment(name: bare, isLocal: false, holder: nil, property: bare)
        }
        guard syntax.isPunctuation(open - 1, "=") else { return nil }
        let start = statementStart(before: open - 1)
        let left = start..<(open - 1)
        guard let last = left.last, tokens[last].kind == .identifier else { return nil }
        let property = tokens[last].text
        if let dot = left.last(where: { syntax.isPunctuation($0, ".") || syntax.isPunctuation($0, "->") }) {
            let holder = syntax.joined(start..<dot)
            return ObjCAssignment(
                name: storageName(left), isLocal: false, holder: holder == "self" ? nil : holder, property: property)
        }
        let isDeclaration = locals[property] != nil && left.count > 1
        if isDeclaration, let stored = storedOnSelf[property] {
            return ObjCAssignment(name: stored, isLocal: false, holder: nil, property: stored)
        }
        return ObjCAssignment(name: storageName(left), isLocal: isDeclaration, holder: nil, property: property)
    }

    private func selectorName(_ send: MessageSend) -> String? {
        guard let range = send.argument("selector"), range.count >= 4, tokens[range.lowerBound].text == "@selector"
        else { return nil }
        return tokens[range.lowerBound + 2].text
    }

    private mutating func checkTargetTimer(_ send: MessageSend, isDisplayLink: Bool) {
        let lhs = assignment(before: send.open)
        if send.names.first == "scheduledTimerWithTimeInterval", repeats(send) != .no {
            scheduledInDefaultMode.append((send.open, lhs?.name))
        }
        let targetPart = isDisplayLink ? "displayLinkWithTarget" : "target"
        // In a class method self is the class; only a target object that keeps the timer can be retained.
        guard let target = send.argument(targetPart), let label = send.label(targetPart) else { return }
        var details = placed(at: send.open)
        details.callback = selectorName(send).map(Self.key)
        details.lookalikeType = lookalike(send, real: isDisplayLink ? "CADisplayLink" : "NSTimer")
        if !isDisplayLink, repeats(send) == .no {
            // A one-shot timer counts only when its callback schedules it again.
            guard !method.name.isEmpty else { return }
            details.rearmedFrom = Self.key(method.name)
        }
        var range = target
        if syntax.isPunctuation(range.lowerBound, "("), syntax.match[range.lowerBound] + 1 < range.upperBound {
            range = (syntax.match[range.lowerBound] + 1)..<range.upperBound
        }
        let text = syntax.joined(range)
        let kind: Advice.TimerKind = isDisplayLink ? .displayLink : .targetAction
        let baseRule: Rule = isDisplayLink ? .displayLinkTargetRetain : .timerTargetRetain
        var rule: Rule?
        if method.isClassMethod, lhs?.holder != text {
            return
        } else if text == "self" || strongAliases[text] != nil {
            rule = baseRule
        } else if weakAliases.contains(text) {
            rule = .weakselfAsTarget
        } else if let lhs, lhs.holder == text, holderRetainsTimer(holder: text, property: lhs.property) {
            rule = baseRule
        } else if let lhs, lhs.holder == text, let type = holderType(text),
            file.classes[type]?.properties[lhs.property] == nil
        {
            // The holder's class declares the property in another file (its header): the index decides.
            rule = baseRule
            details.holderProperty = (type, lhs.property)
        }
        guard var found = rule else {
            keep(nil, storedIn: lhs, retainsSelf: false, details: details)
            return
        }
        var subject = text
        if found == baseRule, let lhs, !lhs.isLocal, lhs.holder == nil, info.properties[lhs.name]?.isWeak == true {
            found = .weakTimerPropertyNoFix
            subject = lhs.name
        }
        var site = site(subject, kind, method: selectorName(send), send: send)
        site.rearms = details.rearmedFrom != nil
        if found == baseRule {
            details.ifWeakProperty = weakPropertyFinding(lhs, at: label, site: site)
        }
        if let lhs, let holder = lhs.holder, holder == text, details.holderProperty == nil,
            let className = method.className, holderType(holder) == className
        {
            // The class's own factory makes a wrapper whose timer targets it (`relay.timer = [NSTimer … target:relay
            // …]`): the wrapper's own methods may stop it, so the index decides.
            var timer = details
            timer.name = lhs.property
            timer.retainsSelf = true
            timer.finding = finding(found, at: label, site: site)
            timer.method = Self.key(method.name)
            stored.append(timer)
            return
        }
        keep(finding(found, at: label, site: site), storedIn: lhs, retainsSelf: lhs?.holder == nil, details: details)
    }

    /// The finding to report instead when the property that keeps the timer turns out to be weak in a
    /// declaration of another file (the class's header): the weak property does not break the cycle.
    private func weakPropertyFinding(_ lhs: ObjCAssignment?, at index: Int, site: Advice.Site) -> Finding? {
        guard let lhs, !lhs.isLocal, lhs.holder == nil, info.properties[lhs.name] == nil else { return nil }
        var weakSite = site
        weakSite.subject = lhs.name
        return finding(.weakTimerPropertyNoFix, at: index, site: weakSite)
    }

    /// The class of `holder`, from a local's or a property's declared type.
    private func holderType(_ holder: String) -> String? {
        locals[holder]?.typeName ?? info.properties[holder]?.type
    }

    /// Whether `holder`'s class (known from a local's or property's type) keeps `property` strongly.
    private func holderRetainsTimer(holder: String, property: String) -> Bool {
        let type = holderType(holder)
        guard let type, let holderClass = file.classes[type], let stored = holderClass.properties[property] else {
            return false
        }
        return !stored.isWeak
    }

    private mutating func checkBlockTimer(_ send: MessageSend, blockPart: String) {
        let lhs = assignment(before: send.open)
        if send.names == ["scheduledTimerWithTimeInterval", "repeats", "block"], repeats(send) != .no {
            scheduledInDefaultMode.append((send.open, lhs?.name))
        }
        guard let block = send.argument(blockPart), let body = blockLiteral(block) else { return }
        if repeats(send) == .no {
            // A one-shot block timer that schedules itself again from its block (`[self scheduleNext]`).
            let again =
                !method.name.isEmpty
                && ((body + 1)..<max(body + 1, syntax.match[body])).contains {
                    syntax.text($0) == Self.key(method.name) && syntax.isPunctuation($0 + 1, "]")
                }
            guard again else { return }
        }
        var details = placed(at: send.open)
        details.lookalikeType = lookalike(send, real: "NSTimer")
        details.stopsItself = blockStopsItself(body, storage: lhs?.name)
        guard let (found, index, written) = strongCapture(in: body) else {
            keep(nil, storedIn: lhs, retainsSelf: false, details: details)
            return
        }
        var rule = found
        var subject = written
        if let lhs, !lhs.isLocal, lhs.holder == nil, info.properties[lhs.name]?.isWeak == true {
            rule = .weakTimerPropertyNoFix
            subject = lhs.name
        }
        var site = site(subject, .block, send: send)
        site.rearms = repeats(send) == .no
        if rule == .blockTimerStrongSelf {
            details.ifWeakProperty = weakPropertyFinding(lhs, at: index, site: site)
        }
        keep(finding(rule, at: index, site: site), storedIn: lhs, retainsSelf: true, details: details)
    }

    /// The body of the block an argument passes: a literal `^{ … }`, or a local initialised with one
    /// (`void (^tick)(NSTimer *) = ^(NSTimer *t) { … };` then `block:tick`).
    private func blockLiteral(_ argument: Range<Int>) -> Int? {
        if syntax.isPunctuation(argument.lowerBound, "^") { return syntax.blockBody(at: argument.lowerBound) }
        guard argument.count == 1, syntax.isIdentifier(argument.lowerBound) else { return nil }
        let name = tokens[argument.lowerBound].text
        if let local = locals[name], syntax.isPunctuation(local.declaration + 1, "^") {
            return syntax.blockBody(at: local.declaration + 1)
        }
        // `void (^name)(NSTimer *) = ^…`: the declarator hides the name in parentheses.
        for index in bodyRange.lowerBound..<argument.lowerBound
        where syntax.isPunctuation(index, "^") && syntax.text(index + 1) == name && syntax.isPunctuation(index + 2, ")")
        {
            var cursor = index + 3
            if syntax.isPunctuation(cursor, "(") { cursor = syntax.after(cursor) }
            if syntax.isPunctuation(cursor, "="), syntax.isPunctuation(cursor + 1, "^") {
                return syntax.blockBody(at: cursor + 1)
            }
        }
        return nil
    }

    /// Foundation's assertion macros that expand to code using self (`NSAssert` reports through
    /// `[[NSAssertionHandler currentHandler] handleFailureInMethod:_cmd object:self …]`).
    private static let macrosUsingSelf: Set<String> = [
        "NSAssert", "NSAssert1", "NSAssert2", "NSAssert3", "NSAssert4", "NSAssert5", "NSParameterAssert",
    ]

    /// The first reference in the block at `open` that captures self strongly: `self`, an instance
    /// variable, or a strong alias of self made outside the block.
    private func strongCapture(in open: Int) -> (Rule, Int, String)? {
        guard !method.isClassMethod, syntax.match[open] > open else { return nil }
        let close = syntax.match[open]
        let strongified = ((open + 1)..<close).first {
            tokens[$0].kind == .atKeyword && tokens[$0].text == "@strongify"
        }
        // `__strong typeof(weakSelf) self = weakSelf;` (what @strongify(self) expands to) shadows self.
        let shadowed = ((open + 1)..<close).first {
            tokens[$0].text == "self" && tokens[$0].kind == .identifier && syntax.isPunctuation($0 + 1, "=")
                && (syntax.isPunctuation($0 - 1, ")") || syntax.isPunctuation($0 - 1, "*")
                    || syntax.isIdentifier($0 - 1))
        }
        // The block's own parameters, between `^` and its brace.
        var blockParameters: Set<String> = []
        var back = open - 1
        while back > method.body, open - back < 16, !syntax.isPunctuation(back, "^") {
            if tokens[back].kind == .identifier { blockParameters.insert(tokens[back].text) }
            back -= 1
        }
        let ivars = info.ivarNames
        for index in (open + 1)..<close where tokens[index].kind == .identifier {
            if syntax.isPunctuation(index - 1, ".") || syntax.isPunctuation(index - 1, "->") { continue }
            let name = tokens[index].text
            if name == "self" {
                if let strongified, strongified < index { continue }
                if let shadowed, shadowed <= index { continue }
                return (.blockTimerStrongSelf, index, "it uses self")
            }
            if Self.macrosUsingSelf.contains(name), syntax.isPunctuation(index + 1, "("), !method.isClassMethod {
                return (.blockTimerStrongSelf, index, "\(name) expands to code that uses self")
            }
            if let declaration = strongAliases[name], declaration < open {
                return (.strongselfEscapes, index, name)
            }
            if ivars.contains(name), locals[name] == nil, !method.parameters.contains(name),
                !blockParameters.contains(name), isVariableUse(at: index)
            {
                return (.blockTimerStrongSelf, index, "it uses the instance variable \(name), that is self->\(name)")
            }
        }
        return nil
    }

    /// Whether the identifier at `index` reads a variable rather than naming a selector part, a label, a
    /// declared name or a `@selector`'s method.
    private func isVariableUse(at index: Int) -> Bool {
        if syntax.isPunctuation(index + 1, ":") { return false }
        if syntax.isIdentifier(index - 1) || syntax.isPunctuation(index - 1, "]")
            || syntax.isPunctuation(index - 1, "*")
        {
            return false
        }
        if syntax.isPunctuation(index - 1, ")") {
            // `(NSTimer *)timer` is a cast of a variable, `[obj count]`-like forms after `)` are selector parts.
            return syntax.isPunctuation(index - 2, "*") || syntax.closesConditionOrCast(index - 1)
        }
        if syntax.isPunctuation(index - 1, "("), syntax.text(index - 2) == "@selector" { return false }
        return true
    }

    // MARK: Dispatch sources

    private enum DispatchEvent { case resume, suspend, release }

    private mutating func checkDispatchCall(at index: Int) {
        let name = tokens[index].text
        guard let arguments = syntax.callArguments(at: index), let first = arguments.first, !first.isEmpty else {
            return
        }
        switch name {
        case "dispatch_source_set_event_handler" where arguments.count == 2:
            checkEventHandler(source: first, handler: arguments[1])
        case "dispatch_resume" where arguments.count == 1:
            dispatchEvents.append((.resume, storageName(first), index))
        case "dispatch_suspend" where arguments.count == 1:
            dispatchEvents.append((.suspend, storageName(first), index))
        case "dispatch_release" where arguments.count == 1:
            dispatchEvents.append((.release, storageName(first), index))
        case "dispatch_source_cancel" where arguments.count == 1:
            stop(first, at: index)
        default:
            return
        }
    }

    private mutating func checkEventHandler(source: Range<Int>, handler: Range<Int>) {
        let text = syntax.joined(source)
        // A local source kept on self later (`self.timer = timer;`) is that property.
        let property = source.count == 1 ? self.storedOnSelf[text] : nil
        let storedOnSelf =
            text.hasPrefix("self.") || text.hasPrefix("self->") || property != nil
            || (source.count == 1 && locals[text] == nil && (info.ivarNames.contains(text) || text.hasPrefix("_")))
        guard storedOnSelf, syntax.isPunctuation(handler.lowerBound, "^"),
            let body = syntax.blockBody(at: handler.lowerBound)
        else { return }
        let capture = strongCapture(in: body)
        var timer = StoredTimer(
            name: property ?? storageName(source), retainsSelf: capture != nil,
            finding: capture.map { finding($0.0, at: $0.1, site: site($0.2, .dispatchHandler)) })
        timer.stopsItself = blockStopsItself(body, storage: timer.name)
        timer.method = Self.key(method.name)
        stored.append(timer)
    }

    private mutating func checkNilAssignment(at index: Int) {
        guard ["nil", "NULL"].contains(syntax.text(index + 1)), syntax.isPunctuation(index + 2, ";") else { return }
        let start = statementStart(before: index)
        guard start < index, syntax.isIdentifier(index - 1) else { return }
        dispatchEvents.append((.release, storageName(start..<index), index - 1))
        if syntax.isPunctuation(index - 2, ".") {
            record(
                callee: SetterName.key(syntax.text(index - 1)), at: index - 1,
                onSelf: syntax.text(index - 3) == "self" && start == index - 3)
        }
    }

    /// Suspend → release and resume → resume, for events in the same braces only (a branch may not run).
    private mutating func checkDispatchSequences() {
        var groups: [String: [(kind: DispatchEvent, index: Int)]] = [:]
        var order: [String] = []
        for event in dispatchEvents.sorted(by: { $0.index < $1.index }) {
            let key = "\(syntax.scope[event.index]).\(switchCase(of: event.index))|\(event.name)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append((event.kind, event.index))
        }
        for key in order {
            let name = String(key.split(separator: "|", maxSplits: 1)[1])
            var suspendedAt: Int?
            var resumedAt: Int?
            for event in groups[key] ?? [] {
                switch event.kind {
                case .resume:
                    if let earlier = resumedAt {
                        var details = site(name, .dispatchHandler)
                        details.earlierLine = tokens[earlier].line
                        report(.dispatchSourceDoubleResume, at: event.index, site: details)
                    }
                    resumedAt = event.index
                    suspendedAt = nil
                case .suspend:
                    suspendedAt = event.index
                    resumedAt = nil
                case .release:
                    if let earlier = suspendedAt {
                        var details = site(name, .dispatchHandler)
                        details.earlierLine = tokens[earlier].line
                        report(.dispatchSourceSuspendedRelease, at: event.index, site: details)
                    }
                    suspendedAt = nil
                    resumedAt = nil
                }
            }
        }
    }

    /// The `case`/`default` label a statement is under within its braces (-1 outside a switch): the cases of
    /// a switch are different branches.
    private func switchCase(of index: Int) -> Int {
        let scope = syntax.scope[index]
        var cursor = index - 1
        while cursor > scope, cursor > method.body {
            if syntax.scope[cursor] == scope, tokens[cursor].kind == .identifier,
                tokens[cursor].text == "case" || tokens[cursor].text == "default"
            {
                return cursor
            }
            cursor -= 1
        }
        return -1
    }

    // MARK: Run-loop modes

    private mutating func checkDefaultModes() {
        guard file.isScrollRelated(method.className) else { return }
        let covered = Set(
            modeAdditions.filter { $0.mode.contains("Common") || $0.mode.contains("Tracking") }.map(\.timer))
        let site = site("timer", .targetAction)
        for addition in modeAdditions
        where (addition.mode.contains("Default") || addition.mode == "kCFRunLoopDefaultMode")
            && !covered.contains(addition.timer)
        {
            report(.defaultModeInScrollView, at: addition.label, site: site)
        }
        for scheduled in scheduledInDefaultMode where scheduled.timer.map({ !covered.contains($0) }) ?? true {
            report(.defaultModeInScrollView, at: scheduled.index, site: site)
        }
    }
}
