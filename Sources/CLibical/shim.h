#ifndef STREAKCAL_CLIBICAL_SHIM_H
#define STREAKCAL_CLIBICAL_SHIM_H

#include <libical/ical.h>

/// `icalerrno` is a macro over thread-local or global state; Swift cannot call it directly.
static inline icalerrorenum streakcal_icalerrno(void) { return icalerrno; }

/// Resets libical's error state before a parse so that stale errors are not reported.
static inline void streakcal_clear_icalerrno(void) { icalerrno = ICAL_NO_ERROR; }

#endif
