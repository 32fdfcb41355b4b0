import Foundation
import SubscriberABI
import SubscriberValues

/// The scene a scene event names, as its call carries it: the identifier the script or the app gave,
/// and what the host completes before delivery — the role the scene connected with and its
/// activation state during the call (``ArgumentShape/value(_:naming:)``).
package struct SceneReference: Sendable, Hashable {
    /// The session's persistent identifier ("main").
    package var identifier: String
    /// The session's role; nil: the one it connected with (the host fills it in), else the default.
    package var role: String?
    /// The activation state during the call.
    package var state: SceneState

    package init(identifier: String, role: String? = nil, state: SceneState = .unattached) {
        self.identifier = identifier
        self.role = role
        self.state = state
    }

    /// The scene's session.
    package var session: SceneSession {
        SceneSession(persistentIdentifier: identifier, role: role ?? SceneSession.windowApplicationRole)
    }

    /// The scene as a subscriber receives it, in `application`.
    package func scene(in application: Application) -> Scene {
        Scene(session: session, activationState: state, application: application)
    }

    /// The scene the conformance kit's ordinary calls name.
    package static let canonical = SceneReference(identifier: "main")
}

extension JSONObjectReader {
    /// The scene an event-script line names: its `"scene"` key, a non-empty identifier.
    package mutating func sceneReference() throws(JSONShapeError) -> SceneReference {
        let identifier = try requiredString("scene")
        guard !identifier.isEmpty else {
            throw JSONShapeError(path: path(of: "scene"), expected: "a scene identifier", found: "an empty string")
        }
        return SceneReference(identifier: identifier)
    }
}

/// A scene event's arguments: the scene and the other arguments (``SceneScoped``'s value).
///
/// Outside ``SceneScoped`` and without requirements on `InnerValue`, on purpose: a type nested in a
/// generic type with requirements is made from its mangled name by checking them, a conformance
/// lookup that scans every loaded image, once per plugin image (1,000 plugins took 25 s to load).
package struct SceneScopedValue<InnerValue> {
    package var scene: SceneReference
    package var inner: InnerValue

    package init(scene: SceneReference, inner: InnerValue) {
        self.scene = scene
        self.inner = inner
    }
}

extension SceneScopedValue: Sendable where InnerValue: Sendable {}
extension SceneScopedValue: Equatable where InnerValue: Equatable {}
extension SceneScopedValue: Hashable where InnerValue: Hashable {}

/// The shape of a scene event whose other arguments are those of an app-level shape `Inner`: the
/// scene under the script key `scene`, then `Inner`'s keys; in C an `adh_scene` then `Inner`'s C
/// arguments. `SceneScoped<NoArguments>` is a transition (`scene.didBecomeActive`),
/// `SceneScoped<UserActivityArguments>` is `scene.continueUserActivity`, and so on: each scene event
/// reads, writes, encodes and fuzzes its arguments as the app-level event of the same arguments does.
///
/// Its conformance is conditional and the type itself has no requirement, on purpose, as for
/// ``SceneScopedValue``: the table names `SceneScoped<URLContextsArgument>` in code that is not
/// generic, where the runtime makes the type from its mangled name and would check a requirement
/// by scanning the conformance records of every loaded image: about 200,000 instructions per scene
/// row in `apphost` at every start, 400,000 per scene event a plugin adopts, growing with the
/// number of images loaded.
package enum SceneScoped<Inner>: Sendable {}

extension SceneScoped: ArgumentShape where Inner: ArgumentShape {
    /// The scene and the other arguments.
    package typealias Value = SceneScopedValue<Inner.Value>

    package typealias Spec = Inner.Spec
    package typealias Encoded = (scene: EncodedPayload<adh_scene>, inner: Inner.Encoded)
    package typealias CArguments = (UnsafePointer<adh_scene>?, Inner.CArguments)

    package static func read(_ reader: inout JSONObjectReader, spec: Spec) throws(JSONShapeError) -> Value {
        let scene = try reader.sceneReference()
        return Value(scene: scene, inner: try Inner.read(&reader, spec: spec))
    }

    package static func write(_ value: Value, spec: Spec, into object: inout JSONObject) {
        object["scene"] = .string(value.scene.identifier)
        Inner.write(value.inner, spec: spec, into: &object)
    }

