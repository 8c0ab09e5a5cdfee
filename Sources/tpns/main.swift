import TPNSCommandLine

#if canImport(Glibc)
  import Glibc
#endif

// A file-size limit (`ulimit -f`) must fail the write with EFBIG, reported
// as "cannot write" (exit 73) like a full disk, not kill the process mid-write.
signal(SIGXFSZ, SIG_IGN)
TPNS.main()
