import CLinux
import Glibc
import Posix
import TPNSCommandLine

// The token is in this process's memory from the start (its arguments, its
// environment, the store): no core dump of it, and no /proc/PID/environ or
// /proc/PID/mem for other processes of the same user (they become root's).
// Before anything else, --help and --version included: one rule, no window.
_ = tpns_disable_dumping()
// A crash ends the process (for `watch`, so that its service restarts).
Signals.endOnFatalSignals()
// A file-size limit (`ulimit -f`) must fail the write with EFBIG, reported
// as "cannot write" (exit 73) like a full disk, not kill the process mid-write.
signal(SIGXFSZ, SIG_IGN)
TPNS.main()
