/*
 * Nondeterministic — a deliberately broken plugin for the conformance kit: fails the check
 * "answers are deterministic for equal input".
 *
 * openURL alternates ADH_TRUE and ADH_FALSE on a process-wide counter, whatever the URL, starting
 * from a clock-seeded coin: two calls with equal input in one process always differ, and single
 * calls in separate processes differ half the time.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <time.h>

#include "adh_fixture.h"

/** The next answer, across every instance (events come on the host's main thread, one at a time). */
static adh_tristate next_answer = ADH_NO_OPINION;

/* The defect: the answer depends on the call count and the clock, not on the request. */
static adh_tristate open_url(const adh_subscriber *self, const adh_open_url *request) {
    (void)self;
    (void)request;
    if (next_answer == ADH_NO_OPINION) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        next_answer = (now.tv_nsec / 1000) % 2 == 0 ? ADH_TRUE : ADH_FALSE;
    }
    adh_tristate answer = next_answer;
    next_answer = answer == ADH_TRUE ? ADH_FALSE : ADH_TRUE;
    return answer;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "Nondeterministic", host);
    if (subscriber != NULL) subscriber->open_url = open_url;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.nondeterministic", "Nondeterministic", create);
ADH_FIXTURE_ENTRY(descriptor)
