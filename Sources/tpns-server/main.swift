import TPNSServerCommand

// `exec`'s COMMAND is everything from its name on: the `--` before it is optional.
ServerCommand.main(ServerCommand.Exec.separatingCommand(Array(CommandLine.arguments.dropFirst())))
