/*
 * ForgesFromThread — a plugin that completes from a thread of its own, as plugins normally do, but
 * first calls the completion with two contexts the host never gave it.
 *
 * performFetch starts a detached thread and returns. The thread calls the completion with its own
 * context with another tag (context ^ 1 << 32), then with its neighbour's (context − 1), then with
 * its own (newData). The forged calls arrive outside any entry call, so the host cannot say whose
 * they are: it must ignore them and still report them (no subscriber named), never drop them silently.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "adh_fixture.h"

static void *complete(void *argument) {
    adh_fetch_completion completion = *(adh_fetch_completion *)argument;
    free(argument);
    uintptr_t own = (uintptr_t)completion.context;
    completion.call((void *)(own ^ ((uintptr_t)1 << 32)), ADH_FETCH_NO_DATA);
    completion.call((void *)(own - 1), ADH_FETCH_NO_DATA);
    completion.call(completion.context, ADH_FETCH_NEW_DATA);
    return NULL;
}

static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    (void)self;
    adh_fetch_completion *copy = malloc(sizeof *copy);
    if (copy == NULL) return ADH_DECLINES;
    *copy = completion;
    pthread_t thread;
    if (pthread_create(&thread, NULL, complete, copy) != 0) {
        free(copy);
        return ADH_DECLINES;
    }
    pthread_detach(thread);
    return ADH_RESPONDS;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ForgesFromThread", host);
    if (subscriber != NULL) subscriber->perform_fetch = perform_fetch;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.forges-from-thread", "ForgesFromThread", create);
ADH_FIXTURE_ENTRY(descriptor)
