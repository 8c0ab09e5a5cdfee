import Posix
import TPNSServerCommand

// A crash ends the process (the Swift backtracer waited forever once the
// serving threads ran), so that a service manager restarts it.
Signals.endOnFatalSignals()

// `exec`'s COMMAND is everything from its name on: the `--` before it is optional.
ServerCommand.main(ServerCommand.Exec.separatingCommand(Array(CommandLine.arguments.dropFirst())))
