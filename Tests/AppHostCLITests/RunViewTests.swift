#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import AppHostCLI
import SubscriberEventModel

/// The closing line and the lines written out agree, whatever the main thread does while the ending
/// thread writes out (a main thread starved past ``OutputClaims/patience`` goes on meanwhile).
///
/// Found beside two CPU hogs: 3,254 lines, and a closing line saying 3,255 events were written —
/// the ending thread wrote the buffers out, then the main thread appended event 3,255's line and
/// said it written, then the ending thread read "after event 3,255". These put the main thread's
/// steps between the ending thread's by hand (``Survival/writeEverything(_:timer:interrupted:view:between:)``'s
/// `between`, after the state is taken), on a view of their own: no signal, no timing.
@Suite("The closing line and the lines written out agree", .serialized)  // one closing line composed at a time
struct RunViewTests {
    typealias Pipe = SignalSafeBufferTests.Pipe

    /// A run's outputs: standard output buffered and written out by the ending thread, the closing
    /// line on a pipe of its own.
    final class Run {
        let view = RunView()
        let output = Pipe(), errors = Pipe()
        let held = SignalSafeBuffer(capacity: 4096)
        let event = LifecycleEvent.allCases[0]

        init() {
            #expect(view.register(held, for: output.write))
            view.errorOutput.store(errors.write, ordering: .releasing)
            view.publish(.loading)
        }

        /// Event `number` starts, as the main thread publishes it.
        func starts(_ number: Int) { view.publish(.event, event: event.index, number: number) }

