/*
 * Nondeterministic — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * "answers are deterministic for equal input".
 *
 * openURL alternates ADH_TRUE and ADH_FALSE on a process-wide counter, whatever the URL, starting
 * from a clock-seeded coin: two calls with equal input in one process always differ, and single
 * calls in separate processes differ half the time.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "SubscriberABI.h"

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

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "Nondeterministic") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->open_url = open_url;
    return subscriber;
}

static const char *const subscriber_names[] = { "Nondeterministic" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.nondeterministic",
    .name = "Nondeterministic",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = sizeof subscriber_names / sizeof subscriber_names[0],
    .subscriber_names = subscriber_names,
    .create = create,
};

__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entry(void) {
    return &descriptor;
}
