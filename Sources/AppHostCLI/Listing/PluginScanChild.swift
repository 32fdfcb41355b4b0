#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import CoreFoundation
import Foundation
import SubscriberHost
import SubscriberKit

/// The messages between `apphost list` and its plugin scanner child (the "plugin-scan" role of
/// ChildProcessEntry.h), each one JSON frame on the child layer's signed channel.
///
/// Parent → child: a header `{"app": {…}, "allowWritable": B}`, then one item per manifest entry to
/// inspect, `{"index": N, "path": "/abs/libX.so", "sha256": HEX?, "requested": [names],
/// "options": {…}, "subscriberOptions": [[name, {…}], …]}`, then `{"end": true}`.
///
/// Child → parent, per item: `{"start": N}` before it loads the file, `{"create": N}` before it makes
/// the subscribers, and `{"done": N, …}` with either `"error": {"check", "message"}` (a load-time
/// check failed) or the descriptor (`"descriptor": {…}` the first time a file is described,
/// `"descriptorAt": M`, the item that carried it, after), `"loadMs"`, and `"created": true` or
/// `"createError": {"check", "message"}`. An item started and never done is the one that killed or
/// hung the child.
enum PluginScanWire {
    /// The child role's name (ChildProcessEntry.c).
    static let role = "plugin-scan"

    /// One JSON message as bytes.
    static func bytes(_ object: JSONObject) -> [UInt8] { JSONValue.object(object).serializedBytes() }

    /// `{"check", "message"}` of `error`, its values cut as in every error line.
    static func json(_ error: PluginLoadError) -> JSONValue {
        ["check": .number(Double(error.check)), "message": .string(ErrorLine.cut(error).description)]
    }
}

/// The worker side of the plugin scanner: loads each plugin file it is sent through the load-time
/// checks, makes and destroys its subscribers as a run would, and reports what it found. Everything a
/// plugin can do wrong while loaded (crash, hang, exit) happens in this process, which the parent
/// can afford to lose.
enum PluginScanChild {
    /// Runs the worker on `endpoint`; never returns.
    static func enter(_ endpoint: ChildEndpoint) -> Never {
        guard let frame = endpoint.receive(), let header = try? JSONValue(parsing: frame),
              let app = header["app"]?.objectValue
        else {
            let line = Array("plugin scanner: expected a header on the private channel, found none or a malformed one\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            _exit(2)
        }
        let allowWritable = header["allowWritable"]?.boolValue ?? false
        Task { @MainActor in
            scan(endpoint, application: Application(infoJSON: app), allowWritable: allowWritable)
            _exit(0)
        }
        // The main actor runs on the main thread's run loop; this is before `main`, so run it here,
        // entered once as apphost's.
        while true { CFRunLoopRun() }
    }

    /// Inspects every item until the end message (or the parent is gone).
    /// [main-thread] Loading calls each plugin's `[main-thread]` entry symbol, and `create`.
    @MainActor
    private static func scan(_ endpoint: ChildEndpoint, application: Application, allowWritable: Bool) {
        let loader = PluginLoader(allowWritable: allowWritable)
        let locator = PluginLocator(baseDirectory: "/", searchDirectories: [])
        let sink = HostLogRecorder(retaining: false)  // what create logs is not part of a listing
        var described: [String: Int] = [:]  // a file's real path → the item that carried its descriptor
        while let frame = endpoint.receive(), let item = try? JSONValue(parsing: frame), item["end"] == nil {
            guard let index = item["index"]?.intValue, let entry = entry(item, index: index) else { continue }
            guard case .path(let path) = entry.source else { continue }
            endpoint.send(PluginScanWire.bytes(["start": .number(Double(index))]))
            var result: JSONObject = ["done": .number(Double(index))]
            do throws(PluginLoadError) {
                let image = try loader.loadImage(at: path, sha256: entry.sha256)
                if let first = described[image.realPath] {
                    result["descriptorAt"] = .number(Double(first))
                } else {
                    described[image.realPath] = index
                    result["descriptor"] = .object(ScanRecord.Descriptor(
                        name: image.name, id: image.id, version: image.version, vendor: image.vendor,
                        abi: "\(image.abiMajor).\(image.abiMinor)", swiftVersion: image.swiftVersion,
                        subscribers: image.subscriberNames).json)
                }
                result["loadMs"] = .number(image.loadDuration.milliseconds)
                endpoint.send(PluginScanWire.bytes(["create": .number(Double(index))]))
                do throws(PluginLoadError) {
                    var owners: [String: String] = [:]  // check 10 is the parent's, across entries
                    let plugin = try loader.loadEntry(entry, locator: locator, owners: &owners)
                    try plugin.makeSubscribers(application: application, sink: sink).forEach { $0.destroy() }
                    result["created"] = true
                } catch {
                    result["createError"] = PluginScanWire.json(error)
                }
            } catch {
                result["error"] = PluginScanWire.json(error)
            }
            var message = PluginScanWire.bytes(result)
            if message.count > ChildChannel.frameLimit / 2 {
                let error = PluginLoadError.malformedDescriptor(
                    path: path, field: "subscriber_names", expected: "a descriptor apphost list can pass on (at most \(ChildChannel.frameLimit / 2) bytes)",
                    found: "\(message.count) bytes")
                message = PluginScanWire.bytes(["done": .number(Double(index)), "error": PluginScanWire.json(error)])
            }
            endpoint.send(message)
        }
    }

    /// The manifest entry an item stands for (its source the absolute path the parent resolved).
    private static func entry(_ item: JSONValue, index: Int) -> ManifestPlugin? {
        guard let path = item["path"]?.stringValue else { return nil }
        let requested = item["requested"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var entry = ManifestPlugin(index: index, source: .path(path), subscribers: requested,
                                   sha256: item["sha256"]?.stringValue.flatMap(SHA256Digest.init(hex:)),
                                   options: item["options"] ?? .object(JSONObject()))
        for pair in item["subscriberOptions"]?.arrayValue ?? [] {
            guard let name = pair.arrayValue?.first?.stringValue, let options = pair.arrayValue?.last?.objectValue else { continue }
            entry.subscriberOptions[name] = options
            entry.subscriberOptionNames.append(name)
        }
        return entry
    }
}

/// The worker's entry, called by the constructor in ChildProcessEntry before `main` when the process
/// was started as a plugin scanner: its channel and the run's secret. Public only so that it is never
/// stripped; not API.
@_cdecl("adh_plugin_scan_child_main")
public func _pluginScanChildMain(_ channel: Int32, _ secret: UnsafePointer<UInt8>?, _ secretLength: Int) -> Int32 {
    PluginScanChild.enter(ChildEndpoint(channel: channel, secret: secret, length: secretLength))
}
