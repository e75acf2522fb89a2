#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, aligned variants) made by this process so far.
uint64_t allocation_counter_count(void);

#endif
