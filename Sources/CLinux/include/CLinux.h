#ifndef TPNS_CLINUX_H
#define TPNS_CLINUX_H

#include <stddef.h>

// Typed wrappers over Linux calls Swift cannot make (prctl is variadic).

/// prctl(PR_SET_DUMPABLE, 0): no core dump of this process, and its /proc
/// files (environ, mem, ...) owned by root, so that the token in its memory
/// stays in it. Returns 0, or -1 with errno set.
int tpns_disable_dumping(void);

/// prctl(PR_GET_DUMPABLE): 1 if the process may be dumped, 0 if not, -1 on error.
int tpns_dumpable(void);

/// For a long-lived server: every allocation of `threshold` bytes or
/// more is a mapping of its own, returned to the system when freed (mallopt
/// M_MMAP_THRESHOLD, which also stops glibc raising the threshold each time such a
/// block is freed, after which big blocks came from the heaps and left holes
/// there). Returns 1 on success.
int tpns_map_large_allocations(size_t threshold);

#endif
