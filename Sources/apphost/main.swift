// apphost: the command line, thin over AppHostCLI. Top-level await makes this an async main, so the
// main actor (where the host and its dispatcher live) runs on the main thread.
import AppHostCLI
import Foundation

// `apphost … | head` closes the pipe early: let writes fail with EPIPE (the output code stops
// writing then) instead of the default SIGPIPE killing the process with status 141.
signal(SIGPIPE, SIG_IGN)

exit(await AppHostCommand.main(CommandLine.arguments))
