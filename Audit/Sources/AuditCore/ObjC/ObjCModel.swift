/// What the analyzer knows about one Objective-C class from the file's `@interface`s and
/// `@implementation`.
struct ObjCClass {
    struct Property {
        var type: String
        /// `weak`, `assign` or `unsafe_unretained`: the property does not retain.
        var isWeak: Bool
    }

    var superclass: String?
    /// An `@interface` or `@implementation` of it is in the file (not only a category).
    var declared = false
    /// An app delegate: it lives for the whole process.
    var livesForProcess = false
    /// A class method whose `dispatch_once` makes an instance of the class (`+sharedInstance`).
    var hasSharedInstance = false
    /// Keys of the methods a header's `@interface` declares: public API.
    var publicMethods: Set<String> = []
    /// The selectors of its methods (`stopAnimating`, `setTimer:`).
    var methods: Set<String> = []
    var properties: [String: Property] = [:]
    /// Instance variables as written, `_timer`.
    var ivars: Set<String> = []

    /// Every name that reads an instance variable without `self.`: declared ivars and synthesized `_name`s.
    var ivarNames: Set<String> {
        ivars.union(properties.keys.map { "_" + $0 })
    }
}

/// A method or function body.
struct ObjCMethod {
    var className: String?
    var isClassMethod: Bool
    var name: String
    var body: Int
    var bodyEnd: Int
    /// The parameter names (`animated` in `- (void)viewWillDisappear:(BOOL)animated`).
    var parameters: Set<String> = []

    var isDealloc: Bool { name == "dealloc" }

    /// Methods UIKit and AppKit call when a view, controller, cell, window or app appears, goes away or moves.
    static let lifecycleNames: Set<String> = [
        "viewWillDisappear:", "viewDidDisappear:", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear",
        "viewDidDisappear", "viewWillAppear", "viewDidAppear", "willMoveToWindow:", "willMoveToSuperview:",
        "removeFromSuperview", "didMoveToWindow", "didMoveToSuperview", "willMoveToParentViewController:",
        "didMoveToParentViewController:", "viewWillMoveToWindow:", "viewDidMoveToWindow", "viewWillMoveToSuperview:",
        "viewDidMoveToSuperview", "viewDidHide", "prepareForReuse", "windowWillClose:", "applicationWillTerminate:",
        "applicationDidEnterBackground:", "applicationWillResignActive:", "sceneDidEnterBackground:",
        "sceneDidDisconnect:",
    ]
}

/// A local variable of a method body.
struct ObjCLocal {
    var name: String
    var typeName: String?
    var isWeak: Bool
    /// The `=` of its declaration.
    var declaration: Int
    /// The initial value, joined: `self`, `weakSelf`.
    var initialValue: String
}
