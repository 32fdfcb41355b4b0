import SubscriberHost

/// `apphost list --manifest FILE [--json]`: every plugin a manifest names, its subscribers, ABI and
/// Swift versions, path, and load error. A diagnostic: each entry is loaded on its own and gets its
/// own verdict, so a failing plugin (optional or required) is shown, not fatal.
enum ListCommand {
    /// The command's options.
    static let spec = CommandSpec(
        name: "list",
        summary: "List the plugins a manifest names: subscribers, ABI and Swift versions, paths, load errors.",
        options: [
            .value("manifest", "FILE", short: "m", help: "The manifest to read.", required: true),
            .flag("json", help: "Print one JSON document instead of text."),
            .value("plugin-dir", "DIR", help: "Also search DIR for library plugins.", repeatable: true),
            .flag("allow-writable", help: "Turn the plugin path check off (unsafe): accept files or folders writable by others or owned by another user."),
        ]
    )

    /// What `list --help` adds after the options.
    static let helpEpilogue = """

        Every entry is loaded on its own, in manifest order, through the same ten checks a run uses,
        and each of its subscribers is made and destroyed; a failing entry is listed with the check
        it failed and the listing goes on. Plugins are loaded in a child process, never in apphost
        itself; what it finds is kept in the scan cache ($XDG_CACHE_HOME/apphost/scan-cache.json,
        else ~/.cache/apphost/), and a file whose scan crashed or hung is listed as
        blacklisted, and refused by a run, until the file changes (or the cache is deleted).

        Exit status:
          0  every required plugin loads (optional ones may fail)
          1  a required plugin fails a load check
          2  usage error, a manifest that cannot be read, or output that cannot be written

        """

    /// Runs the command; returns the exit status. On the main actor, as every command.
    @MainActor
    static func run(_ arguments: ParsedArguments, output: TextOutput, errors: TextOutput) -> Int32 {
        let file = arguments.value("manifest") ?? ""
        let manifest: Manifest
        do {
            manifest = try Manifest(contentsOfFile: file)
        } catch {
            errors.singleLine("apphost: " + ErrorLine.text(for: error))
            return ExitStatus.usage
        }
        let listing = PluginInspector.inspect(manifest, extraSearchDirectories: arguments.values("plugin-dir"),
                                              allowWritable: arguments.flag("allow-writable"), cache: ScanCache.standard())
        for warning in listing.warnings { errors.singleLine("apphost: warning: " + warning) }
        let verdicts = listing.verdicts
        let renderer = PluginListRenderer(style: .for(output))
        if arguments.flag("json") {
            output.write(renderer.json(manifestFile: file, app: manifest.app, verdicts: verdicts))
        } else {
            output.write(renderer.human(manifestFile: file, app: manifest.app, verdicts: verdicts))
        }
        return verdicts.contains(where: \.isFatal) ? ExitStatus.failure : ExitStatus.success
    }
}