    /// The scene, then what the inner arguments say: `main news://article/7`.
    package static func summary(_ value: Value) -> String? {
        [value.scene.identifier, Inner.summary(value.inner)].compactMap { $0 }.joined(separator: " ")
    }

    package static func encode(_ value: Value, _ context: EncodingContext) -> Encoded {
        (EncodedPayload { $0.scene(value.scene, serial: context.serial) }, Inner.encode(value.inner, context))
    }

    package static func cArguments(_ encoded: Encoded) -> CArguments {
        (encoded.scene.pointer, Inner.cArguments(encoded.inner))
    }

    package static func decode(_ arguments: CArguments, problems: inout [String]) -> Value? {
        guard let scene = SceneReference(abi: arguments.0, problems: &problems),
              let inner = Inner.decode(arguments.1, problems: &problems) else { return nil }
        return Value(scene: scene, inner: inner)
    }

    /// The scene's serial: one per dispatched event, whatever the inner arguments carry.
    package static func serial(of arguments: CArguments) -> UInt64 {
        arguments.0.map { ABI.serial($0) } ?? 0
    }

    package static func update(_ application: inout Application, from arguments: CArguments) {
        Inner.update(&application, from: arguments.1)
    }

    package static var updatesApplication: Bool { Inner.updatesApplication }
    package static func launchInvocation(of value: Value) -> LaunchInvocation? { Inner.launchInvocation(of: value.inner) }
    package static var readsLaunchInvocation: Bool { Inner.readsLaunchInvocation }

    package static func scene(of value: Value) -> SceneReference? { value.scene }

    package static func value(_ value: Value, naming scene: SceneReference) -> Value {
        Value(scene: scene, inner: value.inner)
    }

    package static func canonical(spec: Spec) -> [Value] {
        Inner.canonical(spec: spec).map { Value(scene: .canonical, inner: $0) }
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Spec, serial: UInt64) -> Encoded {
        let scene = EncodedPayload { $0.fuzzedScene(&draw, serial: serial) }
        return (scene, Inner.fuzzed(&draw, spec: spec, serial: serial))
    }
}

