/*
 * CompletesTwice — a deliberately broken plugin for the conformance kit: fails the check
 * "every completion is called exactly once, within the deadline".
 *
 * performFetch calls its completion twice (newData, then newData again): the kit must report
 * the second call.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

/* The defect: the second call. */
static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    (void)self;
    completion.call(completion.context, ADH_FETCH_NEW_DATA);
    completion.call(completion.context, ADH_FETCH_NEW_DATA);
    return ADH_RESPONDS;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "CompletesTwice", host);
    if (subscriber != NULL) subscriber->perform_fetch = perform_fetch;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.completes-twice", "CompletesTwice", create);
ADH_FIXTURE_ENTRY(descriptor)
