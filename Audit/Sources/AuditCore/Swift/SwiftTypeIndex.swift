import SwiftSyntax

/// The file's types (classes, structs, enums, actors and their extensions) with their inherited names and
/// stored properties, and every name that holds a dispatch source.
final class SwiftTypeIndex: SyntaxVisitor {
    enum Kind {
        case referenceType
        case valueType
        /// Only extensions were seen: the type is declared elsewhere.
        case unknown
    }

    struct TypeInfo {
        var kind = Kind.unknown
        var inherited: [String] = []
        /// Declared `@MainActor`.
        var isMainActor = false
        /// Instance methods: an unapplied reference to one (`block: poll`) captures self.
        var methods: Set<String> = []
        /// Instance methods without parameters (`Type.method` is then `(Type) -> () -> Void`).
        var nullaryMethods: Set<String> = []
        /// Declared here (not only extended).
        var declared = false
        /// An app delegate: it lives for the whole process.
        var livesForProcess = false
        /// A static property of its own type (`static let shared = Type()`): a singleton when the scan makes no
        /// other instance.
        var hasSharedInstance = false
        /// Declared `public` or `open`.
        var isPublic = false
        /// Instance methods declared `public` or `open`.
        var publicMethods: Set<String> = []
        /// Properties that hold a `Timer.publish` publisher.
        var publishers: Set<String> = []
        /// Property name → whether it is `weak`/`unowned` (does not retain).
        var properties: [String: Property] = [:]
    }

    struct Property {
        var isWeak: Bool
        var type: String?
        /// The type annotation's place, for a fix-it that changes it.
        var typeStart: AbsolutePosition?
        var typeEnd: AbsolutePosition?
    }

    private(set) var types: [String: TypeInfo] = [:]
    /// Methods the frameworks call (`@IBAction`): never reported as "never called".
    private(set) var calledBySystem: Set<String> = []
    /// Names (as in ``SwiftNames/storage(_:)``) declared as or assigned a `DispatchSource`.
    private(set) var dispatchSources: Set<String> = []

    init(_ tree: SourceFileSyntax) {
        super.init(viewMode: .sourceAccurate)
        walk(tree)
    }

    /// Whether the type is main-actor isolated: declared `@MainActor`, or a subclass (through the file's own
    /// classes) of a UIKit/AppKit view or controller.
    func isMainActor(_ name: String?, depth: Int = 0) -> Bool {
        guard let name, depth < 8, let info = types[name] else { return false }
        if info.isMainActor { return true }
        return info.inherited.contains { Advice.isMainActorSuperclass($0) || isMainActor($0, depth: depth + 1) }
    }

    /// Whether the type conforms to SwiftUI's `View` (as written in its declaration or an extension).
    func isSwiftUIView(_ name: String?) -> Bool {
        guard let name, let info = types[name] else { return false }
        return info.kind == .valueType && info.inherited.contains { $0 == "View" || $0 == "SwiftUI.View" }
    }

    /// What this file says about its types, for the scan's index.
    func typeFacts() -> [String: TypeFacts] {
        var result: [String: TypeFacts] = [:]
        for (name, info) in types {
            var facts = TypeFacts()
            facts.declared = info.declared
            facts.livesForProcess = info.livesForProcess
            facts.hasSharedInstance = info.hasSharedInstance
            facts.publicMethods = info.isPublic ? info.publicMethods : []
            facts.retainsTarget = info.properties.contains {
                $0.key.lowercased().contains("target") && !$0.value.isWeak
            }
            facts.isMainActor = isMainActor(name)
            facts.methods = info.methods
            facts.publishers = info.publishers
            result[name] = facts
        }
        return result
    }

    func isScrollRelated(_ name: String?) -> Bool {
        guard let name else { return false }
        return Rule.isScrollRelated([name] + (types[name]?.inherited ?? []))
    }

