#define _GNU_SOURCE
#include "CLinux.h"

#include <sched.h>
#include <sys/prctl.h>

int tpns_disable_dumping(void) { return prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L); }

int tpns_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L); }

int tpns_usable_processors(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  return CPU_COUNT(&set);
}
