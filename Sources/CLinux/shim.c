#include <malloc.h>
#include "CLinux.h"

#include <sys/prctl.h>

int tpns_disable_dumping(void) { return prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L); }

int tpns_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L); }

int tpns_keep_large_allocations_in_heap(void) {
  return mallopt(M_MMAP_THRESHOLD, 64 << 20) && mallopt(M_TRIM_THRESHOLD, 128 << 20);
}

int tpns_map_large_allocations(size_t threshold) {
  return mallopt(M_MMAP_THRESHOLD, (int)threshold);
}
