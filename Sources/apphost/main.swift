// apphost: the command line, thin over AppHostCLI.
import AppHostCLI
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
RunLoop.main.run()
