import CLinux
import Posix
import TPNSServerCommand

// A crash ends the process (the Swift backtracer waited forever once the
// serving threads ran), so that a service manager restarts it.
Signals.endOnFatalSignals()

// The registry's batches of waiting registrations (about 1 MB each) come and go:
// mapped apart, they leave no holes in the serving threads' heaps (peak RSS under
// `wrk`: 31.2 -> 25.4 MB). Below 512 KiB, a 10,000-UID mapsync's buffers stay in the
// heaps, reused request after request (mapped, each cost its page faults again).
_ = tpns_map_large_allocations(512 * 1024)

// `exec`'s COMMAND is everything from its name on: the `--` before it is optional.
ServerCommand.main(ServerCommand.Exec.separatingCommand(Array(CommandLine.arguments.dropFirst())))
