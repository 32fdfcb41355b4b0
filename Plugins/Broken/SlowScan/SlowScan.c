/*
 * SlowScan — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * load.scan-time (the scan, dlopen included, within its budget; 1 s by default).
 *
 * A constructor, which the dynamic loader runs inside dlopen, sleeps 1.2 s: every host start that
 * loads the plugin would pay it. Only the kit's test loads it (each check in a child process);
 * keep it out of any test that loads plugins in its own process.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "SubscriberABI.h"

/** Sleeps `milliseconds` (nanosleep: C99 has no sleep of its own), resuming after a signal. */
static void sleep_ms(long milliseconds) {
    struct timespec duration = { milliseconds / 1000, (milliseconds % 1000) * 1000000L };
    while (nanosleep(&duration, &duration) != 0) {
    }
}

/* The defect: 1.2 s of work at load time, over the kit's default scan budget of 1 s. */
__attribute__((constructor)) static void slow_constructor(void) {
    sleep_ms(1200);
}

/* A harmless responding event, so the plugin looks like any other. */
static void did_become_active(const adh_subscriber *self) {
    (void)self;
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "SlowScan") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const subscriber_names[] = { "SlowScan" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.slow-scan",
    .name = "SlowScan",
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
