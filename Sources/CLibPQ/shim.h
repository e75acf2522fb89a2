/* The only C the Swift side sees of PostgreSQL's client library, libpq. Nothing to adapt: its calls
 * take and give plain C types. */
#ifndef FORMWRIGHT_CLIBPQ_SHIM_H
#define FORMWRIGHT_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
