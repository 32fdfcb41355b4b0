import SubscriberHost
import SubscriberKit

/// Renders `apphost list`: every manifest entry with its verdict, for people or as one JSON document.
package struct PluginListRenderer: Sendable {
    /// Colour, or plain text (human output only).
    package var style: Style

    /// A renderer.
    package init(style: Style) {
        self.style = style
    }

    /// One block per entry: ✓ with the plugin's name, id, ABI, Swift version, path and subscribers,
    /// or ✗ with the failed check. A file several entries load lists the subscribers it declares at
    /// the first of them only (``DeclaredLists``).
    package func human(manifestFile: String, app: Application, verdicts: [PluginVerdict]) -> String {
        let failed = verdicts.filter { if case .failed = $0.outcome { true } else { false } }.count
        var lines = [DisplayText.appTitle(app, manifestFile: manifestFile, style: style),
                     "\(verdicts.count) plugin\(verdicts.count == 1 ? "" : "s"): \(verdicts.count - failed) loaded, \(failed) failed"]
        var declaredLists = DeclaredLists()
        for verdict in verdicts {
            let entry = verdict.entry
            var title = "\(entry.keyPath)  \(ErrorLine.source(entry.source))"
            if entry.priority != 0 { title += "  priority \(entry.priority)" }
            lines.append("")
            switch verdict.outcome {
            case .loaded(let plugin):
                if entry.optional { title += "  optional" }
                lines.append(style.green("✓") + " " + style.bold(title))
                var identity = [plugin.name, plugin.version].map { TerminalText.escaped($0) }.joined(separator: " ")
                    + " · " + TerminalText.escaped(plugin.id)
                if !plugin.vendor.isEmpty { identity += " · \(TerminalText.escaped(plugin.vendor))" }
                var subscribers = DisplayText.names(plugin.subscribers)
                let listedBefore = declaredLists.firstIndex(of: plugin)
                if plugin.subscribers != plugin.declaredSubscribers {
                    if let first = listedBefore {
                        let count = plugin.declaredSubscribers.count
                        subscribers += style.dim(" (declares \(count) subscriber\(count == 1 ? "" : "s"), listed at plugins[\(first)])")
                    } else {
                        subscribers += style.dim(" (declares \(DisplayText.names(plugin.declaredSubscribers)))")
                    }
                }
                lines += [row("plugin", identity),
                          row("built for", "ABI \(TerminalText.escaped(plugin.abi)) · \(TerminalText.escaped(plugin.language))"),
                          row("path", TerminalText.escaped(plugin.path, limit: TerminalText.pathLimit)), row("subscribers", subscribers)]
                if let loadTime = plugin.loadTime {
                    lines.append(row("loaded in", DisplayText.milliseconds(loadTime)))
                } else if verdict.fromCache {
                    lines.append(row("scanned", "earlier (scan cache)"))
                }
            case .failed(let error):
                if case .blacklisted = error { title += "  blacklisted" }
                if entry.optional { title += "  optional (a run skips it)" }
                lines.append((entry.optional ? style.yellow("✗") : style.red("✗")) + " " + style.bold(title))
                if case .blacklisted(_, let reason, let date, _) = error {
                    lines.append(row("blacklisted", TerminalText.line("its scan \(reason) on \(date)")))
                }
                let text = TerminalText.line("check \(error.check) failed: \(ErrorLine.cut(error))")
                lines.append(row("error", entry.optional ? style.yellow(text) : style.red(text)))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"manifest", "app", "plugins": [{"index", "source", "optional", "priority", "status", …}],
    /// "loaded", "failed", "ok"}` on one line. A loaded entry carries the plugin's fields; a failed
    /// one `"error": {"check", "message"}`; a blacklisted one (its inspection crashed or hung) has the
    /// status `"blacklisted"` and `"blacklisted": {"reason", "since"}` too. `scanCache` says whether
    /// the scan cache answered for the entry's file. `ok` is false when a required entry failed. A file several
    /// entries load has its `declaredSubscribers` at the first of them; each later one has
    /// `"declaredSubscribersAt": <that entry's index>` instead (``DeclaredLists``).
    package func json(manifestFile: String, app: Application, verdicts: [PluginVerdict]) -> String {
        var entries: [JSONValue] = []
        var failed = 0
        var declaredLists = DeclaredLists()
        for verdict in verdicts {
            let entry = verdict.entry
            var object: JSONObject = ["index": .number(Double(entry.index))]
            switch entry.source {
            case .library(let name): object["source"] = ["library": .string(name)]
            case .path(let path): object["source"] = ["path": .string(path)]
            }
            object["optional"] = .bool(entry.optional)
            object["priority"] = .number(Double(entry.priority))
            switch verdict.outcome {
            case .loaded(let plugin):
                object["status"] = "loaded"
                for member in plugin.json.members { object[member.key] = member.value }
                if let first = declaredLists.firstIndex(of: plugin) {
                    object["declaredSubscribers"] = nil
                    object["declaredSubscribersAt"] = .number(Double(first))
                }
            case .failed(let error):
                failed += 1
                object["status"] = "failed"
                object["error"] = ["check": .number(Double(error.check)), "message": .string(error.description)]
                if case .blacklisted(_, let reason, let date, _) = error {
                    object["status"] = "blacklisted"
                    object["blacklisted"] = ["reason": .string(reason), "since": .string(date)]
                }
            }
            object["scanCache"] = .bool(verdict.fromCache)
            entries.append(.object(object))
        }
        let document: JSONObject = [
            "manifest": .string(manifestFile), "app": .object(app.infoJSON), "plugins": .array(entries),
            "loaded": .number(Double(verdicts.count - failed)), "failed": .number(Double(failed)),
            "ok": .bool(!verdicts.contains(where: \.isFatal)),
        ]
        return JSONValue.object(document).serialized() + "\n"
    }

    /// Which entry first listed the subscribers a plugin file declares. A plugin may declare 4,096
    /// subscribers and each of 4,096 entries name one of them: listing them all at every entry would
    /// make a listing quadratic in the manifest, so the later entries of a file refer to the first.
    struct DeclaredLists {
        private var firstEntry: [String: Int] = [:]  // a loaded file's path → the entry that listed it

        /// The index of the entry that listed `plugin`'s file before, or nil (and remembered) when
        /// this is its first.
        mutating func firstIndex(of plugin: PluginSummary) -> Int? {
            if let first = firstEntry[plugin.path] { return first }
            firstEntry[plugin.path] = plugin.index
            return nil
        }
    }

    /// `      label        value`.
    private func row(_ label: String, _ value: String) -> String {
        "      " + style.dim(DisplayText.padded(label, 11)) + "  " + value
    }
}
