#ifndef STREAKCAL_CTHREADS_H
#define STREAKCAL_CTHREADS_H

/// A thread started by `streakcal_thread_start_elsewhere`, to join or detach once.
typedef struct streakcal_thread streakcal_thread;

/// Starts a thread that calls `body(context)`, placed on a processor other than the calling
/// thread's: the `placement`-th (from 0, round the list) of the process's other processors, on
/// Linux when there are any. Once started, the thread may run on all of them. Returns the thread,
/// or NULL if none could start (then `body` is not called).
///
/// On this project's machine (a virtual one with 2 processors), Linux starts a new thread on its
/// creator's processor, and wakes a sleeping one on the waker's, even with the other processor
/// idle (probably because its host has parked that one, which Linux then does not count as idle):
/// the thread waits while its creator is busy, until Linux next balances its load. A thread whose
/// creator stays busy started 1.9 ms late (median of 40 starts); placed elsewhere, 0.07 ms.
streakcal_thread *streakcal_thread_start_elsewhere(unsigned placement, void (*body)(void *context), void *context);

/// Waits for the thread to end, then frees `thread`.
void streakcal_thread_join(streakcal_thread *thread);

/// Lets the thread end by itself, and frees `thread`.
void streakcal_thread_detach(streakcal_thread *thread);

#endif
