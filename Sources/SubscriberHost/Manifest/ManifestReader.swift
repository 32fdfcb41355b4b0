import SubscriberDelivery
import SubscriberKit

/// Reads the sections of a manifest document into a ``Manifest``, one function per section, each
/// throwing a shape error at the exact key path.
enum ManifestReader {
    static func read(_ json: JSONValue, file: String, directory: String) throws(JSONShapeError) -> Manifest {
        var root = try JSONObjectReader(json, path: "")
        let profile = try root.value("profile").map { (value) throws(JSONShapeError) in try PeerProfile(json: value, path: "profile") }
        let app = try readApp(&root)
        let orientations = try readOrientations(root.value("supportedInterfaceOrientations"))
        let (deadlines, defaultDeadline) = try readDeadlines(root.value("deadlines"))
        let reconcilers = try readReconcilers(root.value("reconcilers"))
        let searchPaths = try readSearchPaths(root.strings("pluginSearchPaths") ?? [])
        let restorationFromEveryCaller = try root.bool("restorationFromEveryCaller")
        let isolationDefaults = try IsolationKeys.read(&root)
        let plugins = try readPlugins(root.array("plugins") ?? [], isolationDefaults: isolationDefaults)
        let sceneBridge = try root.bool("sceneBridge")
        let dispatchRules = try DispatchRulesReader.read(&root, over: (profile ?? .uikit).rules.dispatch)
        let terminationDeadline = try LiveManifestKeys.terminationDeadline(&root)  // Manifest+Live.swift
        let sceneBased = try LiveManifestKeys.sceneBased(&root)
        try checkOrder(plugins)
        if let problem = Manifest.isolationGroupProblem(plugins) { throw problem }
        try root.rejectUnknownKeys()
        var manifest = Manifest(file: file, directory: directory, app: app, supportedInterfaceOrientations: orientations,
                                deadlines: deadlines, defaultDeadline: defaultDeadline, profile: profile ?? .uikit,
                                reconcilers: reconcilers, pluginSearchPaths: searchPaths, plugins: plugins,
                                sceneBridge: sceneBridge, restorationFromEveryCaller: restorationFromEveryCaller)
        manifest.rules.dispatch = dispatchRules
        manifest.terminationDeadline = terminationDeadline
        manifest.sceneBased = sceneBased ?? false
        return manifest
    }

    // MARK: app

    private static func readApp(_ root: inout JSONObjectReader) throws(JSONShapeError) -> Application {
        guard let value = root.value("app") else {
            throw JSONShapeError(path: "app", expected: "an object with name and bundleIdentifier", found: "nothing")
        }
        var app = try JSONObjectReader(value, path: "app")
        let name = try app.requiredString("name")
        let bundleIdentifier = try app.requiredString("bundleIdentifier")
        let version = try app.string("version") ?? "1.0"
        for (key, text) in [("name", name), ("bundleIdentifier", bundleIdentifier), ("version", version)] where text.isEmpty {
            throw JSONShapeError(path: app.path(of: key), expected: "a non-empty string", found: "an empty string")
        }
        try app.rejectUnknownKeys()
        return Application(name: name, bundleIdentifier: bundleIdentifier, version: version)
    }

    // MARK: supportedInterfaceOrientations

    /// Info.plist suffix keys, read as the idiom they select.
    private static let plistIdiomKeys: [String: UserInterfaceIdiom] = ["~ipad": .pad, "~iphone": .phone]

    private static func readOrientations(_ value: JSONValue?) throws(JSONShapeError)
        -> [UserInterfaceIdiom: InterfaceOrientationMask]
    {
        guard let value else { return [:] }
        let section = try JSONObjectReader(value, path: "supportedInterfaceOrientations")
        var result: [UserInterfaceIdiom: InterfaceOrientationMask] = [:]
        var keyOf: [UserInterfaceIdiom: String] = [:]
        for (key, element) in section.object.members {
            let path = section.path(of: key)
            guard let idiom = plistIdiomKeys[key] ?? UserInterfaceIdiom(name: key), idiom != .unspecified else {
                let idioms = UserInterfaceIdiom.allCases.filter { $0 != .unspecified }.map(\.name)
                throw JSONShapeError(path: path, expected: "an idiom (\((idioms + ["~ipad", "~iphone"]).joined(separator: ", ")))",
                                     found: "an unknown key")
            }
            if let previous = keyOf[idiom] {
                throw JSONShapeError(path: path, expected: "one entry per idiom",
                                     found: "a second entry for \(idiom.name) (first: \(previous))")
            }
            keyOf[idiom] = key
            result[idiom] = try readMask(element, path: path)
        }
        return result
    }

