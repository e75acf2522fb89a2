/* The only C the Swift side sees of SQLite. Each adapter exists because Swift cannot spell what it
 * wraps: SQLITE_TRANSIENT is a function pointer cast from -1, which Swift does not import. */
#ifndef FORMWRIGHT_CSQLITE_SHIM_H
#define FORMWRIGHT_CSQLITE_SHIM_H

#include <sqlite3.h>

/* Binds `count` bytes of UTF-8 text, which SQLite copies before the call returns. */
static inline int CSQLite_bindText(sqlite3_stmt *statement, int index, const char *text, int count)
{
    return sqlite3_bind_text(statement, index, text, count, SQLITE_TRANSIENT);
}

/* Binds `count` bytes, which SQLite copies before the call returns. */
static inline int CSQLite_bindBlob(sqlite3_stmt *statement, int index, const void *bytes, int count)
{
    return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

#endif
