/*
 * SlowHandler — a deliberately broken plugin for the conformance kit: fails the check
 * "each event handler returns within its budget".
 *
 * didEnterBackground sleeps 300 ms before returning: it completes (no hang, no crash) but far
 * over any handler budget.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, for adh_fixture_sleep_ms */

#include "adh_fixture.h"

/* The defect: 300 ms on the main thread. */
static void did_enter_background(const adh_subscriber *self) {
    (void)self;
    adh_fixture_sleep_ms(300);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "SlowHandler", host);
    if (subscriber != NULL) subscriber->did_enter_background = did_enter_background;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.slow-handler", "SlowHandler", create);
ADH_FIXTURE_ENTRY(descriptor)
