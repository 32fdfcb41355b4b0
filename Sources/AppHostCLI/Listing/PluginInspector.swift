import SubscriberHost
import SubscriberKit

/// The verdict on one manifest plugin entry, for `apphost list`.
package struct PluginVerdict: Sendable {
    /// What became of the entry.
    package enum Outcome: Sendable {
        /// It passed every load check and made its subscribers; what it is.
        case loaded(PluginSummary)
        /// It failed a load check, or a subscriber it declares could not be made.
        case failed(PluginLoadError)
    }

    /// The manifest entry.
    package var entry: ManifestPlugin
    /// Loaded or failed.
    package var outcome: Outcome
    /// Whether the scan cache answered for the file, so that no child inspected it.
    package var fromCache: Bool

    /// A verdict.
    package init(entry: ManifestPlugin, outcome: Outcome, fromCache: Bool = false) {
        self.entry = entry
        self.outcome = outcome
        self.fromCache = fromCache
    }

    /// Whether this verdict stops `apphost` from running: a required entry that failed.
    package var isFatal: Bool {
        if case .failed = outcome { return !entry.optional }
        return false
    }
}

/// What `apphost list` found: a verdict per manifest entry, and the warnings to show (a scan cache
/// discarded or not saved).
package struct PluginListing: Sendable {
    /// Every entry's verdict, in manifest order.
    package var verdicts: [PluginVerdict]
    /// One line each, without the `apphost: warning: ` prefix.
    package var warnings: [String]
}

