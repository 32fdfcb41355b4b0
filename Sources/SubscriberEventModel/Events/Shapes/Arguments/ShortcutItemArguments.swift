import SubscriberABI
import SubscriberValues

/// The shape of `performActionForShortcutItem`: {type (required), title, userInfo}; in C an
/// `adh_shortcut_item`.
package enum ShortcutItemArguments: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> ShortcutItem {
        ShortcutItem(type: try reader.requiredString("type"), title: try reader.string("title") ?? "",
                     userInfo: try reader.object("userInfo") ?? [:])
    }

    package static func write(_ value: ShortcutItem, spec: Void, into object: inout JSONObject) {
        for (key, member) in value.json.members { object[key] = member }
    }

    package static func summary(_ value: ShortcutItem) -> String? { value.type }

    package static func encode(_ value: ShortcutItem, _ context: EncodingContext) -> EncodedPayload<adh_shortcut_item> {
        EncodedPayload { $0.shortcutItem(value, serial: context.serial) }
    }

    package static func cArguments(_ encoded: EncodedPayload<adh_shortcut_item>) -> UnsafePointer<adh_shortcut_item>? {
        encoded.pointer
    }

    package static func decode(_ arguments: UnsafePointer<adh_shortcut_item>?, problems: inout [String]) -> ShortcutItem? {
        guard let arguments else { return nil }
        return ShortcutItem(abi: ABI.readCovered(arguments), problems: &problems)
    }

    package static func serial(of arguments: UnsafePointer<adh_shortcut_item>?) -> UInt64 {
        arguments.map { ABI.serial($0) } ?? 0
    }

    package static func canonical(spec: Void) -> [ShortcutItem] {
        [ShortcutItem(type: "com.example.news.search", title: "Search")]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> EncodedPayload<adh_shortcut_item> {
        EncodedPayload { $0.fuzzedShortcutItem(&draw, serial: serial) }
    }
}

extension PayloadStorage {
    /// `item` as an `adh_shortcut_item` whose strings live in this storage.
    package mutating func shortcutItem(_ item: ShortcutItem, serial: UInt64) -> adh_shortcut_item {
        adh_shortcut_item(struct_size: UInt32(MemoryLayout<adh_shortcut_item>.size), serial: serial,
                          type: string(item.type), title: string(item.title), user_info_json: json(.object(item.userInfo)))
    }

    /// A hostile `adh_shortcut_item` drawn from `draw`.
    package mutating func fuzzedShortcutItem(_ draw: inout some FuzzDraw, serial: UInt64) -> adh_shortcut_item {
        let type = draw.text("type", url: false), title = draw.text("title", url: false)
        let userInfo = draw.jsonObject("userInfo")
        return adh_shortcut_item(struct_size: UInt32(MemoryLayout<adh_shortcut_item>.size), serial: serial,
                                 type: raw(type), title: raw(title), user_info_json: raw(userInfo))
    }
}

extension ShortcutItem {
    /// The item an `adh_shortcut_item` describes; what cannot be read is named in `problems`.
    package init(abi payload: adh_shortcut_item, problems: inout [String]) {
        let (userInfo, problem) = ABI.jsonObject(payload.user_info_json, what: "shortcut item userInfo")
        if let problem { problems.append(problem) }
        self.init(type: payload.type.string ?? "", title: payload.title.string ?? "", userInfo: userInfo)
    }
}