    /// Records a type declaration or extension: its kind (nil keeps what is known), inherited names and
    /// stored properties. Returns `.visitChildren` so that nested types are recorded too.
    private func record(_ decl: some DeclGroupSyntax, name: String, kind: Kind?) -> SyntaxVisitorContinueKind {
        var info = types[name] ?? TypeInfo()
        if let kind {
            info.kind = kind
            info.declared = true
        }
        let attributes = decl.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedText }
        if attributes.contains("MainActor") { info.isMainActor = true }
        let inherited = decl.inheritanceClause?.inheritedTypes.map { $0.type.trimmedText } ?? []
        if decl.modifiers.contains(where: { ["public", "open"].contains($0.name.text) }) { info.isPublic = true }
        info.inherited += inherited
        if kind == .referenceType,
            attributes.contains(where: { ["main", "UIApplicationMain", "NSApplicationMain"].contains($0) })
                || inherited.contains(where: { $0.hasSuffix("ApplicationDelegate") })
        {
            info.livesForProcess = true
        }
        for member in decl.memberBlock.members {
            if let function = member.decl.as(FunctionDeclSyntax.self),
                !function.modifiers.contains(where: { ["static", "class"].contains($0.name.text) })
            {
                info.methods.insert(function.name.text)
                if function.attributes.contains(where: {
                    ["IBAction", "IBSegueAction"].contains(
                        $0.as(AttributeSyntax.self)?.attributeName.trimmedText ?? "")
                }) {
                    calledBySystem.insert(function.name.text)
                }
                if function.modifiers.contains(where: { ["public", "open"].contains($0.name.text) }) {
                    info.publicMethods.insert(function.name.text)
                }
                if function.signature.parameterClause.parameters.isEmpty {
                    info.nullaryMethods.insert(function.name.text)
                }
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let isWeak = variable.modifiers.contains { ["weak", "unowned"].contains($0.name.text) }
            let isStatic = variable.modifiers.contains { ["static", "class"].contains($0.name.text) }
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                let type =
                    binding.typeAnnotation?.type.trimmedText
                    ?? binding.initializer.flatMap { SwiftNames.constructedType($0.value) }
                if isStatic {
                    // `static let shared = Clock()`, or a lazily made `static var instance: Clock?`: one instance
                    // for the whole process.
                    let bare = type.map { String($0.filter { $0 != "?" && $0 != "!" }) }
                    if kind == .referenceType || kind == nil, bare == name || bare == "Self" {
                        info.hasSharedInstance = true
                    }
                    continue
                }
                let annotation = binding.typeAnnotation?.type
                info.properties[pattern.identifier.text] = Property(
                    isWeak: isWeak, type: type, typeStart: annotation?.positionAfterSkippingLeadingTrivia,
                    typeEnd: annotation?.endPositionBeforeTrailingTrivia)
                if let value = binding.initializer?.value, SwiftNames.isTimerPublisher(value) {
                    info.publishers.insert(pattern.identifier.text)
                } else if let type, type.contains("TimerPublisher") {
                    info.publishers.insert(pattern.identifier.text)
                }
            }
        }
        types[name] = info
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, name: node.name.text, kind: .referenceType)
    }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, name: node.name.text, kind: .referenceType)
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, name: node.name.text, kind: .valueType)
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, name: node.name.text, kind: .valueType)
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, name: node.extendedType.trimmedText, kind: nil)
    }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        guard let pattern = node.pattern.as(IdentifierPatternSyntax.self) else { return .visitChildren }
        let type = node.typeAnnotation?.type.trimmedText ?? ""
        let value = node.initializer?.value.trimmedText ?? ""
        if type.contains("DispatchSource") || value.hasPrefix("DispatchSource.make") {
            dispatchSources.insert(pattern.identifier.text)
        }
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let (left, right) = SwiftNames.assignment(node), right.trimmedText.hasPrefix("DispatchSource.make") {
            dispatchSources.insert(SwiftNames.storage(left))
        }
        return .visitChildren
    }
}

/// Small helpers on expressions shared by the Swift checks.
enum SwiftNames {
    /// `self.timer?`, `timer!` and `timer` all name the storage `timer`.
    static func storage(_ expression: some SyntaxProtocol) -> String {
        var text = written(expression)
        if text.hasPrefix("self.") { text.removeFirst(5) }
        return text
    }

    /// The expression as written, without a trailing `?` or `!`: `timer` for `timer?`.
    static func written(_ expression: some SyntaxProtocol) -> String {
        var text = expression.trimmedText
        while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
        return text
    }

    /// The two sides of `left = right`, from an unfolded sequence expression.
    static func assignment(_ sequence: SequenceExprSyntax) -> (ExprSyntax, ExprSyntax)? {
        let elements = Array(sequence.elements)
        guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
        return (elements[0], elements[2])
    }

    /// Whether the expression is a `Timer.publish(…)` chain (`.autoconnect()`, `.receive(on:)`, … after it),
    /// however it is split across lines.
    static func isTimerPublisher(_ expression: ExprSyntax) -> Bool {
        var current: ExprSyntax? = expression
        var steps = 0
        while let node = current, steps < 64 {
            steps += 1
            if let call = node.as(FunctionCallExprSyntax.self) {
                current = call.calledExpression
            } else if let member = node.as(MemberAccessExprSyntax.self) {
                if ["publish", "TimerPublisher"].contains(member.declName.baseName.text),
                    ["Timer", "Foundation.Timer"].contains(member.base?.trimmedText ?? "")
                {
                    return true
                }
                current = member.base
            } else if let unwrap = node.as(ForceUnwrapExprSyntax.self) {
                current = unwrap.expression
            } else if let optional = node.as(OptionalChainingExprSyntax.self) {
                current = optional.expression
            } else {
                return false
            }
        }
        return false
    }

    /// `Poller` for `Poller()` or `Poller(interval: 1)`.
    static func constructedType(_ expression: ExprSyntax) -> String? {
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
            reference.baseName.text.first?.isUppercase == true
        else { return nil }
        return reference.baseName.text
    }

    /// Removes `as Any`, `!`, `?` and parentheses around an expression.
    static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
        if let cast = expression.as(AsExprSyntax.self) { return unwrapped(cast.expression) }
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
            let first = sequence.elements.first,
            sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true
        {
            return unwrapped(first)
        }
        if let force = expression.as(ForceUnwrapExprSyntax.self) { return unwrapped(force.expression) }
        if let optional = expression.as(OptionalChainingExprSyntax.self) { return unwrapped(optional.expression) }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first,
            only.label == nil
        {
            return unwrapped(only.expression)
        }
        return expression
    }
}