/// Says what became of each plugin entry of a manifest, so that `list` shows every entry's verdict
/// where a run stops at the first required failure — without running any plugin code in this
/// process.
///
/// In this process: each entry's file is found and put through checks 1–3 (no code of it runs),
/// then looked up in the scan cache (``ScanCache``) by path, size, modification time and SHA-256. A
/// file whose inspection crashed or hung is blacklisted; one the cache describes, and whose
/// subscribers were made with these very options, needs no child. Every other entry is inspected in
/// a child (``PluginScanner``): the ten checks in order, as ``PluginLoader/loadEntry(_:locator:owners:)``
/// runs them, then each subscriber is made and destroyed, as a run would. Checks 9 and 10 are run
/// here again on the descriptor, across entries: a subscriber name already provided by an earlier
/// entry that loaded fails the later one.
package enum PluginInspector {
    /// The listing of `manifest`, through `cache` (nil: no cache is read or written).
    package static func inspect(_ manifest: Manifest, extraSearchDirectories: [String] = [], allowWritable: Bool = false,
                                cache: ScanCache?, scanner: PluginScanner = PluginScanner()) -> PluginListing {
        let locator = PluginLocator(manifest: manifest, extraDirectories: extraSearchDirectories)
        let loader = PluginLoader(allowWritable: allowWritable)
        var warnings: [String] = []
        let read: (records: [ScanRecord], warning: String?) = cache?.read() ?? ([], nil)
        if let warning = read.warning { warnings.append(warning) }
        var records = read.records
        var recordAt: [String: Int] = [:]  // path → its record in `records`
        for (position, record) in records.enumerated() { recordAt[record.key.path] = position }
        var changed = read.warning != nil  // a discarded cache is written anew

        /// Per entry: failed in this process, described (from the cache or a child), or waiting for the child.
        enum Step {
            case failed(PluginLoadError)
            case described(path: String, key: ScanRecord.Key, digest: String)
        }
        var steps: [Step] = []
        var examined: [String: Result<ScanRecord.Key, PluginLoadError>] = [:]  // path + pin → checks 1-3
        var items: [PluginScanner.Item] = []
        var found: [Int: Found] = [:]  // entry index → what the cache or the child found
        for entry in manifest.plugins {
            let path: String
            let key: ScanRecord.Key
            do throws(PluginLoadError) {
                path = try locator.locate(entry.source)  // absolute
                let memo = path + "\u{0}" + (entry.sha256?.hex ?? "")
                let result = examined[memo] ?? Result { () throws(PluginLoadError) in try loader.examine(at: path, sha256: entry.sha256) }
                examined[memo] = result
                key = try result.get()
            } catch {
                steps.append(.failed(error))
                continue
            }
            let digest = Self.optionsDigest(entry, app: manifest.app)
            steps.append(.described(path: path, key: key, digest: digest))
            if let position = recordAt[path], records[position].key == key {
                let record = records[position]
                if let failure = record.failure {
                    found[entry.index] = .blacklisted(failure, fromCache: true)
                    continue
                }
                if let descriptor = record.descriptor, record.created.contains(digest) {
                    found[entry.index] = .descriptor(descriptor, created: nil, loadTime: nil, fromCache: true)
                    continue
                }
            }
            items.append(PluginScanner.Item(index: entry.index, request: Self.request(entry, path: path), file: path))
        }

        if !items.isEmpty {
            var stepOf: [Int: Step] = [:]
            for (entry, step) in zip(manifest.plugins, steps) { stepOf[entry.index] = step }
            let header = PluginScanWire.bytes(["app": .object(manifest.app.infoJSON), "allowWritable": .bool(allowWritable)])
            let outcomes = scanner.scan(header: header, items: items)
            var descriptors: [Int: ScanRecord.Descriptor] = [:]
            for item in items {  // in order: a descriptor is carried by an earlier item than those referring to it
                guard case .described(let path, let key, let digest)? = stepOf[item.index] else { continue }
                switch outcomes[item.index] {
                case .reported(let report)?:
                    let outcome = Self.read(report, path: path, descriptors: &descriptors, index: item.index)
                    found[item.index] = outcome
                    if case .descriptor(let descriptor, let created, _, _) = outcome {
                        var record = recordAt[path].map { records[$0] }.flatMap { $0.key == key && $0.failure == nil ? $0 : nil }
                            ?? ScanRecord(key: key)
                        record.descriptor = descriptor
                        if created == nil, !record.created.contains(digest) {
                            record.created = Array((record.created + [digest]).suffix(ScanCache.createdLimit))
                        }
                        Self.store(record, in: &records, at: &recordAt)
                        changed = true
                    }
                case .failed(let failure)?:
                    found[item.index] = .blacklisted(failure, fromCache: false)
                    Self.store(ScanRecord(key: key, failure: failure), in: &records, at: &recordAt)
                    changed = true
                case .notInspected(let reason)?:
                    found[item.index] = .error(.inspected(path: path, check: 4,
                                                          message: "plugin \"\(path)\": expected a child process to scan it, found \(reason)"))
                case nil:
                    found[item.index] = .error(.inspected(path: path, check: 4,
                                                          message: "plugin \"\(path)\": expected a child process to scan it, found none"))
                }
            }
        }
        if let cache, changed, let warning = cache.write(records) { warnings.append(warning) }

        // Checks 9 and 10 across entries, in manifest order, then the outcome of making the subscribers.
        var owners: [String: String] = [:]  // subscriber name → the entry providing it
        var declaredSets: [String: Set<String>] = [:]  // path → the names its descriptor declares
        var verdicts: [PluginVerdict] = []
        for (entry, step) in zip(manifest.plugins, steps) {
            switch step {
            case .failed(let error):
                verdicts.append(PluginVerdict(entry: entry, outcome: .failed(error)))
            case .described(let path, _, _):
                switch found[entry.index] {
                case .blacklisted(let failure, let fromCache)?:
                    verdicts.append(PluginVerdict(entry: entry, outcome: .failed(.blacklisted(
                        path: path, reason: failure.reason, date: failure.date, cache: cache?.file ?? "")), fromCache: fromCache))
                case .error(let error)?:
                    verdicts.append(PluginVerdict(entry: entry, outcome: .failed(error)))
                case .descriptor(let descriptor, let created, let loadTime, let fromCache)?:
                    let declared = declaredSets[path] ?? Set(descriptor.subscribers)
                    declaredSets[path] = declared
                    do throws(PluginLoadError) {
                        let names = try Self.checkNames(entry, path: path, descriptor: descriptor, declared: declared, owners: &owners)
                        if let created { throw created }
                        let summary = PluginSummary(
                            index: entry.index, source: entry.source.description, name: descriptor.name, id: descriptor.id,
                            version: descriptor.version, vendor: descriptor.vendor, abi: descriptor.abi,
                            swiftVersion: descriptor.swiftVersion, path: path, subscribers: names,
                            declaredSubscribers: descriptor.subscribers, loadTime: loadTime)
                        verdicts.append(PluginVerdict(entry: entry, outcome: .loaded(summary), fromCache: fromCache))
                    } catch {
                        verdicts.append(PluginVerdict(entry: entry, outcome: .failed(error), fromCache: fromCache))
                    }
                case nil:
                    verdicts.append(PluginVerdict(entry: entry, outcome: .failed(.inspected(
                        path: path, check: 4, message: "plugin \"\(path)\": expected a child process to scan it, found none"))))
                }
            }
        }
        return PluginListing(verdicts: verdicts, warnings: warnings)
    }

    /// What the cache or the child found about one entry's file.
    private enum Found {
        /// Its descriptor; `created` the error making its subscribers gave (nil: made and destroyed).
        case descriptor(ScanRecord.Descriptor, created: PluginLoadError?, loadTime: Duration?, fromCache: Bool)
        /// A load-time check failed in the child.
        case error(PluginLoadError)
        /// Its inspection crashed or hung (now, or as the cache remembers).
        case blacklisted(ScanRecord.Failure, fromCache: Bool)
    }

    /// Reads the child's report on item `index` of file `path`; `descriptors` holds the descriptors
    /// reported so far, by item.
    private static func read(_ report: JSONObject, path: String, descriptors: inout [Int: ScanRecord.Descriptor],
                             index: Int) -> Found {
        func error(_ value: JSONValue?) -> PluginLoadError? {
            guard let value else { return nil }
            guard let check = value["check"]?.intValue, (1...10).contains(check), let message = value["message"]?.stringValue else {
                return .inspected(path: path, check: 4, message: "plugin \"\(path)\": expected an error the scanner child can describe, found a malformed one")
            }
            return .inspected(path: path, check: check, message: message)
        }
        if let failure = error(report["error"]) { return .error(failure) }
        let descriptor: ScanRecord.Descriptor?
        if let value = report["descriptor"] {
            descriptor = ScanRecord.Descriptor(json: value)
        } else {
            descriptor = report["descriptorAt"]?.intValue.flatMap { descriptors[$0] }
        }
        guard let descriptor else {
            return .error(.inspected(path: path, check: 8, message: "plugin \"\(path)\": expected the scanner child to report its descriptor, found none that reads"))
        }
        descriptors[index] = descriptor
        let created = report["created"] == true ? nil
            : error(report["createError"]) ?? .inspected(path: path, check: 9, message: "plugin \"\(path)\": expected its subscribers to be made, found no report of it")
        let loadTime = report["loadMs"]?.doubleValue.map { Duration.nanoseconds(Int64(($0 * 1e6).rounded())) }
        return .descriptor(descriptor, created: created, loadTime: loadTime, fromCache: false)
    }

    /// Checks 9 and 10 for `entry`, on its file's descriptor: the subscribers to make.
    private static func checkNames(_ entry: ManifestPlugin, path: String, descriptor: ScanRecord.Descriptor,
                                   declared: Set<String>, owners: inout [String: String]) throws(PluginLoadError) -> [String] {
        for name in entry.subscribers where !declared.contains(name) {
            throw .unknownSubscriber(path: path, name: name, declared: descriptor.subscribers)
        }
        if entry.subscribers.isEmpty {
            for name in entry.subscriberOptionNames where !declared.contains(name) {
                throw .unknownSubscriber(path: path, name: name, declared: descriptor.subscribers)
            }
        }
        let names = entry.subscribers.isEmpty ? descriptor.subscribers : entry.subscribers
        for name in names {
            if let provider = owners[name] { throw .duplicateSubscriber(path: path, name: name, provider: provider) }
        }
        let provider = "\(entry.keyPath) \"\(path)\""
        for name in names { owners[name] = provider }
        return names
    }

    /// `record`, newest, in place of the record of its path.
    private static func store(_ record: ScanRecord, in records: inout [ScanRecord], at recordAt: inout [String: Int]) {
        if let position = recordAt[record.key.path] {
            records[position] = record  // its place: moving it would cost the array per file
        } else {
            recordAt[record.key.path] = records.count
            records.append(record)
        }
    }

    /// The item asking the child to inspect `entry` at `path`.
    private static func request(_ entry: ManifestPlugin, path: String) -> [UInt8] {
        var object: JSONObject = [
            "index": .number(Double(entry.index)), "path": .string(path),
            "requested": .array(entry.subscribers.map { .string($0) }), "options": entry.options,
            "subscriberOptions": .array(entry.subscriberOptionNames.map { name in
                [.string(name), .object(entry.subscriberOptions[name] ?? JSONObject())]
            }),
        ]
        if let pin = entry.sha256 { object["sha256"] = .string(pin.hex) }
        return PluginScanWire.bytes(object)
    }

    /// What the subscribers of `entry` are made with, as one digest: the app, the names asked for and
    /// the options. The cache knows a file's subscribers were made cleanly only for these.
    static func optionsDigest(_ entry: ManifestPlugin, app: Application) -> String {
        let document: JSONObject = [
            "app": .object(app.infoJSON), "requested": .array(entry.subscribers.map { .string($0) }), "options": entry.options,
            "subscriberOptions": .array(entry.subscriberOptionNames.map { name in
                [.string(name), .object(entry.subscriberOptions[name] ?? JSONObject())]
            }),
        ]
        return SHA256.hash(JSONValue.object(document).serializedBytes(sortedKeys: true)).hex
    }

    /// ``inspect(_:extraSearchDirectories:allowWritable:)`` with the per-entry loading step given
    /// (tests hand in plugins built in memory).
    @MainActor
    static func inspect(_ manifest: Manifest,
                        loadEntry: (ManifestPlugin, inout [String: String]) throws(PluginLoadError) -> PluginSet.Plugin)
        -> [PluginVerdict]
    {
        let sink = HostLogRecorder(retaining: false)  // what create logs is not part of a listing
        var owners: [String: String] = [:]  // subscriber name → the entry providing it
        return manifest.plugins.map { entry in
            do throws(PluginLoadError) {
                let plugin = try loadEntry(entry, &owners)
                try plugin.makeSubscribers(application: manifest.app, sink: sink).forEach { $0.destroy() }
                return PluginVerdict(entry: entry, outcome: .loaded(PluginSummary(plugin)))
            } catch {
                return PluginVerdict(entry: entry, outcome: .failed(error))
            }
        }
    }
}
