// apphost: the command line, thin over AppHostCLI. Top-level await makes this an async main, so the
// main actor (where the host and its dispatcher live) runs on the main thread.
import AppHostCLI
import Foundation

exit(await AppHostCommand.main(CommandLine.arguments))
