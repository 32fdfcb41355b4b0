import Foundation
import Glibc
import Testing
import BuiltProducts
import GeneratedPlugin

/// Every `apphost` command of the README and the docs runs as written and ends as the page says.
///
/// A code block that holds an `apphost` command (a line of a `sh` block, or a `$ ` line of any block)
/// follows a marker naming the folder its commands run from, relative to the repository's root, and
/// the exit status they end with when it is not 0:
///
///     <!-- run: Examples/ThirdPartyPlugin -->
///     <!-- run: .; exit 1 -->
///
/// The commands run in a scratch copy of the repository (its files linked, `Examples/` copied, so
/// that what a command writes stays there) with this build's products as `.build/debug` and on
/// `PATH`, the built `apphost` run directly. What the pages build with `swift build` is already built;
/// the one plugin this package does not build, the outside package's `libAcmeWelcome.so`, is compiled
/// into its `.build/debug` first. Other `swift` commands (`swift test`, `swift run AcmeNewsApp`) are not
/// run here: `.ci/example-package` runs them.
/// Not on the main actor: the commands take seconds, and other suites' main-actor tests go on meanwhile.
@Suite("README and docs: every apphost command runs as written", .serialized)
struct DocCommandTests {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// README.md and every Markdown page under docs/, as paths relative to the root.
    static func documentationPages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    /// A marked code block: where it is, where it runs, the status it expects, its commands.
    struct Block: CustomStringConvertible {
        var page: String
        var line: Int
        var folder: String
        var status: Int32
        var commands: [String]
        var description: String { "\(page):\(line)" }
    }

