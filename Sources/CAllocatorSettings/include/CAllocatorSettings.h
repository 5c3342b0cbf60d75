#ifndef STREAKCAL_CALLOCATORSETTINGS_H
#define STREAKCAL_CALLOCATORSETTINGS_H

/// Whether the process allocates with jemalloc (`scripts/build-release` links it in) rather than
/// the C library's own allocator: 1 or 0.
int streakcal_allocator_is_jemalloc(void);

#endif
