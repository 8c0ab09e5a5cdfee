// sqlite3 for Swift, plus wrappers for what Swift cannot import.
#ifndef TPNS_CSQLITE_H
#define TPNS_CSQLITE_H

#include <sqlite3.h>

/// `sqlite3_bind_text` with `SQLITE_TRANSIENT` (a macro casting -1 to a function
/// pointer, which Swift cannot import): SQLite copies the bytes before returning.
int tpns_sqlite3_bind_text(sqlite3_stmt *_Nonnull statement, int index,
                           const char *_Nonnull text, int length);

/// Turns off SQLite's memory statistics (`sqlite3_config` is variadic): they take a
/// global mutex on every allocation. Call before any other SQLite use; returns the
/// result code (SQLITE_MISUSE once SQLite is initialised, which is harmless).
int tpns_sqlite3_disable_memory_statistics(void);

#endif
