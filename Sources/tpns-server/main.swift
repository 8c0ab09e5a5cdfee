import CLinux
import TPNSServerCommand

// The registry's batches of waiting registrations (about 1 MB) and a large mapsync's
// buffers come and go: mapped apart, they leave no holes in the serving threads'
// heaps (peak RSS under `wrk`: 31.2 -> 26.2 MB).
_ = tpns_map_large_allocations(128 * 1024)

// `exec`'s COMMAND is everything from its name on: the `--` before it is optional.
ServerCommand.main(ServerCommand.Exec.separatingCommand(Array(CommandLine.arguments.dropFirst())))
