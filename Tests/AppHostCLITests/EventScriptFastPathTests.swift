import Foundation
import Testing
import SubscriberEventModel
import SubscriberHost
import SubscriberKit
import SubscriberValues
@testable import AppHostCLI

/// A script line read straight from its bytes (``AnyEventCall/readingSource(line:)``) against the
/// ordinary way (the line parsed, then read): the same call and source, and nothing read that the
/// ordinary way refuses.
@Suite("Event scripts: lines read from their bytes")
struct EventScriptFastPathTests {
    /// The ordinary way's reading of `line`: the call and source, or the error.
    static func ordinary(_ line: [UInt8]) -> Result<(AnyEventCall, String?), EventScriptError>? {
        do {
            guard let entry = try EventScript.entry(inOrdinaryWay: ArraySlice(line), number: 1, file: "e") else { return nil }
            return .success(entry)
        } catch {
            return .failure(error)
        }
    }

    /// Checks that the fast path reads `line` as the ordinary way does, or leaves it to it; returns
    /// whether the fast path read it.
    @discardableResult
    static func check(_ line: [UInt8], _ comment: Comment? = nil) -> Bool {
        let fast = AnyEventCall.readingSource(line: ArraySlice(line))
        switch ordinary(line) {
        case .success(let (call, source))?:
            if let fast { #expect(fast.call == call && fast.source == source, comment) }
        case .failure, nil:
            #expect(fast == nil, comment)
        }
        return fast != nil
    }

    /// Every byte of `line` from `start` on dropped, and replaced by each byte that matters to JSON
    /// (and a NUL and a lone UTF-8 lead byte), each variant checked both ways. Returns how many the
    /// fast path read and how many it left to the ordinary way.
    @discardableResult
    static func checkEveryByte(of line: [UInt8], from start: Int = 0, _ label: String = "") -> (read: Int, left: Int) {
        var read = 0
        var left = 0
        func count(_ variant: [UInt8], _ comment: Comment) {
            if check(variant, comment) { read += 1 } else { left += 1 }
        }
        for position in line.indices where position >= start {
            var dropped = line
            dropped.remove(at: position)
            count(dropped, "\(label) without byte \(position)")
            for replacement in Array(#""\{}[],:1a"#.utf8) + [0x00, 0xC3] where replacement != line[position] {
                var altered = line
                altered[position] = replacement
                count(altered, "\(label) byte \(position)")
            }
        }
        return (read, left)
    }

    @Test("every row's calls are read from their bytes, compact and spaced, as the ordinary way reads them")
    func everyRow() throws {
        for row in EventTable.rows {
            for call in row.canonicalCalls {
                let compact = JSONValue.object(call.scriptJSON).serialized()
                let spaced = JSONValue.object(call.scriptJSON).serialized(pretty: true).replacingOccurrences(of: "\n", with: " ")
                for line in [compact, spaced, "\t" + compact + "  "] {
                    let fast = try #require(AnyEventCall.readingSource(line: ArraySlice(line.utf8)), "\(line)")
                    #expect(fast.call == call && fast.source == nil, "\(line)")
                    #expect(Self.check(Array(line.utf8), "\(line)"))
                }
            }
        }
    }

    @Test("a recorded line's source and time are read as the ordinary way reads them")
    func recorded() {
        #expect(Self.check(Array(#"{"event": "didBecomeActive", "source": "signal", "at": 12.5}"#.utf8)))
        #expect(Self.check(Array(#"{"at": 0, "event": "openURL", "url": "news://a", "source": "socket"}"#.utf8)))
        #expect(!Self.check(Array(#"{"event": "didBecomeActive", "at": -1}"#.utf8)))
        #expect(!Self.check(Array(#"{"event": "didBecomeActive", "source": 1}"#.utf8)))
    }

    @Test("a line is looked at for the recorded keys only when a member is named so: at any place among its members, not near names, not inside values")
    func recordedKeysFoundAmongTheMembers() throws {
        func hasRecordedKey(_ line: String) throws -> Bool {
            let flat = try #require(FlatJSONObject(scanning: ArraySlice(line.utf8)), "\(line)")
            let either = flat.hasKey("source", or: "at")
            #expect(either == (flat.hasKey("source") || flat.hasKey("at")), "\(line)")
            return either
        }
        for line in [#"{"event": "didBecomeActive", "source": "signal"}"#, #"{"at": 1, "event": "didBecomeActive"}"#,
                     #"{"event":"didBecomeActive","at":2}"#, #"{"": 1, "source": null}"#] {
            #expect(try hasRecordedKey(line), "\(line)")
        }
        for line in [#"{"event": "didBecomeActive"}"#, #"{"event": "openURL", "url": "news://at/source"}"#, #"{}"#,
                     #"{"sourc": 1, "sourcf": 2, "a": 3, "ta": 4, "": 5, "atx": 6, "xsource": 7}"#,
                     #"{"event": "x", "s": "\"at\"", "o": {"source": 1, "at": 2}}"#] {  // in values: not members
            #expect(try !hasRecordedKey(line), "\(line)")
        }
        // Either key at every place among up to eight members, beside keys of the same length.
        for count in 0...8 {
            for place in 0...count {
                for key in ["source", "at", "sourcf", "ax", "a"] {
                    var keys = (0..<count).map { $0 % 2 == 0 ? "k\($0)" : "sourc\($0 % 10)" }
                    keys.insert(key, at: place)
                    let line = "{" + keys.map { "\"\($0)\": 1" }.joined(separator: ", ") + "}"
                    #expect(try hasRecordedKey(line) == (key == "source" || key == "at"), "\(line)")
                }
            }
        }
        // Read as the ordinary way reads them, keys or the names inside values.
        for line in [#"{"event": "openURL", "url": "news://a\"at\"b"}"#, #"{"event": "openURL", "url": "news://\"source\""}"#,
                     #"{"event": "didBecomeActive", "at": "x"}"#, #"{"event": "didBecomeActive", "source": null}"#,
                     #"{"event": "didBecomeActive", "at": 3, "source": "timer", "x": 1}"#,
                     #"{"event": "performActionForShortcutItem", "type": "at", "title": "source"}"#] {
            Self.check(Array(line.utf8), "\(line)")
        }
    }

    @Test("openURL's options are read from their own bytes as the ordinary way reads them, wrong ones left to it, every byte altered")
    func openURLOptionsFromTheirBytes() throws {
        let options = [
            #"{}"#, #"{"sourceApplication": "com.apple.mobilesafari"}"#, #"{"openInPlace": true, "sourceApplication": "a\"b"}"#,
            #"{"annotation": {"k": [1, 2.5, null], "s": "é"}, "openInPlace": false}"#, #"{"annotation": "plain"}"#,
            #"{"eventAttribution": {"sourceIdentifier": 7, "destinationURL": "https://news.example.com", "reportEndpoint": "https://ads.example.com", "sourceDescription": "Ad", "purchaser": "P"}}"#,
            // Wrong: left to the ordinary way, which names what and where.
            #"{"sourceApplication": 1}"#, #"{"openInPlace": "yes"}"#, #"{"extra": 1}"#, #"{"annotation": [1,]}"#,
            #"{"annotation": 1, "annotation": 2}"#, #"{"eventAttribution": {"sourceIdentifier": "x"}}"#, #"[]"#, #""{}""#,
        ]
        var read = 0
        for text in options {
            let line = Array(#"{"event": "openURL", "url": "news://article/7", "options": \#(text)}"#.utf8)
            if Self.check(line, "\(text)") { read += 1 }
            Self.checkEveryByte(of: line, from: 51, text)
        }
        #expect(read == 6)
        // Those six through the options' own bytes (not built first): the reader hands them over.
        let line = ArraySlice(#"{"url": "news://a", "options": {"openInPlace": true, "annotation": {"k": 1}}}"#.utf8)
        var reader = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: line)), path: "")
        let fromBytes = try reader.flatObject("options") { (options) throws(JSONShapeError) in try OpenURLOptions(reading: &options) }
        #expect(fromBytes == OpenURLOptions(annotation: ["k": 1], openInPlace: true))
        #expect(reader.isIntact)
        // A member of the options that does not parse: the line's reader is not intact either.
        let broken = ArraySlice(#"{"options": {"annotation": [1,]}}"#.utf8)
        var brokenReader = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: broken)), path: "")
        _ = try brokenReader.flatObject("options") { (options) throws(JSONShapeError) in try OpenURLOptions(reading: &options) }
        #expect(!brokenReader.isIntact)
    }

    @Test("errors and notifications are read from their own bytes as the ordinary way reads them, wrong ones left to it, every byte after the event's name altered")
    func errorsAndNotificationsFromTheirBytes() throws {
        let errors = [
            #"{"domain": "d", "code": 4608, "message": "handoff failed"}"#, #"{"domain": "d\"q", "code": -3}"#, #"{"domain": "é"}"#,
            // Wrong: left to the ordinary way, which names what and where.
            #"{"domain": "d", "code": "x"}"#, #"{"domain": "d", "code": 1.5}"#, #"{"code": 1}"#, #"{"domain": "d", "other": 2}"#,
            #"{"domain": "d", "code": 99999999999999999999}"#, #"4"#, #"{"domain": 1}"#, #"null"#, #"[]"#,
            #"{"domain": "d", "domain": "e"}"#,
            // Read, but not from its bytes (an escaped key, more members than the scanner keeps): the parser's.
            #"{"\u0064omain": "d"}"#,
            "{" + (0..<33).map { #""k\#($0)": 1"# }.joined(separator: ", ") + "}",
        ]
        let notifications = [
            #"{"identifier": "breaking-42", "userInfo": {"articles": [42]}, "categoryIdentifier": "article"}"#,
            #"{"identifier": "x\u0041", "userInfo": {}}"#, #"{"identifier": "a"}"#,
            // Wrong.
            #"{"userInfo": {"a": 1}}"#, #"{"identifier": 5}"#, #"{"identifier": "x", "extra": 1}"#,
            #"{"identifier": "x", "userInfo": "no"}"#, #"{"identifier": "x", "userInfo": {"a": [1,]}}"#, #""str""#,
            #"{"identifier": "x", "categoryIdentifier": 3}"#, #"null"#, #"[]"#,
            #"{"identifier": "a", "userInfo": {"a": 1, "a": 2}}"#,
            // Read, but not from its bytes.
            #"{"\u0069dentifier": "n"}"#,
        ]
        let lines = errors.map { #"{"event": "didFailToRegisterForRemoteNotifications", "error": \#($0)}"# }
            + errors.map { #"{"event": "didFailToContinueUserActivity", "activityType": "t", "error": \#($0)}"# }
            + notifications.map { #"{"event": "notifications.willPresent", "notification": \#($0)}"# }
            + notifications.map { #"{"event": "notifications.didReceiveResponse", "notification": \#($0), "actionIdentifier": "a"}"# }
            + notifications.map { #"{"event": "notifications.openSettings", "notification": \#($0)}"# }
        var read = 0
        for text in lines {
            let line = Array(text.utf8)
            if Self.check(line, "\(text)") { read += 1 }
            // Every byte after the event's name (the first comma ends it).
            Self.checkEveryByte(of: line, from: try #require(line.firstIndex(of: UInt8(ascii: ","))), text)
        }
        #expect(read == 2 * 4 + 3 * 4)
        // Read through their own bytes (not built first): the reader hands them over.
        let line = ArraySlice(#"{"error": {"domain": "d", "code": 7}, "notification": {"identifier": "n", "userInfo": {"k": [1]}}}"#.utf8)
        var reader = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: line)), path: "")
        let error = try reader.flatObject("error") { (error) throws(JSONShapeError) in try LifecycleError(reading: &error) }
        #expect(error == LifecycleError(domain: "d", code: 7, message: ""))
        let notification = try reader.flatObject("notification") { (notification) throws(JSONShapeError) in
            try UserNotification(reading: &notification)
        }
        #expect(notification == UserNotification(identifier: "n", userInfo: ["k": [1]]))
        #expect(reader.isIntact)
        // And through the readers the rows use, the same.
        var rows = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: line)), path: "")
        #expect(try rows.lifecycleError("error") == LifecycleError(domain: "d", code: 7, message: ""))
        #expect(try rows.notification("notification") == UserNotification(identifier: "n", userInfo: ["k": [1]]))
        #expect(rows.isIntact)
        #expect(try rows.notification("absent") == nil)
        // One the scanner does not take (an escaped key): not from its bytes, but read all the same.
        let escaped = ArraySlice(#"{"notification": {"\u0069dentifier": "n"}}"#.utf8)
        var escapedReader = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: escaped)), path: "")
        #expect(try escapedReader.flatObject("notification") { (n) throws(JSONShapeError) in try UserNotification(reading: &n) } == nil)
        #expect(try escapedReader.notification("notification") == UserNotification(identifier: "n"))
        #expect(escapedReader.isIntact)
        // A member that does not parse: the line's reader is not intact either.
        let broken = ArraySlice(#"{"notification": {"identifier": "n", "userInfo": {"k": [1,]}}}"#.utf8)
        var brokenReader = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: broken)), path: "")
        _ = try brokenReader.notification("notification")
        #expect(!brokenReader.isIntact)
    }

    @Test("every byte of every row's line altered or dropped: read as the ordinary way reads it, or left to it")
    func alteredLines() {
        var read = 0
        var left = 0
        for row in EventTable.rows {
            guard let call = row.canonicalCalls.last else { continue }
            let line = Array(JSONValue.object(call.scriptJSON).serialized().utf8)
            let counts = Self.checkEveryByte(of: line, from: 0, row.name)
            read += counts.read
            left += counts.left
        }
        #expect(read > 0 && left > 0)
    }
    @Test("one reader kept for the run reads every line as a reader made for it alone does: lines refused or found wrong between them leave nothing behind")
    func readerKeptForTheRun() {
        var lines: [[UInt8]] = []
        for row in EventTable.rows {
            for call in row.canonicalCalls { lines.append(Array(JSONValue.object(call.scriptJSON).serialized().utf8)) }
        }
        // Between them: lines the fast path refuses, and lines it reads part of before finding them wrong.
        let bad = [#"{"event": "openURL", "url": "news://a", "options": {"extra": 1}}"#, #"{"event": "openURL"}"#,
                   #"{"event": "didBecomeActive", "x": 1, "y": 2, "z": 3, "w": 4, "v": 5}"#, #"not json"#, #"{"a": 1, "a": 2}"#,
                   #"{"event": "continueUserActivity", "activityType": "t", "webpageURL": "news"}"#, #"{}"#, #""#]
        var kept = ScriptLineReader()
        var read = 0
        for (index, line) in lines.enumerated() {
            let fresh = AnyEventCall.readingSource(line: ArraySlice(line))
            let again = kept.entry(ArraySlice(line))
            #expect(fresh != nil && again?.call == fresh?.call && again?.source == fresh?.source, "\(String(decoding: line, as: UTF8.self))")
            if again != nil { read += 1 }
            let wrong = Array(bad[index % bad.count].utf8)
            let wrongRead = kept.entry(ArraySlice(wrong))
            #expect(wrongRead == nil && AnyEventCall.readingSource(line: ArraySlice(wrong)) == nil)
        }
        #expect(read == lines.count)
    }

    @Test("a JSONObjectReader kept for lines starts each line afresh: keys asked for, members read and a member that did not parse are the line's own")
    func keptReaderStartsEachLineAfresh() throws {
        var reader = JSONObjectReader(linesAt: "")
        // Line 1: asks for absent keys, reads a member that does not parse.
        let started1 = reader.startLine(ArraySlice(#"{"a": [1,], "b": 2}"#.utf8))
        let absent = reader.value("absent"), a = reader.value("a")
        #expect(started1 && absent == nil && a == nil && !reader.isIntact)
        reader.endLine()
        // Line 2: its unknown key is named with the keys asked for on this line alone.
        let started2 = reader.startLine(ArraySlice(#"{"c": 1, "d": 2}"#.utf8))
        let c = try reader.int("c")
        #expect(started2 && reader.isIntact && c == 1)
        #expect(throws: JSONShapeError(path: "d", expected: "one of the known keys (c, other)", found: "an unknown key")) {
            _ = reader.value("other")
            try reader.rejectUnknownKeys()
        }
        reader.endLine()
        // A line the fast path refuses, then one it reads whole.
        let started3 = reader.startLine(ArraySlice(#"{"c": 1, "c": 2}"#.utf8))
        #expect(!started3)
        reader.endLine()
        let started4 = reader.startLine(ArraySlice(#"{"e": "x"}"#.utf8))
        let e = try reader.string("e")
        #expect(started4 && e == "x")
        #expect(throws: Never.self) { try reader.rejectUnknownKeys() }
        reader.endLine()
    }
    @Test("a member looked for first at its usual place is found at any place, as a search of all finds it, and not when absent or not a plain string")
    func memberByPlace() throws {
        for count in 1...6 {
            for place in 0..<count {
                var members = (0..<count).map { #""k\#($0)": "v\#($0)""# }
                members[place] = #""event": "openURL""#
                let line = ArraySlice(("{" + members.joined(separator: ", ") + "}").utf8)
                for hint in 0...count {
                    var byPlace = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: line)), path: "")
                    var bySearch = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: line)), path: "")
                    let found = byPlace.plainStringBytes("event", place: hint), searched = bySearch.plainStringBytes("event")
                    #expect(found.map { Array($0) } == Array("openURL".utf8) && searched.map { Array($0) } == Array("openURL".utf8))
                }
            }
        }
        for text in [#"{"events": "x", "even": "y"}"#, #"{"event": 1}"#, #"{"event": "é"}"#, #"{}"#] {
            var reader = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: ArraySlice(text.utf8))), path: "")
            let found = reader.plainStringBytes("event", place: 0)
            #expect(found == nil, "\(text)")
        }
    }
}