        /// Event `number`'s line, appended in its section.
        func appendLine(_ number: Int) {
            var line = #"{"event": \#(number)}"# + "\n"
            line.withUTF8 { #expect(held.append($0) != nil) }
        }

        /// A log output on `fd`: its ordinary buffer, and its staged lines (stderr with --json).
        func logOutput(on fd: Int32) -> (held: SignalSafeBuffer, staged: SignalSafeBuffer) {
            let held = SignalSafeBuffer(capacity: 4096), staged = SignalSafeBuffer(capacity: 4096)
            #expect(view.register(held, for: fd))
            #expect(view.register(staged, for: fd, staged: true))
            return (held, staged)
        }

        /// A log line staged; where it ends.
        func stage(_ text: String, in staged: SignalSafeBuffer) throws -> Int {
            var text = text
            return try #require(text.withUTF8 { staged.append($0) })
        }

        /// Survival.write of the staged lines up to `end`: copied into the output's buffer, and
        /// dropped from staging.
        func write(staged: SignalSafeBuffer, upTo end: Int, into held: SignalSafeBuffer) {
            staged.withBytes(from: staged.start, to: end) { #expect(held.append($0) != nil) }
            staged.drop(before: end)
        }

        /// Event `number` played and written the ordinary way, whole.
        func play(_ number: Int) {
            starts(number)
            view.beginSection()
            appendLine(number)
            view.endSection(written: true)
        }

        /// The ending thread writes everything out, `between` running after it took the state; the
        /// lines written and how many events the closing line says were written (`during E (event N)`:
        /// N − 1, `after E (event N)`: N).
        func end(between: (() -> Void)? = nil) throws -> (lines: [String], said: Int, closing: String) {
            Survival.writeEverything(.stop(signal: SIGTERM), timer: nil, view: view, between: between)
            let lines = output.contents().split(separator: "\n").map(String.init)
            let closing = errors.contents()
            let open = try #require(closing.range(of: "(event ")), close = try #require(closing.lastIndex(of: ")"))
            let number = try #require(Int(closing[open.upperBound..<close]))
            return (lines, closing.contains(" during ") ? number - 1 : number, closing)
        }
    }

    /// Each line once, in order: event 1, 2, …
    static func expectInOrder(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(lines == (0..<lines.count).map { #"{"event": \#($0 + 1)}"# }, sourceLocation: sourceLocation)
    }

    @Test("the main thread appends event 3's line and says it written after the ending thread took the state: 2 lines, and the closing line says 2")
    func saidWrittenAfterTheStateWasTaken() throws {
        let run = Run()
        run.play(1)
        run.play(2)
        run.starts(3)
        run.view.beginSection()
        let (lines, said, closing) = try run.end {
            run.appendLine(3)
            run.view.endSection(written: true)
        }
        #expect(lines.count == said, "\(lines.count) lines, closing line: \(closing)")
        #expect(closing == "apphost: stopped by SIGTERM during \(run.event.name) (event 3)\n")
        Self.expectInOrder(lines)
    }

    @Test("event 3's line appended before the ending thread took the state, said written after: 2 lines, and the closing line says 2")
    func appendedBeforeSaidWrittenAfter() throws {
        let run = Run()
        run.play(1)
        run.play(2)
        run.starts(3)
        run.view.beginSection()
        run.appendLine(3)
        let (lines, said, closing) = try run.end { run.view.endSection(written: true) }
        #expect(lines.count == said, "\(lines.count) lines, closing line: \(closing)")
        #expect(lines.count == 2)
        Self.expectInOrder(lines)
    }

    @Test("event 3 written whole before the ending thread took the state, the main thread going on with event 4: 3 lines, and the closing line says 3")
    func writtenBeforeTheStateWasTaken() throws {
        let run = Run()
        (1...3).forEach(run.play)
        let (lines, said, closing) = try run.end {
            run.starts(4)
            // Refused: the main thread writes nothing more (Survival parks it there).
            #expect(!run.view.beginSection())
        }
        #expect(closing == "apphost: stopped by SIGTERM after \(run.event.name) (event 3)\n")
        #expect(lines.count == said && said == 3)
        Self.expectInOrder(lines)
    }

    @Test("the write-out thread writes out while event 3 is being written: its line is held back until it is said written, never written before")
    func writeOutDuringASection() throws {
        let run = Run()
        run.play(1)
        run.play(2)
        run.starts(3)
        run.view.beginSection()
        run.appendLine(3)
        #expect(run.held.writeOut(to: run.output.write) == nil)  // the write-out thread, meanwhile
        #expect(run.held.count > 0, "event 3's line is still held")
        let (lines, said, closing) = try run.end { run.view.endSection(written: true) }
        #expect(lines.count == said && said == 2, "\(lines.count) lines, closing line: \(closing)")
        Self.expectInOrder(lines)
    }

    @Test("once written, a section's bytes go with the next write-out; an offset taken before the buffer was emptied still names the same place")
    func sectionBytesGoOnceWritten() {
        let run = Run()
        run.play(1)
        let first = run.held.end
        #expect(run.held.writeOut(to: run.output.write) == nil)
        #expect(run.held.count == 0 && run.held.start == first, "offsets only grow: emptied, the start is where the end was")
        run.starts(2)
        run.view.beginSection()
        run.appendLine(2)
        #expect(run.held.writeOut(to: run.output.write) == nil)
        #expect(run.held.count > 0)
        run.view.endSection(written: true)
        #expect(run.held.writeOut(to: run.output.write) == nil)
        #expect(run.held.count == 0 && run.held.end > first)
        Self.expectInOrder(run.output.contents().split(separator: "\n").map(String.init))
        _ = run.errors.contents()
    }

    @Test("after the state was taken, nothing the main thread says is published")
    func sealed() {
        let view = RunView()
        view.publish(.event, event: 1, number: 7)
        let taken = view.seal()
        #expect(taken.phase == .event && taken.eventIndex == 1 && taken.eventNumber == 7)
        #expect(!view.publish(.between))
        view.beginSection()
        view.endSection(written: true)
        #expect(view.state.phase == .event && !view.state.inSection && view.state.eventNumber == 7)
    }

    @Test("a staged log line written the ordinary way during event 3, after the ending thread took the state: written once, as under way")
    func stagedLineMovedDuringTheSection() throws {
        let run = Run()
        // The log line's output (stderr with --json): its ordinary buffer, and its staged lines.
        let logs = Pipe()
        let (logsHeld, staged) = run.logOutput(on: logs.write)
        run.play(1)
        run.starts(2)
        let end = try run.stage("log of event 2\n", in: staged)
        run.view.beginSection()
        let (lines, said, _) = try run.end {
            run.write(staged: staged, upTo: end, into: logsHeld)
            run.appendLine(2)
            run.view.endSection(written: true)
        }
        #expect(lines.count == said && said == 1)
        #expect(logs.contents() == "log of event 2\n")
    }

    @Test("a staged log line written the ordinary way before the ending thread took the state: written once")
    func stagedLineWrittenBefore() throws {
        let run = Run()
        let logs = Pipe()
        let (logsHeld, staged) = run.logOutput(on: logs.write)
        run.starts(1)
        let end = try run.stage("log of event 1\n", in: staged)
        run.view.beginSection()
        run.write(staged: staged, upTo: end, into: logsHeld)
        run.appendLine(1)
        run.view.endSection(written: true)
        let (lines, said, _) = try run.end()
        #expect(lines.count == said && said == 1)
        #expect(logs.contents() == "log of event 1\n")
    }

    @Test("stdout and stderr on one file (2>&1): a log line written out early to keep the order is not written again; the event's line still waits")
    func oneFileForBoth() throws {
        let run = Run()
        // Standard error's buffer and staged lines, on the same pipe as standard output.
        let (errorsHeld, staged) = run.logOutput(on: run.output.write)
        run.play(1)
        run.starts(2)
        let end = try run.stage("log of event 2\n", in: staged)
        run.view.beginSection()
        run.write(staged: staged, upTo: end, into: errorsHeld)
        // Standard output writes next: what standard error holds for the same file goes first.
        #expect(run.held.writeOut(to: run.output.write) == nil)
        #expect(errorsHeld.writeOut(to: run.output.write, ignoringMark: true) == nil)
        run.appendLine(2)
        let (lines, said, _) = try run.end { run.view.endSection(written: true) }
        #expect(lines == [#"{"event": 1}"#, "log of event 2"])
        #expect(said == 1)
    }

    @Test("log lines on a terminal (no buffer of its own: each written as it came) during event 2: each written once, none again")
    func stagedLineOnAnUnbufferedOutput() throws {
        let run = Run()
        // Standard error on a terminal: staged lines, and no held buffer for its descriptor.
        let terminal = Pipe(), staged = SignalSafeBuffer(capacity: 4096)
        #expect(run.view.register(staged, for: terminal.write, staged: true))
        run.play(1)
        run.starts(2)
        run.view.beginSection()
        var line = "log of event 2\n"
        let end = try #require(line.withUTF8 { staged.append($0) })
        // Survival.write: written straight to the terminal, then dropped from staging.
        staged.withBytes(from: staged.start, to: end) { bytes in _ = write(terminal.write, bytes.baseAddress, bytes.count) }
        staged.drop(before: end)
        let (lines, said, _) = try run.end()
        #expect(lines.count == said && said == 1)
        #expect(terminal.contents() == "log of event 2\n")
    }
}