    private static func readMask(_ value: JSONValue, path: String) throws(JSONShapeError) -> InterfaceOrientationMask {
        guard case .array(let elements) = value else {
            throw JSONShapeError(path: path, expected: "an array of orientation names", found: value.shapeDescription)
        }
        if elements.isEmpty {
            throw JSONShapeError(path: path, expected: "at least one orientation", found: "an empty array")
        }
        var mask: InterfaceOrientationMask = []
        for (index, element) in elements.enumerated() {
            let known = InterfaceOrientationMask.named.map(\.name)
            guard case .string(let name) = element,
                  let match = InterfaceOrientationMask.named.first(where: { $0.name == plainOrientationName(name) })
            else {
                throw JSONShapeError(path: "\(path)[\(index)]", expected: "one of \(known.joined(separator: ", "))",
                                     found: element.shapeDescription)
            }
            mask.insert(match.mask)
        }
        return mask
    }

    /// `UIInterfaceOrientationLandscapeLeft` (Info.plist) → `landscapeLeft`; other names unchanged.
    private static func plainOrientationName(_ name: String) -> String {
        let prefix = "UIInterfaceOrientation"
        guard name.hasPrefix(prefix), name.count > prefix.count else { return name }
        let rest = name.dropFirst(prefix.count)
        return rest.prefix(1).lowercased() + rest.dropFirst()
    }

    // MARK: deadlines

    private static func readDeadlines(_ value: JSONValue?) throws(JSONShapeError)
        -> (perEvent: [LifecycleEvent: Int], default: Int?)
    {
        guard let value else { return ([:], nil) }
        let section = try JSONObjectReader(value, path: "deadlines")
        var perEvent: [LifecycleEvent: Int] = [:]
        var fallback: Int?
        let completionEvents = LifecycleEvent.allCases.filter(\.answersThroughCompletion).map(\.name)
        for (key, element) in section.object.members {
            let path = section.path(of: key)
            let event = LifecycleEvent(rawValue: key)
            if key != "default", event?.answersThroughCompletion != true {
                throw JSONShapeError(path: path,
                                     expected: "\"default\" or an event answered through a completion (\(completionEvents.joined(separator: ", ")))",
                                     found: event == nil ? "an unknown key" : "an event without a completion")
            }
            // The whole numbers a JSON number holds exactly (``JSONValue/intValue``: below 9e15).
            guard let milliseconds = element.intValue, milliseconds > 0 else {
                throw JSONShapeError(path: path, expected: "a whole number of milliseconds from 1 to 8999999999999999",
                                     found: element.shapeDescription)
            }
            if let event { perEvent[event] = milliseconds } else { fallback = milliseconds }
        }
        return (perEvent, fallback)
    }

    // MARK: reconcilers

    private static func readReconcilers(_ value: JSONValue?) throws(JSONShapeError) -> [LifecycleEvent: ReconcilerChoice] {
        guard let value else { return [:] }
        let section = try JSONObjectReader(value, path: "reconcilers")
        var result: [LifecycleEvent: ReconcilerChoice] = [:]
        for (key, element) in section.object.members {
            let path = section.path(of: key)
            guard let event = LifecycleEvent(rawValue: key) else {
                throw JSONShapeError(path: path, expected: "an event's wire name (didFinishLaunching, openURL, …)",
                                     found: "an unknown key")
            }
            // The dispatcher's own rule decides whether the choice fits the event's answer type.
            let choice = try ReconcilerChoice(json: element, path: path)
            do {
                try event.check(choice)
            } catch {
                throw JSONShapeError(path: error.element.map { "\(path)[\($0)]" } ?? path, expected: error.expected,
                                     found: error.found)
            }
            result[event] = choice
        }
        return result
    }

