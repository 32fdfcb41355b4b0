/*
 * DeclinesByDefault — a kit fixture, not a broken plugin: its performFetch declines (ADH_DECLINES)
 * unless the subscriber's options (`apphost check --options`, a manifest entry's "options") hold the
 * key "fetch"; with it, it completes at once with newData. Under the kit's default options every call
 * is declined, so `events.completion` passes without seeing the completion it owes when it accepts:
 * its evidence must say that the handler's accepting path was not exercised. With {"fetch": true} the
 * completion is checked.
 */
#include "adh_fixture.h"

static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    if (adh_fixture_find_end(adh_fixture_options(adh_fixture_host(self)), "\"fetch\"") == 0) return ADH_DECLINES;
    completion.call(completion.context, ADH_FETCH_NEW_DATA);
    return ADH_RESPONDS;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "DeclinesByDefault", host);
    if (subscriber != NULL) subscriber->perform_fetch = perform_fetch;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.declines-by-default", "DeclinesByDefault", create);
ADH_FIXTURE_ENTRY(descriptor)
