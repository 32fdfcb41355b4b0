#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import CoreFoundation
import Foundation
import SubscriberKit
import SubscriberEventModel

/// The worker side of a conformance child (the "conformance" role of ChildProcessEntry.h): reads the
/// request from its channel, runs one check on one plugin, sends the verdict, exits. Everything a
/// plugin can do wrong (crash, hang, exit, print, write to descriptors it finds) happens here, in a
/// process the parent can afford to lose.
enum ChildMain {
    /// Runs the worker on its channel (moved high by ``KitChannel``, close-on-exec; every frame signed
    /// with the run's secret); never returns.
    static func enter(channel writer: KitChannel) -> Never {
        // The request arrives before the plugin is loaded: nothing else can have read it.
        guard let payload = writer.receive(),
              let json = try? payload.withUnsafeBytes({ try JSONValue(parsing: $0) }),
              let request = ChildRequest(json: json)
        else {
            printError("conformance child: expected a request on the private channel, found none or a malformed one")
            _exit(2)
        }
        guard let check = CheckRegistry.check(request.check) else {
            printError("conformance child: expected a check id, found '\(request.check)'")
            _exit(2)
        }
        writer.sendUnchecked(ChildWire.hello())
        Task { @MainActor in
            let environment = CheckEnvironment(request: request, progress: ProgressWriter(channel: writer))
            let verdict = await check.run(in: environment)
            writer.sendVerdict(verdict, identity: environment.identity)
            _exit(0)
        }
        // The main actor runs on the main thread's run loop, as in an async `main`; this is before
        // `main`, so run it here. It never returns: the task above ends the process. Entered once, as
        // apphost's (`RunLoop.main.run()` comes back after every source and looks its mode up again).
        while true { CFRunLoopRun() }
    }

    private static func printError(_ message: String) {
        let bytes = Array((message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}

/// The worker's entry, called by the constructor in ChildProcessEntry before `main` when the process
/// was started as a conformance child: its channel and the run's secret. Public only so that it is
/// never stripped; not API.
@_cdecl("adh_conformance_child_main")
public func _conformanceChildMain(_ channel: Int32, _ secret: UnsafePointer<UInt8>?, _ secretLength: Int) -> Int32 {
    ChildMain.enter(channel: KitChannel(channel: channel, secret: secret, length: secretLength))
}
