// apphost: the command line, thin over AppHostCLI.
import AppHostCLI
import CoreFoundation
import Foundation

// `apphost … | head` closes the pipe early: let writes fail with EPIPE (the output code stops
// writing then) instead of the default SIGPIPE killing the process with status 141.
signal(SIGPIPE, SIG_IGN)
// First, before the run loop opens descriptors of its own.
AppHostCommand.prepareProcess()

// The main actor (where the host and its dispatcher live) runs on the main thread's run loop. Not
// an async main: that drains the main queue with dispatch_main, which lets the main thread exit
// (main-actor code then runs on a worker thread) and, a second later, makes the main thread open a
// descriptor — a crash inside libdispatch once a plugin holds every descriptor.
Task { @MainActor in
    exit(await AppHostCommand.main(CommandLine.arguments))
}
// Entered once: `RunLoop.main.run()` comes back to Swift after every source it handles and looks
// the mode up by name again (a string hashed each time the main queue wakes it). In a loop, so that
// a plugin stopping the main run loop does not end the run.
while true { CFRunLoopRun() }
