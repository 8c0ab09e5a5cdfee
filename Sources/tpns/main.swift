import CLinux
import Posix
import TPNSCommandLine

#if canImport(Glibc)
  import Glibc
#endif

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
// A short-lived process: large blocks (a 10,000-UID store's buffers) come from
// the heap and go back to it, not mmap'd and munmap'd each time (a fresh
// mapping is a page fault per 4 KiB touched; page faults were a third of
// `tpns list`'s samples with 9,999 UIDs, perf record).
_ = tpns_keep_large_allocations_in_heap()
TPNS.main()
