/*
 * NeverCompletes — a deliberately broken plugin for the conformance kit: fails the check
 * "every completion is called exactly once, within the deadline".
 *
 * performFetch returns ADH_RESPONDS ("I will call the completion") and never calls it: the kit
 * must report the completion as never called (late at the deadline).
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

/* The defect: promises an answer and drops the completion. */
static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    (void)self;
    (void)completion;
    return ADH_RESPONDS;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "NeverCompletes", host);
    if (subscriber != NULL) subscriber->perform_fetch = perform_fetch;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.never-completes", "NeverCompletes", create);
ADH_FIXTURE_ENTRY(descriptor)
