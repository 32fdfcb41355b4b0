/*
 * HangOnEvent — a deliberately broken plugin for the conformance kit: fails the check
 * "every responding event runs on canonical input (no hang)".
 *
 * openURL never returns (it sleeps in an endless loop): the kit's per-check timeout must turn
 * it into a verdict.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, for adh_fixture_sleep_ms */

#include "adh_fixture.h"

/* The defect: never returns. */
static adh_tristate open_url(const adh_subscriber *self, const adh_open_url *request) {
    (void)self;
    (void)request;
    for (;;) adh_fixture_sleep_ms(1000);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "HangOnEvent", host);
    if (subscriber != NULL) subscriber->open_url = open_url;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.hang-on-event", "HangOnEvent", create);
ADH_FIXTURE_ENTRY(descriptor)
