#define _GNU_SOURCE
#include "CThreads.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

struct streakcal_thread {
    pthread_t thread;
};

/// What the new thread needs: its work, and the processors it may use once it runs.
struct start {
    void (*body)(void *context);
    void *context;
#ifdef __linux__
    int restoresAffinity;
    cpu_set_t allowed;
#endif
};

static void *run(void *argument) {
    struct start *start = argument;
#ifdef __linux__
    if (start->restoresAffinity) (void)sched_setaffinity(0, sizeof start->allowed, &start->allowed);
#endif
    void (*body)(void *) = start->body;
    void *context = start->context;
    free(start);
    body(context);
    return NULL;
}

#ifdef __linux__
/// Sets `attributes` to start the thread on the `placement`-th of the processors in `allowed`
/// other than `current`; returns whether it did (not without another processor, or on an error).
static int placeElsewhere(pthread_attr_t *attributes, const cpu_set_t *allowed, int current, unsigned placement) {
    int isCurrentAllowed = current >= 0 && current < CPU_SETSIZE && CPU_ISSET(current, allowed);
    int others = CPU_COUNT(allowed) - isCurrentAllowed;
    if (others <= 0) return 0;
    unsigned wanted = placement % (unsigned)others;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (cpu == current || !CPU_ISSET(cpu, allowed)) continue;
        if (wanted > 0) {
            wanted--;
            continue;
        }
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return pthread_attr_setaffinity_np(attributes, sizeof one, &one) == 0;
    }
    return 0;
}
#endif

streakcal_thread *streakcal_thread_start_elsewhere(unsigned placement, void (*body)(void *context), void *context) {
    streakcal_thread *thread = malloc(sizeof *thread);
    struct start *start = malloc(sizeof *start);
    pthread_attr_t attributes;
    if (thread == NULL || start == NULL || pthread_attr_init(&attributes) != 0) {
        free(thread);
        free(start);
        return NULL;
    }
    start->body = body;
    start->context = context;
#ifdef __linux__
    // More processors than cpu_set_t holds (over 1,024), or only one: the thread starts where
    // pthread_create places it.
    start->restoresAffinity = sched_getaffinity(0, sizeof start->allowed, &start->allowed) == 0
        && placeElsewhere(&attributes, &start->allowed, sched_getcpu(), placement);
#endif
    int status = pthread_create(&thread->thread, &attributes, run, start);
    (void)pthread_attr_destroy(&attributes);
    if (status != 0) {
        free(thread);
        free(start);
        return NULL;
    }
    return thread;
}

void streakcal_thread_join(streakcal_thread *thread) {
    (void)pthread_join(thread->thread, NULL);
    free(thread);
}

void streakcal_thread_detach(streakcal_thread *thread) {
    (void)pthread_detach(thread->thread);
    free(thread);
}
