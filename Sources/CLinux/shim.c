#include "CLinux.h"

#include <sys/prctl.h>

int tpns_disable_dumping(void) { return prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L); }

int tpns_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L); }
