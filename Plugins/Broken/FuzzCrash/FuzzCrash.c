/*
 * FuzzCrash — a deliberately broken plugin for the conformance kit: fails the check
 * "fuzzed input neither crashes nor hangs".
 *
 * openURL aborts when the URL is empty or longer than 4096 bytes, and answers normally
 * otherwise: it passes on canonical input and fails only under fuzzing.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

/** Longest URL this plugin survives. */
enum { LONGEST_URL = 4096 };

/* The defect: an assumption about the input, enforced by abort(). */
static adh_tristate open_url(const adh_subscriber *self, const adh_open_url *request) {
    (void)self;
    if (request->url.data == NULL || request->url.length == 0 || request->url.length > LONGEST_URL) abort();
    return ADH_TRUE;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "FuzzCrash", host);
    if (subscriber != NULL) subscriber->open_url = open_url;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.fuzz-crash", "FuzzCrash", create);
ADH_FIXTURE_ENTRY(descriptor)
