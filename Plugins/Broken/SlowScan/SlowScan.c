/*
 * SlowScan — a deliberately broken plugin for the conformance kit: fails the check
 * load.scan-time (the scan, dlopen included, within its budget; 1 s by default).
 *
 * A constructor, which the dynamic loader runs inside dlopen, sleeps 1.2 s: every host start that
 * loads the plugin would pay it. Only the kit's test loads it (each check in a child process);
 * keep it out of any test that loads plugins in its own process.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, for adh_fixture_sleep_ms */

#include "adh_fixture.h"

/* The defect: 1.2 s of work at load time, over the kit's default scan budget of 1 s. */
__attribute__((constructor)) static void slow_constructor(void) {
    adh_fixture_sleep_ms(1200);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "SlowScan", host);
    if (subscriber != NULL) subscriber->did_become_active = adh_fixture_harmless_event;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.slow-scan", "SlowScan", create);
ADH_FIXTURE_ENTRY(descriptor)
