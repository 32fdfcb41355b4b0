import Foundation
import Testing
import ChildProcess
#if canImport(Glibc)
import Glibc
#endif

/// The test role's main (ChildProcessEntry.c, role "child-process-test"): this test binary started
/// again as a child. It reads one command from its channel and does what a child under test must
/// be seen doing.
@_cdecl("adh_child_process_test_main")
public func childProcessTestMain(_ channel: Int32, _ secret: UnsafePointer<UInt8>?, _ secretLength: Int) -> Int32 {
    let endpoint = ChildEndpoint(channel: channel, secret: secret, length: secretLength)
    guard let command = endpoint.receive() else { return 3 }
    let words = String(decoding: command, as: UTF8.self).split(separator: " ").map(String.init)
    switch words.first {
    case "report":
        // Where the channel is, what the environment still says, which descriptors are open.
        let names: [String] = ["ADH_CHILD_CHANNEL", "ADH_CHILD_REAPER", "ADH_CHILD_ROLE"]
        let variables = names.filter { getenv($0) != nil }
        let flags = fcntl(channel, F_GETFD)
        endpoint.send(Array("fd \(channel) cloexec \(flags & FD_CLOEXEC != 0) variables \(variables.count)".utf8))
        endpoint.send(Array("reaper-channel-open \(fcntl(4, F_GETFD) >= 0)".utf8))
        return 0
    case "forge":
        // Other code in the worker writes to the channel: an unsigned frame between two signed ones.
        endpoint.send(Array("before".utf8))
        _ = ChildChannel.writeAll(ChildChannel.frame(Array(#"{"kind":"verdict","status":"pass"}"#.utf8)), to: channel)
        endpoint.send(Array("after".utf8))
        return 0
    case "break":
        // A length over the limit: nothing after it can be read.
        endpoint.send(Array("first".utf8))
        _ = ChildChannel.writeAll([0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 3], to: channel)
        endpoint.send(Array("lost".utf8))
        return 0
    case "crash":
        endpoint.send(Array("crashing".utf8))
        raise(SIGSEGV)
        return 0
    case "exit":
        return Int32(words.dropFirst().first.flatMap { Int32($0) } ?? 0)
    case "hang":
        // Names a process (it must never be signalled for that), then never answers.
        endpoint.send(Array("pid \(words.dropFirst().first ?? "")".utf8))
        while true { sleep(60) }
    case "chatter":
        // Says something every 20 ms for the given number of milliseconds, then exits.
        let milliseconds = words.dropFirst().first.flatMap { Int($0) } ?? 0
        for index in 0..<max(milliseconds / 20, 1) {
            endpoint.send(Array("tick \(index)".utf8))
            usleep(20_000)
        }
        return 0
    case "leave":
        // A child that outlives the worker, one in a session of its own, then the worker exits.
        for _ in 0..<2 {
            let pid = fork()
            if pid == 0 {
                setsid()
                while true { sleep(60) }
            }
            endpoint.send(Array("left \(pid)".utf8))
        }
        return 0
    default:
        return 4
    }
}

/// The test binary, which links ChildProcess and so can be started as a child.
private let thisExecutable = "/proc/self/exe"

/// The messages a child sent, as text.
private struct Collected: ChildMessageReceiver {
    var messages: [String] = []
    mutating func receive(_ message: [UInt8]) { messages.append(String(decoding: message, as: UTF8.self)) }
}

/// Runs this binary as a test child with `command`.
private func runChild(_ command: String, timeout: Duration = .seconds(20), silence: Duration? = nil,
                      role: String = "child-process-test",
                      executable: String = thisExecutable) throws -> (ChildOutcome, [String]) {
    var collected = Collected()
    var launch = ChildLaunch(executable: executable, environment: ChildProcess.childEnvironment(), role: role,
                             firstMessages: [Array(command.utf8)], timeout: timeout, cleanupGrace: .seconds(2))
    launch.silence = silence
    let outcome = try ChildProcess.run(launch, receiver: &collected)
    return (outcome, collected.messages)
}

/// Whether process `pid` exists (and is not a zombie).
private func isRunning(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    guard let close = stat.lastIndex(of: ")") else { return false }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
}

@Suite("Child processes: spawn, signed channel, reaper")
struct ChildProcessTests {
    @Test("the worker's channel is moved to a random close-on-exec descriptor, the variables are gone, the reaper channel is closed")
    func channelPlacement() throws {
        var descriptors: Set<Int32> = []
        for _ in 0..<3 {
            let (outcome, messages) = try runChild("report")
            #expect(outcome.ending == .exited(0))
            #expect(outcome.reaper == ReaperReport(ending: .exited(0), leftovers: 0, leftoverPIDs: []))
            #expect(outcome.channel == { var report = ChannelReport(); report.signedFrames = 2; report.reaperReports = 1; return report }())
            let words = try #require(messages.first).split(separator: " ")
            let fd = try #require(Int32(words[1]))
            #expect(fd >= 64, "\(messages)")
            #expect(messages.first?.hasSuffix("cloexec true variables 0") == true, "\(messages)")
            #expect(messages.last == "reaper-channel-open false")
            descriptors.insert(fd)
        }
        // Random: three runs landing on one number would be a 1-in-millions coincidence with the limit here.
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur > 1_000 { #expect(descriptors.count > 1, "\(descriptors)") }
    }

    @Test("a frame without the run's secret is counted and shown, never delivered; the signed ones around it are")
    func foreignFrames() throws {
        let (outcome, messages) = try runChild("forge")
        #expect(messages == ["before", "after"])
        #expect(outcome.channel.foreignFrames == 1)
        #expect(String(decoding: outcome.channel.firstForeignFrame, as: UTF8.self) == #"{"kind":"verdict","status":"pass"}"#)
        #expect(outcome.channel.isTampered)
        #expect(outcome.ending == .exited(0))
    }

    @Test("a frame over the limit breaks the stream: reported, and nothing after it is delivered")
    func brokenStream() throws {
        let (outcome, messages) = try runChild("break")
        #expect(messages == ["first"])
        #expect(outcome.channel.failure == "a frame of 2147483647 bytes, over the limit of \(ChildChannel.frameLimit)")
        #expect(outcome.reaper?.ending == .exited(0), "the reaper's report travels apart and still arrives")
    }

    @Test("a crash is reported by the reaper with its signal")
    func crash() throws {
        let (outcome, messages) = try runChild("crash")
        #expect(messages == ["crashing"])
        #expect(outcome.ending == .signaled(SIGSEGV))
        #expect(outcome.processEnding == .exited(0), "the reaper itself ends normally")
    }

    @Test("processes the worker leaves behind, one in its own session, are killed and listed by the reaper")
    func leftovers() throws {
        let (outcome, messages) = try runChild("leave")
        let pids = messages.compactMap { $0.hasPrefix("left ") ? Int32($0.dropFirst(5)) : nil }
        #expect(pids.count == 2)
        let report = try #require(outcome.reaper)
        #expect(report.leftovers == 2)
        #expect(Set(report.leftoverPIDs) == Set(pids))
        for pid in pids { #expect(!isRunning(pid), "\(pid) still running") }
    }

    @Test("at the timeout only what the layer started is stopped: a process the child names lives on")
    func timeoutSignalsOnlyItsOwn() throws {
        // posix_spawn, not Foundation's Process: Foundation's process monitor, woken early for a child,
        // can wait for it with a blocking waitpid and stall every other Process of the test run until
        // it ends. Outputs to /dev/null (not the test run's pipe); ended by SIGKILL and reaped here.
        var victim: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("60"), nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [Int32(0), 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        try #require(posix_spawn(&victim, "/bin/sleep", &actions, nil, argv, environ) == 0)
        defer {
            kill(victim, SIGKILL)
            var status: Int32 = 0
            while waitpid(victim, &status, 0) < 0 && errno == EINTR {}
        }
        let (outcome, messages) = try runChild("hang \(victim)", timeout: .seconds(1))
        #expect(messages == ["pid \(victim)"])
        #expect(outcome.ending == .timedOut)
        // The reaper stopped its worker and reported it: had the grace period run out, the layer would
        // have killed the whole group, reaper included, and no report would have come.
        #expect(outcome.reaper?.ending == .signaled(SIGKILL))
        #expect(isRunning(victim), "the process the child named was signalled")
    }

    @Test("a budget of silence: a silent child is stopped at it, long before the timeout; one that keeps talking is not")
    func silence() throws {
        let (hung, said) = try runChild("hang 0", timeout: .seconds(600), silence: .seconds(1))
        #expect(said == ["pid 0"])
        #expect(hung.ending == .timedOut)
        #expect(hung.duration < .seconds(300), "stopped by the silence budget, not the timeout")
        // Talks for 2.5 s, never silent for 2 s: not stopped, whatever the budget of silence.
        let (talker, ticks) = try runChild("chatter 2500", timeout: .seconds(600), silence: .seconds(2))
        #expect(talker.ending == .exited(0))
        #expect(ticks.count == 125)
    }

    @Test("an executable that is no child of this layer says nothing: no signed frame, no report")
    func notAChild() throws {
        let (outcome, messages) = try runChild("report", executable: "/bin/true")
        #expect(messages.isEmpty)
        #expect(outcome.reaper == nil)
        #expect(outcome.channel.signedFrames == 0 && outcome.channel.foreignFrames == 0)
        #expect(outcome.ending == .exited(0))
    }

    @Test("a role this executable has no main for is refused before anything runs, on standard error")
    func unknownRole() throws {
        let (outcome, messages) = try runChild("report", role: "no-such-role")
        #expect(messages.isEmpty)
        #expect(outcome.ending == .exited(2))
        let said = String(decoding: outcome.standardError.kept, as: UTF8.self)
        #expect(said.contains("expected ADH_CHILD_ROLE to name a role whose main this executable links"), "\(said)")
    }

    @Test("an executable that cannot be started is an error naming it")
    func spawnFailure() {
        #expect(throws: ChildProcessError(executable: "/nonexistent/child", reason: "No such file or directory")) {
            _ = try runChild("report", executable: "/nonexistent/child")
        }
    }
}

@Suite("Child processes: frames and captured output")
struct ChildFrameTests {
    @Test("channel frames: split anywhere, several per read, and a frame over the limit stops the stream")
    func frames() {
        let stream = ChildChannel.frame(Array("hello".utf8)) + ChildChannel.frame([]) + ChildChannel.frame(Array("verdict".utf8))
        for split in 0...stream.count {
            var decoder = ChildFrameDecoder()
            let frames = decoder.feed(stream[..<split]) + decoder.feed(stream[split...])
            #expect(frames == [Array("hello".utf8), [], Array("verdict".utf8)])
        }
        var decoder = ChildFrameDecoder(limit: 4)
        #expect(decoder.feed(ChildChannel.frame(Array("12345".utf8))[...]).isEmpty)
        #expect(decoder.failure == "a frame of 5 bytes, over the limit of 4")
        #expect(decoder.feed(ChildChannel.frame([1])[...]).isEmpty)
    }

    @Test("captured output keeps the last 64 KiB and counts everything")
    func capturedOutput() {
        var output = CapturedOutput()
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 50_000)
        for _ in 0..<3 { block.withUnsafeBytes { output.append($0) } }
        Array("end".utf8).withUnsafeBytes { output.append($0) }
        #expect(output.total == 150_003)
        #expect(output.kept.count == CapturedOutput.limit)
        #expect(output.kept.suffix(4) == Array("xend".utf8))
        var small = CapturedOutput()
        Array("ab".utf8).withUnsafeBytes { small.append($0) }
        #expect(small.kept == Array("ab".utf8))
    }

    @Test("secrets are random and of the layer's size")
    func secrets() {
        let first = ChildSecret.random(), second = ChildSecret.random()
        #expect(first.bytes.count == ChildSecret.size && ChildSecret.size >= 16)
        #expect(first != second)
    }
}
