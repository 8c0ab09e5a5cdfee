#ifndef TPNS_CLINUX_H
#define TPNS_CLINUX_H

// Typed wrappers over Linux calls Swift cannot make (prctl is variadic;
// sched_getaffinity and CPU_COUNT need _GNU_SOURCE).

/// prctl(PR_SET_DUMPABLE, 0): no core dump of this process, and its /proc
/// files (environ, mem, ...) owned by root, so that the token in its memory
/// stays in it. Returns 0, or -1 with errno set.
int tpns_disable_dumping(void);

/// prctl(PR_GET_DUMPABLE): 1 if the process may be dumped, 0 if not, -1 on error.
int tpns_dumpable(void);

/// How many processors this process may run on (sched_getaffinity: taskset, a
/// container's cpuset), or -1 on error.
int tpns_usable_processors(void);

#endif
