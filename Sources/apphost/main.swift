// apphost: the command line, thin over AppHostCLI. Placeholder until the commands land.
import AppHostCLI
