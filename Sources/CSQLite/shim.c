#include "CSQLite.h"

int tpns_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
  return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

int tpns_sqlite3_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