    /// A line of a command that calls apphost: `apphost …`, `swift run apphost …`, after a pipe or `&&` too.
    static func callsAppHost(_ command: String) -> Bool { command.contains(#/(^|[|&;]\s*)(swift run )?apphost(\s|$)/#) }

    /// Every fenced block of `page` that is marked or holds an apphost command, and whether it is marked.
    static func blocks(in page: String) throws -> [(block: Block, marked: Bool)] {
        let lines = try String(contentsOfFile: root + "/" + page, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [(Block, Bool)] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else { index += 1; continue }
            let isShell = fence == "```sh"
            let start = index
            var body: [String] = []
            index += 1
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            // Logical lines: a line ending in `|`, `\` or `&&` goes on.
            var commands: [String] = []
            var pending = ""
            for raw in body {
                var line = raw.trimmingCharacters(in: .whitespaces)
                if !isShell {
                    guard pending.isEmpty ? line.hasPrefix("$ ") : true else { continue }
                    if pending.isEmpty { line = String(line.dropFirst(2)) }
                }
                let code = line.replacing(/\s+#\s.*$/, with: "")
                pending += (pending.isEmpty ? "" : " ") + line
                if code.hasSuffix("|") || code.hasSuffix("\\") || code.hasSuffix("&&") {
                    if code.hasSuffix("\\") { pending = String(pending.replacing(/\\\s*(#.*)?$/, with: "")) }
                    continue
                }
                if !pending.isEmpty, !pending.hasPrefix("#") { commands.append(pending) }
                pending = ""
            }
            // The marker: the nearest line before the fence that is not blank.
            var markerLine = start - 1
            while markerLine >= 0, lines[markerLine].trimmingCharacters(in: .whitespaces).isEmpty { markerLine -= 1 }
            var block = Block(page: page, line: start + 1, folder: "", status: 0, commands: commands)
            if markerLine >= 0, let match = lines[markerLine].wholeMatch(of: /<!-- run: ([^;]+?)(?:; exit (\d+))? -->/) {
                block.folder = String(match.output.1)
                block.status = match.output.2.flatMap { Int32($0) } ?? 0
                found.append((block, true))  // a marked block runs, with or without apphost (a build step before)
            } else if commands.contains(where: { callsAppHost($0) }) {
                found.append((block, false))
            }
        }
        return found
    }

    /// `command` as it runs here: the build steps before it left out (done), `swift run apphost` as
    /// the built `apphost`; nil for a command this test does not run (another `swift` command).
    static func runnable(_ command: String) -> String? {
        var command = command.replacing(#/^swift build( --product \S+)? && /#, with: "")
        command = command.replacing("swift run apphost", with: "apphost")
        return command.hasPrefix("swift ") ? nil : command
    }

    @Test("every code block with an apphost command says where it runs")
    func everyCommandBlockIsMarked() throws {
        var count = 0
        for page in try Self.documentationPages() {
            for (block, marked) in try Self.blocks(in: page) where block.commands.contains(where: { Self.callsAppHost($0) }) {
                count += 1
                #expect(marked, "\(block): an apphost command without a `<!-- run: FOLDER -->` marker before its block")
                #expect(FileManager.default.fileExists(atPath: Self.root + "/" + block.folder), "\(block): no folder \(block.folder)")
            }
        }
        #expect(count >= 8, "the docs' command blocks were not found")
    }

    @Test("the commands of every marked block run and end with the status the page gives")
    func everyCommandRuns() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var ran = 0
        for page in try Self.documentationPages() {
            for (block, marked) in try Self.blocks(in: page) where marked {
                for command in block.commands {
                    guard let runnable = Self.runnable(command) else { continue }
                    let expected = Self.callsAppHost(runnable) ? block.status : 0
                    let result = try scratch.run(runnable, in: block.folder)
                    ran += 1
                    #expect(result.status == expected,
                            """
                            \(block): `\(command)` in \(block.folder) exited \(result.status), expected \(expected)
                            stdout: \(result.stdout.suffix(1500))
                            stderr: \(result.stderr.suffix(1500))
                            """)
                }
            }
        }
        #expect(ran >= 15, "only \(ran) commands ran")
    }

    @Test("the Swift guide's event script launches before it opens a URL, and the URL is handled")
    func swiftGuideScriptHandlesTheURL() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let block = try #require(try Self.blocks(in: "docs/writing-plugins-swift.md").first { $0.marked }?.block)
        let script = try #require(block.commands.first { $0.contains("openURL") })
        let command = try #require(Self.runnable(script)).replacing(#/\s+#\s.*$/#, with: "")
        let result = try scratch.run(command + " --json", in: block.folder)
        #expect(result.status == 0, "\(result.stderr)")
        let opened = result.stdout.split(separator: "\n").first { $0.contains(#""event":"openURL""#) }
        #expect(opened?.contains(#""result":true"#) == true, "\(result.stdout)")
    }

    /// A scratch copy of the repository for the commands: its top-level entries linked, `Examples/`
    /// copied, `.build/debug` this build's products, `libAcmeWelcome.so` compiled where the outside
    /// package's `swift build` puts it.
    struct Scratch {
        let path: String

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("doc-commands-\(getpid())-\(UUID().uuidString)").path
            let files = FileManager.default
            try files.createDirectory(atPath: path, withIntermediateDirectories: true)
            for entry in try files.contentsOfDirectory(atPath: DocCommandTests.root)
            where ![".build", ".git", "Examples"].contains(entry) && !entry.hasPrefix(".build") {
                try files.createSymbolicLink(atPath: path + "/" + entry, withDestinationPath: DocCommandTests.root + "/" + entry)
            }
            try files.createDirectory(atPath: path + "/.build", withIntermediateDirectories: true)
            try files.createSymbolicLink(atPath: path + "/.build/debug", withDestinationPath: BuiltProducts.directory)
            try Self.copySources(from: DocCommandTests.root + "/Examples", to: path + "/Examples")
            let products = URL(fileURLWithPath: path + "/Examples/ThirdPartyPlugin/.build/debug")
            try files.createDirectory(at: products, withIntermediateDirectories: true)
            _ = try GeneratedPlugin.compilePlugin(
                sources: [URL(fileURLWithPath: path + "/Examples/ThirdPartyPlugin/Sources/AcmeWelcome/AcmeWelcome.swift")],
                module: "AcmeWelcome", into: products, sdk: .sharedLibrary)  // as its package builds it
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }

        /// Copies the folder `source` to `destination`, without what building left in it (an example
        /// package built in the clone: its `.build`, `.swiftpm`, a compiled plugin).
        static func copySources(from source: String, to destination: String) throws {
            let files = FileManager.default
            try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
            for entry in try files.contentsOfDirectory(atPath: source)
            where !entry.hasPrefix(".build") && entry != ".swiftpm" && !entry.hasSuffix(".so") {
                var isFolder: ObjCBool = false
                _ = files.fileExists(atPath: source + "/" + entry, isDirectory: &isFolder)
                if isFolder.boolValue {
                    try copySources(from: source + "/" + entry, to: destination + "/" + entry)
                } else {
                    try files.copyItem(atPath: source + "/" + entry, toPath: destination + "/" + entry)
                }
            }
        }

        /// Runs `command` with `/bin/sh` in `folder` of the scratch copy, standard input empty, as a
        /// shell starts it (no signal blocked or ignored), this build's products first on `PATH`;
        /// killed after 10 minutes (a hang, not a slow machine).
        func run(_ command: String, in folder: String) throws -> (status: Int32, stdout: String, stderr: String) {
            let out = path + "/.stdout", err = path + "/.stderr"
            let script = "cd \"$1\" && { \(command)\n} >\"$2\" 2>\"$3\" </dev/null"
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = BuiltProducts.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["NO_COLOR"] = "1"
            environment["GITHUB_RUN_NUMBER"] = "7"
            let status = Self.spawnShell(script, [path + "/" + folder, out, err], environment: environment, limit: 600)
            let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            return (status, stdout, stderr)
        }

        /// `/bin/sh -c script` with `arguments` as $1…, every signal at its default and none blocked;
        /// its exit status (128 + N for a signal), or -1 when it could not start.
        static func spawnShell(_ script: String, _ arguments: [String], environment: [String: String], limit seconds: Int) -> Int32 {
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), all = sigset_t()
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let argv = (["/bin/sh", "-c", script, "sh"] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid = pid_t()
            guard posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, envp) == 0 else { return -1 }
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(TimeInterval(seconds))
            while true {
                let done = waitpid(pid, &status, WNOHANG)
                if done == pid { break }
                if done < 0 && errno != EINTR { return -1 }
                if Date() > deadline { kill(pid, SIGKILL) }
                usleep(20_000)
            }
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
    }
}

/// The Swift samples of the docs that are not whole files but declarations a plugin's file holds:
/// those marked `<!-- compiles -->` compile against SubscriberKit, together, as one plugin module;
/// one marked `<!-- does not compile: MESSAGE -->` (a mistake the page shows) fails to compile, alone,
/// and the compiler says MESSAGE. `import Foundation` and `import SubscriberKit` are added where a
/// sample has none.
@Suite("Docs: the Swift samples compile, or fail as the page says")
struct DocSnippetTests {
    /// Every marked sample of the docs: its page, the message it must fail with (nil: it compiles), its code.
    static func samples() throws -> [(page: String, failure: String?, code: String)] {
        var samples: [(page: String, failure: String?, code: String)] = []
        for page in try DocCommandTests.documentationPages() {
            let text = try String(contentsOfFile: DocCommandTests.root + "/" + page, encoding: .utf8)
            var searchStart = text.startIndex
            while let match = text[searchStart...].firstMatch(of: #/<!-- (compiles|does not compile: (.+?)) -->/#) {
                let fence = try #require(text.range(of: "```swift\n", range: match.range.upperBound..<text.endIndex))
                #expect(text[match.range.upperBound..<fence.lowerBound].allSatisfy { $0.isWhitespace }, "\(page): a sample must follow its marker")
                let closing = try #require(text.range(of: "```", range: fence.upperBound..<text.endIndex))
                var code = String(text[fence.upperBound..<closing.lowerBound])
                while code.last?.isWhitespace == true { code.removeLast() }  // the indentation of a fence in a list item
                samples.append((page, match.output.2.map(String.init), code))
                searchStart = closing.upperBound
            }
        }
        return samples
    }

    /// `code` compiled as a plugin module of its own files; what the compiler said when it failed.
    static func compile(_ codes: [String], in folder: URL) throws {
        var files: [URL] = []
        for (index, code) in codes.enumerated() {
            let imports = code.contains("import SubscriberKit") ? "" : "import Foundation\nimport SubscriberKit\n\n"
            let file = folder.appendingPathComponent("Sample\(index).swift")
            try Data((imports + code + "\n").utf8).write(to: file)
            files.append(file)
        }
        _ = try GeneratedPlugin.compilePlugin(sources: files, module: "DocSamples", into: folder)
    }

    @Test func everySampleCompilesOrFailsAsThePageSays() throws {
        let samples = try Self.samples()
        #expect(samples.filter { $0.failure == nil }.count >= 2 && samples.contains { $0.failure != nil },
                "the marked samples were not found")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doc-samples-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiling = samples.filter { $0.failure == nil }
        #expect(throws: Never.self, "samples of \(Set(compiling.map(\.page)).sorted())") {
            try Self.compile(compiling.map(\.code), in: folder)
        }
        for sample in samples {
            guard let failure = sample.failure else { continue }
            do {
                try Self.compile([sample.code], in: folder)
                Issue.record("\(sample.page): a sample the page says does not compile compiled")
            } catch {
                #expect("\(error)".contains(failure), "\(sample.page): expected the compiler to say \(failure); it said: \(error)")
            }
        }
    }
}
