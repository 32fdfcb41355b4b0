import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel

/// The event reference (docs/events.md) against the event table: every row of every family has its
/// line in each of the page's tables — UIKit counterpart; Swift protocol, method and C entry; the
/// `LifecycleEvent` and `EventCall` an embedding app writes, with the call's types — so an event added
/// to the table and not to the page fails here. The Swift names of the calls are read from the
/// table's files (`Sources/SubscriberEventModel/Events/Table/`), where each family declares them.
@MainActor
@Suite("The event reference documents every event of the table")
struct EventReferenceTests {
    static let root = ReadmeExampleTests.root

    static func page() throws -> [String] {
        try String(contentsOfFile: root + "/docs/events.md", encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    /// A table line of the page whose first cells start with `cells` (each in backticks), or nil.
    static func line(in page: [String], startingWith cells: [String]) -> String? {
        let prefix = "| " + cells.map { "`\($0)`" }.joined(separator: " | ") + " "
        return page.first { $0.hasPrefix(prefix) }
    }

    /// What a family's table file declares for one event: its `LifecycleEvent` member, its `EventCall`
    /// constructor as a selector (`.openURL(url:options:)`, `.didBecomeActive`) and the call's types.
    struct SwiftNames: Equatable, CustomStringConvertible {
        var member: String
        var constructor: String
        var immediate: String
        var final: String
        var description: String { "`.\(member)` | `\(constructor)` | `\(immediate)` | `\(final)`" }
    }

    /// The Swift names of every event the table files declare, by wire name.
    static func declaredSwiftNames() throws -> [String: SwiftNames] {
        let folder = root + "/Sources/SubscriberEventModel/Events/Table"
        var wireNames: [String: String] = [:]  // "ApplicationEvents.openURL" -> "openURL"
        var members: [String: String] = [:]  // member -> wire name
        var calls: [String: (constructor: String, immediate: String, final: String)] = [:]  // member -> call
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).filter({ $0.hasSuffix(".swift") }).sorted() {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let family = String(file.dropLast(".swift".count))
            for match in text.matches(of: /static let (\w+): EventRow = EventRow\.\w+\(\s*"([^"]+)"/) {
                wireNames["\(family).\(match.output.1)"] = String(match.output.2)
            }
            for match in text.matches(of: /public static let (\w+) = LifecycleEvent\(row: (\w+)\.(\w+)\)/) {
                members[String(match.output.1)] = wireNames["\(match.output.2).\(match.output.3)"]
            }
            var types: (String, String)?
            for match in text.matches(of: /extension EventCall where Immediate == (.+?), Final == (.+?) \{|public static (func|var) (\w+)/) {
                if let immediate = match.output.1, let final = match.output.2 {
                    types = (String(immediate), String(final))
                    continue
                }
                guard let kind = match.output.3, let name = match.output.4, let (immediate, final) = types else { continue }
                let rest = text[match.range.upperBound...]
                var constructor = "." + name
                if kind == "func" {
                    constructor += "(" + labels(ofParametersAt: rest).map { $0 + ":" }.joined() + ")"
                }
                guard let made = rest.firstMatch(of: /(?:EventCall|onlyScene)\(\.(\w+)/) else { continue }
                calls[String(made.output.1)] = (constructor, immediate, final)
            }
        }
        var names: [String: SwiftNames] = [:]
        for (member, wireName) in members {
            guard let call = calls[member] else { continue }
            names[wireName] = SwiftNames(member: member, constructor: call.constructor, immediate: call.immediate, final: call.final)
        }
        return names
    }

    /// The argument labels of the parameter list that `text` starts with: `(_ x: T, scene: String)` → `_`, `scene`.
    static func labels(ofParametersAt text: Substring) -> [String] {
        var depth = 0, current = "", parameters: [String] = []
        for character in text {
            if character == "(" || character == "[" || character == "<" { depth += 1; if depth == 1 && character == "(" { continue } }
            if character == ")" || character == "]" || character == ">" {
                depth -= 1
                if depth == 0 { break }
            }
            if character == "," && depth == 1 { parameters.append(current); current = "" } else { current.append(character) }
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parameters.append(current) }
        return parameters.compactMap { $0.split(separator: ":").first?.split(whereSeparator: \.isWhitespace).first.map(String.init) }
    }

    @Test("every event's row: wire name, UIKit counterpart")
    func everyEventHasItsRow() throws {
        let page = try Self.page()
        for row in EventTable.rows {
            #expect(Self.line(in: page, startingWith: [row.name, row.uikit]) != nil,
                    "docs/events.md: no line | `\(row.name)` | `\(row.uikit)` | … in an events table")
        }
    }

    @Test("every event's Swift protocol, its one method as the protocol declares it, and its C entry")
    func everyEventHasItsSwiftAndCNames() throws {
        let page = try Self.page()
        for row in EventTable.rows {
            #expect(Self.line(in: page, startingWith: [row.name, row.swiftProtocol, row.swiftRequirement, row.cSlot]) != nil,
                    "docs/events.md: no line | `\(row.name)` | `\(row.swiftProtocol)` | `\(row.swiftRequirement)` | `\(row.cSlot)` |")
        }
    }

    @Test("every event's LifecycleEvent member and EventCall constructor, as its family's file declares them")
    func everyEventHasItsSwiftCall() throws {
        let page = try Self.page()
        let declared = try Self.declaredSwiftNames()
        for row in EventTable.rows {
            guard let names = declared[row.name] else {
                Issue.record("\(row.name): no LifecycleEvent member with an EventCall constructor found in Sources/SubscriberEventModel/Events/Table")
                continue
            }
            #expect(Self.line(in: page, startingWith: [row.name, "." + names.member, names.constructor, names.immediate, names.final]) != nil,
                    "docs/events.md: no line | `\(row.name)` | \(names) | in \"Sending events from Swift\"")
        }
        // The reading of the files is checked too: the members found are the events of the table.
        #expect(Set(declared.keys) == Set(EventTable.rows.map(\.name)))
        #expect(declared["notifications.willPresent"]?.constructor == ".willPresentNotification(_:)")
        #expect(declared["scene.willConnect"]?.constructor == ".sceneWillConnect(scene:role:options:)")
        #expect(declared["didBecomeActive"]?.constructor == ".didBecomeActive")
    }

    @Test("every value's initializer the page shows is one that SubscriberKit declares (SubscriberValues, which it re-exports)")
    func valueInitializers() throws {
        let page = try Self.page()
        let folder = Self.root + "/Sources/SubscriberValues/Values"
        var initializers: [String: Set<String>] = [:]  // type -> "Type(labels:)"
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).filter({ $0.hasSuffix(".swift") }) {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            var type: String?
            for match in text.matches(of: /public struct (\w+)|public init\(/) {
                if let name = match.output.1 { type = String(name); continue }
                guard let type else { continue }
                let parameters = text[text.index(before: match.range.upperBound)...]
                initializers[type, default: []].insert(type + "(" + Self.labels(ofParametersAt: parameters).map { $0 + ":" }.joined() + ")")
            }
        }
        var shown = 0
        for line in page {
            guard let match = line.firstMatch(of: /^\| `(\w+)` \| `((\w+)\([\w:]*\))`/) else { continue }
            guard match.output.1 == match.output.3 else { continue }
            shown += 1
            #expect(initializers[String(match.output.1)]?.contains(String(match.output.2)) == true,
                    "docs/events.md shows \(match.output.2), which SubscriberKit (SubscriberValues) does not declare; it has \(initializers[String(match.output.1)] ?? [])")
        }
        #expect(shown >= 10)
    }
}
