#include "CAllocatorSettings.h"

#include <stddef.h>

/// jemalloc's options for `streakcal` (read by jemalloc when it starts, before `main`; the C
/// library's allocator never reads it). The defaults suit servers with many threads; a run of
/// `streakcal` has a thread or two per processor, and a peak memory target (48 MB on any input):
///
/// - `percpu_arena:percpu`: an arena per processor, each thread taking its processor's (the
///   default, four arenas per processor, gives each thread an arena that keeps pages of its own;
///   one arena for all made `batch --jobs 2` wait on its lock: 1.67 times as fast as `--jobs 1`
///   on 400 calendars, against 1.83 times with an arena per processor);
/// - `tcache_max:4096`: each thread's cache keeps blocks up to 4 KiB (the default, 32 KiB, keeps
///   a calendar's larger buffers in each thread);
/// - `dirty_decay_ms:500`, `muzzy_decay_ms:0`: freed pages go back to the kernel within half a
///   second rather than ten, at once rather than in two steps.
///
/// On this project's machine (2 processors), `streakcal report` of the 1 GiB zones benchmark
/// calendar peaked at 46.0 MiB with an arena per processor and the default cache and decay, and at
/// 43.3 MiB with all four (40.7 MiB with glibc's allocator, which took 5.9 s against 5.5 s).
const char *malloc_conf = "percpu_arena:percpu,tcache_max:4096,dirty_decay_ms:500,muzzy_decay_ms:0";

/// jemalloc's control interface: a weak reference, NULL when jemalloc is not linked in.
extern int mallctl(const char *name, void *oldValue, size_t *oldLength, void *newValue, size_t newLength)
    __attribute__((weak));

int streakcal_allocator_is_jemalloc(void) {
    return mallctl != NULL;
}
