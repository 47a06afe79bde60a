import SwiftSyntax

/// Where a node stands: its type, its function, and what `self` means there.
struct SwiftContext {
    var typeName: String?
    /// The function, initializer, deinitializer or accessor around the node, or the file.
    var scope: Syntax
    var functionName: String
    var isStatic: Bool
    var isDeinit: Bool
    /// The function's parameter names (their internal names).
    var parameters: Set<String> = []
    /// Whether `self` is an object that a capture retains (false in structs, enums, static methods and
    /// top-level code).
    var selfIsObject: Bool

    /// Methods UIKit and AppKit call when a view, controller, cell, window or app appears, goes away or moves:
    /// a stop in one of them (or in a method one of them calls) is reached at a moment that comes.
    static let lifecycleNames: Set<String> = [
        "viewWillDisappear", "viewDidDisappear", "viewWillAppear", "viewDidAppear", "willMove", "didMove",
        "didMoveToWindow", "didMoveToSuperview", "removeFromSuperview", "viewWillMove", "viewDidMoveToWindow",
        "viewDidMoveToSuperview", "viewDidHide", "prepareForReuse", "windowWillClose", "applicationWillTerminate",
        "applicationDidEnterBackground", "applicationWillResignActive", "sceneDidEnterBackground",
        "sceneDidDisconnect", "sceneWillResignActive",
    ]

    var isLifecycle: Bool { Self.lifecycleNames.contains(functionName) }

    init(of node: some SyntaxProtocol, types: SwiftTypeIndex) {
        var scope: Syntax?
        var functionName = ""
        var isStatic = false
        var isDeinit = false
        var parameters: Set<String> = []
        var typeName: String?
        var hasType = false
        var current = node.parent
        while let parent = current {
            if scope == nil {
                if let function = parent.as(FunctionDeclSyntax.self) {
                    scope = parent
                    functionName = function.name.text
                    isStatic = function.modifiers.contains { ["static", "class"].contains($0.name.text) }
                    parameters = Set(
                        function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
                } else if let initializer = parent.as(InitializerDeclSyntax.self) {
                    scope = parent
                    parameters = Set(
                        initializer.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
                } else if let accessor = parent.as(AccessorDeclSyntax.self) {
                    scope = parent
                    // A property observer or setter: stopping there is stopping in `setTimer`, reached by
                    // `timer = nil`.
                    if ["willSet", "didSet", "set"].contains(accessor.accessorSpecifier.text),
                        let property = Self.propertyName(of: accessor)
                    {
                        functionName = SetterName.key(property)
                    }
                } else if parent.is(AccessorBlockSyntax.self) {
                    // A computed property's getter written without `get` (`var body: some View { … }`).
                    scope = parent
                } else if parent.is(DeinitializerDeclSyntax.self) {
                    scope = parent
                    functionName = "deinit"
                    isDeinit = true
                }
            }
            if let variable = parent.as(VariableDeclSyntax.self),
                variable.parent?.is(MemberBlockItemSyntax.self) == true,
                variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) })
            {
                isStatic = true
            }
            if let name = Self.typeName(of: parent) {
                typeName = name
                hasType = true
                break
            }
            current = parent.parent
        }
        self.typeName = typeName
        self.scope = scope ?? Syntax(node.root)
        self.functionName = functionName
        self.isStatic = isStatic
        self.isDeinit = isDeinit
        self.parameters = parameters
        let kind = typeName.flatMap { types.types[$0]?.kind } ?? .unknown
        selfIsObject = hasType && !isStatic && kind != .valueType
    }

    /// `timer` for an accessor of `var timer: Timer? { didSet { … } }`.
    private static func propertyName(of accessor: AccessorDeclSyntax) -> String? {
        var current = accessor.parent
        while let node = current {
            if let binding = node.as(PatternBindingSyntax.self) {
                return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            }
            current = node.parent
        }
        return nil
    }

    private static func typeName(of node: Syntax) -> String? {
        if let decl = node.as(ClassDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(StructDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(EnumDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ActorDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ExtensionDeclSyntax.self) { return decl.extendedType.trimmedText }
        if let decl = node.as(ProtocolDeclSyntax.self) { return decl.name.text }
        return nil
    }
}

/// The names a function binds to `self`: weak aliases (`weak var weakSelf = self`), strong ones
/// (`let me = self`, `guard let strongSelf = weakSelf`), its locals, and the locals it stores on self
/// (`self.source = source`).
final class SwiftScopeFacts: SyntaxVisitor {
    private(set) var weakAliases: [String: AbsolutePosition] = [:]
    private(set) var strongAliases: [String: AbsolutePosition] = [:]
    private(set) var locals: Set<String> = []
    /// Local → the property it is stored in (`self.timer = timer`).
    private(set) var storedOnSelf: [String: String] = [:]
    /// Local → the property it was read from (`let t = self.timer`, `guard let t = timer`, `if let link = link`):
    /// a stop of the local stops the property's timer.
    private(set) var aliasOf: [String: String] = [:]

    private func noteAlias(_ name: String, of value: ExprSyntax?) {
        guard let value else { return }
        var text = SwiftNames.unwrapped(value).trimmedText
        for prefix in ["self?.", "self!.", "self."] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        guard !text.isEmpty, text != name, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
            properties[text] != nil || SwiftNames.unwrapped(value).trimmedText.hasPrefix("self")
        else { return }
        aliasOf[name] = text
    }
    private let properties: [String: SwiftTypeIndex.Property]

    init(_ scope: Syntax, properties: [String: SwiftTypeIndex.Property]) {
        self.properties = properties
        super.init(viewMode: .sourceAccurate)
        walk(scope)
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let isWeak = node.modifiers.contains { ["weak", "unowned"].contains($0.name.text) }
        for binding in node.bindings {
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
            let name = pattern.identifier.text
            locals.insert(name)
            noteAlias(name, of: binding.initializer?.value)
            guard let value = binding.initializer?.value else { continue }
            let text = SwiftNames.unwrapped(value).trimmedText
            if text == "self" {
                if isWeak { weakAliases[name] = node.position } else { strongAliases[name] = node.position }
            } else if !isWeak, weakAliases[text] != nil {
                strongAliases[name] = node.position
            }
        }
        return .visitChildren
    }

    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        guard let pattern = node.pattern.as(IdentifierPatternSyntax.self) else { return .visitChildren }
        let name = pattern.identifier.text
        noteAlias(name, of: node.initializer?.value)
        let value = node.initializer.map { SwiftNames.unwrapped($0.value).trimmedText } ?? name
        if name != "self", value == "self" || weakAliases[value] != nil {
            strongAliases[name] = node.position
        }
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let (left, right) = SwiftNames.assignment(node) {
            let target = left.trimmedText
            if target.hasPrefix("self.") || (properties[target] != nil && !locals.contains(target)) {
                storedOnSelf[right.trimmedText] = SwiftNames.storage(left)
            }
        }
        return .visitChildren
    }
}
