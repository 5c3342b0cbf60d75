#ifndef STREAKCAL_CALLOCATORSETTINGS_H
#define STREAKCAL_CALLOCATORSETTINGS_H

/// Whether the process allocates with jemalloc (`scripts/build-release` links it in) rather than
/// the C library's own allocator: 1 or 0.
int streakcal_allocator_is_jemalloc(void);

/// jemalloc's version (such as "5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c"), or NULL when
/// the process allocates with another allocator.
const char *streakcal_allocator_version(void);

#endif