/// The shape of `scene.willConnect`: the scene (`scene`), its session's role (`role`, default
/// UIWindowSceneSessionRoleApplication) and its connection options (`options`: {urlContexts,
/// userActivity, shortcutItem, notificationResponse}); in C an `adh_scene` and an
/// `adh_scene_connection_options`. The options also tell how the app was launched (docs/events.md).
package enum SceneConnectionArguments: ArgumentShape {
    /// The scene, with the role it connects with (nil: the default), and its options.
    package struct Value: Sendable, Hashable {
        package var scene: SceneReference
        package var options: SceneConnectionOptions

        package init(scene: SceneReference, options: SceneConnectionOptions) {
            self.scene = scene
            self.options = options
        }
    }

    package typealias Encoded = (scene: EncodedPayload<adh_scene>, options: EncodedConnectionOptions)

    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> Value {
        var scene = try reader.sceneReference()
        if let role = try reader.string("role") {
            guard !role.isEmpty else {
                throw JSONShapeError(path: reader.path(of: "role"), expected: "a scene session role such as \(SceneSession.windowApplicationRole)",
                                     found: "an empty string")
            }
            scene.role = role
        }
        let options = try reader.value("options").map { (value) throws(JSONShapeError) in
            try SceneConnectionOptions(json: value, path: reader.path(of: "options"))
        } ?? SceneConnectionOptions()
        return Value(scene: scene, options: options)
    }

    package static func write(_ value: Value, spec: Void, into object: inout JSONObject) {
        object["scene"] = .string(value.scene.identifier)
        if let role = value.scene.role { object["role"] = .string(role) }
        if !value.options.isEmpty { object["options"] = .object(value.options.json) }
    }

    /// The scene, a role other than the default, and what the options carry.
    package static func summary(_ value: Value) -> String? {
        var words = [value.scene.identifier]
        if let role = value.scene.role, role != SceneSession.windowApplicationRole { words.append(role) }
        let options = value.options
        words += options.urlContexts.map(\.url.absoluteString)
        if let activity = options.userActivity { words.append(UserActivityArguments.summary(activity) ?? activity.activityType) }
        if let item = options.shortcutItem { words.append(item.type) }
        if let response = options.notificationResponse { words.append(response.notification.identifier) }
        return words.joined(separator: " ")
    }

    package static func launchInvocation(of value: Value) -> LaunchInvocation? { LaunchInvocation(classifying: value.options) }
    // The host may classify the launch from these options: the SDK asks it again.
    package static var readsLaunchInvocation: Bool { true }

    package static func scene(of value: Value) -> SceneReference? { value.scene }

    package static func value(_ value: Value, naming scene: SceneReference) -> Value {
        Value(scene: scene, options: value.options)
    }

    package static func encode(_ value: Value, _ context: EncodingContext) -> Encoded {
        (EncodedPayload { $0.scene(value.scene, serial: context.serial) },
         EncodedConnectionOptions(value.options, context))
    }

    package static func cArguments(_ encoded: Encoded) -> (UnsafePointer<adh_scene>?, UnsafePointer<adh_scene_connection_options>?) {
        (encoded.scene.pointer, encoded.options.payload.pointer)
    }

    /// NULL options read as none (a plain connection).
    package static func decode(_ arguments: (UnsafePointer<adh_scene>?, UnsafePointer<adh_scene_connection_options>?),
                               problems: inout [String]) -> Value? {
        guard let scene = SceneReference(abi: arguments.0, problems: &problems) else { return nil }
        guard let pointer = arguments.1 else { return Value(scene: scene, options: SceneConnectionOptions()) }
        let payload = ABI.readCovered(pointer)
        var options = SceneConnectionOptions()
        options.urlContexts = URLContextsArgument.decodeContexts(payload.url_contexts, payload.url_context_count,
                                                                 what: "connection options", problems: &problems) ?? []
        options.userActivity = payload.user_activity.map { UserActivity(abi: ABI.readCovered($0), problems: &problems) }
        options.shortcutItem = payload.shortcut_item.map { ShortcutItem(abi: ABI.readCovered($0), problems: &problems) }
        if let response = payload.notification_response {
            options.notificationResponse = NotificationResponseArguments.decode(response, problems: &problems)
        }
        return Value(scene: scene, options: options)
    }

    package static func serial(of arguments: (UnsafePointer<adh_scene>?, UnsafePointer<adh_scene_connection_options>?)) -> UInt64 {
        arguments.0.map { ABI.serial($0) } ?? 0
    }

    package static func canonical(spec: Void) -> [Value] {
        let article = URL(string: "https://news.example.com/article/42")!
        let notification = UserNotification(identifier: "breaking-42", userInfo: ["articles": [42]], categoryIdentifier: "article")
        return [
            Value(scene: .canonical, options: SceneConnectionOptions()),
            Value(scene: .canonical, options: SceneConnectionOptions(urlContexts: [
                OpenURLContext(url: URL(string: "news://article/42")!, options: OpenURLOptions(sourceApplication: "com.example.mail")),
            ])),
            Value(scene: .canonical, options: SceneConnectionOptions(
                userActivity: UserActivity(activityType: UserActivity.browsingWeb, webpageURL: article))),
            Value(scene: .canonical, options: SceneConnectionOptions(shortcutItem: ShortcutItem(type: "com.example.news.search", title: "Search"))),
            Value(scene: .canonical, options: SceneConnectionOptions(notificationResponse: NotificationResponse(notification: notification))),
            Value(scene: SceneReference(identifier: "external", role: SceneSession.windowExternalDisplayNonInteractiveRole),
                  options: SceneConnectionOptions()),
        ]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> Encoded {
        let scene = EncodedPayload { $0.fuzzedScene(&draw, serial: serial) }
        return (scene, EncodedConnectionOptions(fuzzing: &draw, serial: serial))
    }
}

/// The shape of `scene.openURLContexts`' URLs: a non-empty list of URL contexts under the script
/// key `urlContexts` ([{"url", "options"?}]); in C an array of `adh_open_url` pointers and its count.
package enum URLContextsArgument: ArgumentShape {
    /// How many URL contexts one call may carry; a C count past it cannot be right.
    package static let maximumCount = 100_000

    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> [OpenURLContext] {
        try reader.urlContexts("urlContexts", required: true)
    }

    package static func write(_ value: [OpenURLContext], spec: Void, into object: inout JSONObject) {
        object["urlContexts"] = .array(value.map { .object($0.json) })
    }

    package static func summary(_ value: [OpenURLContext]) -> String? {
        value.map(\.url.absoluteString).joined(separator: " ")
    }

    package static func encode(_ value: [OpenURLContext], _ context: EncodingContext) -> EncodedURLContexts {
        EncodedURLContexts(value.map { context in
            EncodedPayload { $0.openURL(url: context.url, options: context.options, serial: 0) }
        })
    }

    package static func cArguments(_ encoded: EncodedURLContexts) -> (UnsafePointer<UnsafePointer<adh_open_url>?>?, Int) {
        (encoded.pointers, encoded.count)
    }

    /// The contexts whose URL can be read; nil (not delivered) when none can.
    package static func decode(_ arguments: (UnsafePointer<UnsafePointer<adh_open_url>?>?, Int),
                               problems: inout [String]) -> [OpenURLContext]? {
        guard let contexts = decodeContexts(arguments.0, arguments.1, what: "scene.openURLContexts", problems: &problems),
              !contexts.isEmpty else {
            problems.append("scene.openURLContexts: expected at least one URL context with an absolute URL, found none; not delivered (no opinion)")
            return nil
        }
        return contexts
    }

    /// The contexts of a C array of `count` `adh_open_url` pointers, those that can be read; a NULL
    /// element or a URL that is not absolute is named in `problems` and left out. Nil for an array
    /// that cannot be right (NULL with a count, a count past ``maximumCount``).
    package static func decodeContexts(_ pointers: UnsafePointer<UnsafePointer<adh_open_url>?>?, _ count: Int, what: String,
                                       problems: inout [String]) -> [OpenURLContext]? {
        guard count > 0 else { return [] }
        guard count <= maximumCount else {
            problems.append("\(what): expected at most \(maximumCount) URL contexts, found \(count); read as none")
            return nil
        }
        guard let pointers else {
            problems.append("\(what): expected \(count) URL contexts, found a NULL array; read as none")
            return nil
        }
        var contexts: [OpenURLContext] = []
        for index in 0..<count {
            guard let pointer = pointers[index] else {
                problems.append("\(what): URL context \(index) is NULL; left out")
                continue
            }
            if let value = OpenURLArguments.decode(ABI.readCovered(pointer), what: "\(what) URL context \(index)", problems: &problems) {
                contexts.append(OpenURLContext(url: value.url, options: value.options))
            }
        }
        return contexts
    }

    package static func canonical(spec: Void) -> [[OpenURLContext]] {
        [[OpenURLContext(url: URL(string: "news://article/42")!)],
         [OpenURLContext(url: URL(string: "https://news.example.com/article/42")!,
                         options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari")),
          OpenURLContext(url: URL(string: "news://article/7")!, options: OpenURLOptions(openInPlace: true))]]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> EncodedURLContexts {
        let count = draw.pick("urlContexts.count", [1, 2, 3])
        var payloads: [EncodedPayload<adh_open_url>] = []
        for _ in 0..<count { payloads.append(OpenURLArguments.fuzzed(&draw, spec: (), serial: serial)) }
        return EncodedURLContexts(payloads)
    }
}

/// The shape of `scene.didUpdateGeometry`'s geometry: `orientation` (required) and `idiom` (default
/// phone); in C an `adh_scene_geometry`.
package enum GeometryArgument: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> SceneGeometry {
        let name = try reader.requiredString("orientation")
        guard let orientation = InterfaceOrientation(name: name) else {
            let names = InterfaceOrientation.allCases.map(\.name).joined(separator: ", ")
            throw JSONShapeError(path: reader.path(of: "orientation"), expected: "one of \(names)",
                                 found: JSONValue.string(name).shapeDescription)
        }
        return SceneGeometry(interfaceOrientation: orientation, idiom: try IdiomArgument.read(&reader, spec: ()))
    }

    package static func write(_ value: SceneGeometry, spec: Void, into object: inout JSONObject) {
        object["orientation"] = .string(value.interfaceOrientation.name)
        object["idiom"] = .string(value.idiom.name)
    }

    package static func summary(_ value: SceneGeometry) -> String? { "\(value.interfaceOrientation) \(value.idiom)" }

    package static func encode(_ value: SceneGeometry, _ context: EncodingContext) -> EncodedPayload<adh_scene_geometry> {
        EncodedPayload { _ in
            adh_scene_geometry(struct_size: UInt32(MemoryLayout<adh_scene_geometry>.size), serial: context.serial,
                               interface_orientation: value.interfaceOrientation.rawValue, idiom: value.idiom.rawValue)
        }
    }

    package static func cArguments(_ encoded: EncodedPayload<adh_scene_geometry>) -> UnsafePointer<adh_scene_geometry>? {
        encoded.pointer
    }

    package static func decode(_ arguments: UnsafePointer<adh_scene_geometry>?, problems: inout [String]) -> SceneGeometry? {
        guard let arguments else {
            problems.append("scene geometry: expected an adh_scene_geometry, found NULL; not delivered")
            return nil
        }
        let payload = ABI.readCovered(arguments)
        let orientation = InterfaceOrientation(rawValue: payload.interface_orientation)
        if orientation == nil {
            problems.append("scene geometry: expected an ADH_INTERFACE_ORIENTATION_* value, found \(payload.interface_orientation); read as unknown")
        }
        return SceneGeometry(interfaceOrientation: orientation ?? .unknown,
                             idiom: UserInterfaceIdiom(rawValue: payload.idiom) ?? .unspecified)
    }

    package static func canonical(spec: Void) -> [SceneGeometry] {
        [SceneGeometry(interfaceOrientation: .portrait, idiom: .phone),
         SceneGeometry(interfaceOrientation: .landscapeLeft, idiom: .pad)]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> EncodedPayload<adh_scene_geometry> {
        let orientation = draw.raw32("orientation", known: InterfaceOrientation.allCases.map(\.rawValue))
        let idiom = draw.raw32("idiom", known: UserInterfaceIdiom.allCases.map(\.rawValue))
        return EncodedPayload { _ in
            adh_scene_geometry(struct_size: UInt32(MemoryLayout<adh_scene_geometry>.size), serial: serial,
                               interface_orientation: orientation, idiom: idiom)
        }
    }
}

/// URL contexts as C reads them: each an `adh_open_url`, and an array of pointers to them, all
/// valid as long as this lives.
package final class EncodedURLContexts: @unchecked Sendable {
    // @unchecked: immutable after init; the memory is only read.
    private let payloads: [EncodedPayload<adh_open_url>]
    private let storage: UnsafeMutablePointer<UnsafePointer<adh_open_url>?>?
    /// The array, NULL when there are none.
    package var pointers: UnsafePointer<UnsafePointer<adh_open_url>?>? { storage.map { UnsafePointer($0) } }
    /// How many.
    package var count: Int { payloads.count }

    package init(_ payloads: [EncodedPayload<adh_open_url>]) {
        self.payloads = payloads
        guard !payloads.isEmpty else {
            storage = nil
            return
        }
        let storage = UnsafeMutablePointer<UnsafePointer<adh_open_url>?>.allocate(capacity: payloads.count)
        storage.initialize(from: payloads.map(\.pointer), count: payloads.count)
        self.storage = storage
    }

    deinit {
        storage?.deinitialize(count: payloads.count).deallocate()
    }
}

/// Connection options as C reads them: an `adh_scene_connection_options` and everything it points
/// to, valid as long as this lives.
package final class EncodedConnectionOptions: @unchecked Sendable {
    // @unchecked: immutable after init; the memory is only read.
    private let contexts: EncodedURLContexts
    private let activity: EncodedPayload<adh_user_activity>?
    private let item: EncodedPayload<adh_shortcut_item>?
    private let response: NotificationResponseArguments.Encoded?
    /// The struct.
    package let payload: EncodedPayload<adh_scene_connection_options>

    private init(contexts: EncodedURLContexts, activity: EncodedPayload<adh_user_activity>?,
                 item: EncodedPayload<adh_shortcut_item>?, response: NotificationResponseArguments.Encoded?, serial: UInt64) {
        self.contexts = contexts
        self.activity = activity
        self.item = item
        self.response = response
        payload = EncodedPayload { _ in
            adh_scene_connection_options(
                struct_size: UInt32(MemoryLayout<adh_scene_connection_options>.size), serial: serial,
                url_contexts: contexts.pointers, url_context_count: contexts.count, user_activity: activity?.pointer,
                shortcut_item: item?.pointer, notification_response: response.flatMap(NotificationResponseArguments.cArguments))
        }
    }

    /// `options` encoded with `context`'s serial.
    package convenience init(_ options: SceneConnectionOptions, _ context: EncodingContext) {
        let serial = context.serial
        self.init(contexts: URLContextsArgument.encode(options.urlContexts, context),
                  activity: options.userActivity.map { activity in EncodedPayload { $0.userActivity(activity, serial: serial) } },
                  item: options.shortcutItem.map { item in EncodedPayload { $0.shortcutItem(item, serial: serial) } },
                  response: options.notificationResponse.map { NotificationResponseArguments.encode($0, context) },
                  serial: serial)
    }

    /// Hostile options drawn from `draw`: each part present or not, each present one hostile.
    package convenience init(fuzzing draw: inout some FuzzDraw, serial: UInt64) {
        let contexts = draw.pick("options.urlContexts", [false, true])
            ? URLContextsArgument.fuzzed(&draw, spec: (), serial: serial) : EncodedURLContexts([])
        let activity: EncodedPayload<adh_user_activity>? = draw.pick("options.userActivity", [false, true])
            ? EncodedPayload { $0.fuzzedUserActivity(&draw, serial: serial) } : nil
        let item: EncodedPayload<adh_shortcut_item>? = draw.pick("options.shortcutItem", [false, true])
            ? EncodedPayload { $0.fuzzedShortcutItem(&draw, serial: serial) } : nil
        let response = draw.pick("options.notificationResponse", [false, true])
            ? NotificationResponseArguments.fuzzed(&draw, spec: (), serial: serial) : nil
        self.init(contexts: contexts, activity: activity, item: item, response: response, serial: serial)
    }
}

extension PayloadStorage {
    /// `scene` as an `adh_scene` whose strings live in this storage; the role it names, else the default.
    package mutating func scene(_ scene: SceneReference, serial: UInt64) -> adh_scene {
        adh_scene(struct_size: UInt32(MemoryLayout<adh_scene>.size), serial: serial, identifier: string(scene.identifier),
                  role: string(scene.role ?? SceneSession.windowApplicationRole), activation_state: scene.state.rawValue)
    }

    /// A hostile `adh_scene` drawn from `draw`.
    package mutating func fuzzedScene(_ draw: inout some FuzzDraw, serial: UInt64) -> adh_scene {
        let identifier = draw.text("scene", url: false), role = draw.text("role", url: false)
        let state = draw.raw32("activationState", known: SceneState.allCases.map(\.rawValue))
        return adh_scene(struct_size: UInt32(MemoryLayout<adh_scene>.size), serial: serial, identifier: raw(identifier),
                         role: raw(role), activation_state: state)
    }
}

extension SceneReference {
    /// The scene an `adh_scene` names; nil (not delivered) for a NULL one. What cannot be read is
    /// named in `problems`: an identifier or role that is not UTF-8 reads as "", an unknown
    /// activation state as unattached.
    package init?(abi pointer: UnsafePointer<adh_scene>?, problems: inout [String]) {
        guard let pointer else {
            problems.append("scene: expected an adh_scene, found NULL; not delivered")
            return nil
        }
        let payload = ABI.readCovered(pointer)
        let identifier = TextArgument.decode(payload.identifier, problems: &problems) ?? ""
        let role = TextArgument.decode(payload.role, problems: &problems) ?? ""
        let state = SceneState(rawValue: payload.activation_state)
        if state == nil {
            problems.append("scene: expected an ADH_SCENE_* activation state, found \(payload.activation_state); read as unattached")
        }
        self.init(identifier: identifier, role: role.isEmpty ? nil : role, state: state ?? .unattached)
    }
}