    // MARK: pluginSearchPaths

    /// Each `library` entry may look in every search folder: the count is bounded, so that loading
    /// stays linear in the manifest's size.
    static let maximumSearchPathCount = 256

    private static func readSearchPaths(_ paths: [String]) throws(JSONShapeError) -> [String] {
        if paths.count > maximumSearchPathCount {
            throw JSONShapeError(path: "pluginSearchPaths", expected: "at most \(maximumSearchPathCount) directories",
                                 found: "\(paths.count)")
        }
        for (index, path) in paths.enumerated() {
            if path.isEmpty {
                throw JSONShapeError(path: "pluginSearchPaths[\(index)]", expected: "a directory path", found: "an empty string")
            }
            try ManifestText.checkPlain(path, as: "a directory path", at: "pluginSearchPaths[\(index)]")
        }
        return paths
    }

    // MARK: plugins

    private static func readPlugins(_ elements: [JSONValue], isolationDefaults: IsolationKeys) throws(JSONShapeError)
        -> [ManifestPlugin]
    {
        var plugins: [ManifestPlugin] = []
        var listed: Set<String> = []  // every subscriber name listed so far: one hash lookup per name
        for (index, element) in elements.enumerated() {
            let plugin = try ManifestPlugin(json: element, index: index, isolationDefaults: isolationDefaults)
            let needed = listed.count + plugin.subscribers.count
            if needed > listed.capacity { listed.reserveCapacity(max(needed, 2 * listed.capacity)) }  // geometric growth
            for (position, name) in plugin.subscribers.enumerated() where !listed.insert(name).inserted {
                throw repeatedName(name, at: position, in: plugin, earlier: plugins)
            }
            plugins.append(plugin)
        }
        return plugins
    }

    /// A cycle among the `after`/`before` constraints of the subscribers the entries list by name:
    /// a manifest error, found before anything is loaded. Names the manifest does not list (a
    /// plugin's undeclared subscribers, the app's in-process ones) are checked once loaded (``PluginHost``).
    private static func checkOrder(_ plugins: [ManifestPlugin]) throws(JSONShapeError) {
        var nodes: [DispatchOrder.Node] = []
        var entries: [Int] = []  // each node's entry
        for (entry, plugin) in plugins.enumerated() {
            for name in plugin.subscribers {
                nodes.append(DispatchOrder.Node(name: name, priority: plugin.priority, after: plugin.after, before: plugin.before))
                entries.append(entry)
            }
        }
        do {
            _ = try DispatchOrder.order(nodes) { _, _ in false }
        } catch {
            throw JSONShapeError(path: "\(plugins[entries[error.index]].keyPath).\(error.key)", expected: error.expected,
                                 found: error.found)
        }
    }

    /// The error for `name`, at `position` in `plugin`'s list, already listed before: in the same
    /// list or by an earlier entry. Looks for the first listing once, when it is an error.
    private static func repeatedName(_ name: String, at position: Int, in plugin: ManifestPlugin,
                                     earlier: [ManifestPlugin]) -> JSONShapeError {
        let here = "\(plugin.subscriberListPath)[\(position)]"
        let shown = ManifestText.quoted(name)
        if let first = plugin.subscribers[..<position].firstIndex(of: name) {
            return JSONShapeError(path: here, expected: "a subscriber name not listed before",
                                  found: "\(shown) again (first at \(plugin.subscriberListPath)[\(first)])")
        }
        for other in earlier {
            if let first = other.subscribers.firstIndex(of: name) {
                return JSONShapeError(path: here, expected: "a subscriber name no other plugin entry lists",
                                      found: "\(shown), already listed at \(other.subscriberListPath)[\(first)]")
            }
        }
        return JSONShapeError(path: here, expected: "a subscriber name not listed before", found: "\(shown) again")
    }
}
