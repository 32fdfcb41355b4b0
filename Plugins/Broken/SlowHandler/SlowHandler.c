/*
 * SlowHandler — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * "each event handler returns within its budget".
 *
 * didEnterBackground sleeps 300 ms before returning: it completes (no hang, no crash) but far
 * over any handler budget.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "SubscriberABI.h"

/** Sleeps `milliseconds` (nanosleep: C99 has no sleep of its own). */
static void sleep_ms(long milliseconds) {
    struct timespec duration = { milliseconds / 1000, (milliseconds % 1000) * 1000000L };
    while (nanosleep(&duration, &duration) != 0) {
    }
}

/* The defect: 300 ms on the main thread. */
static void did_enter_background(const adh_subscriber *self) {
    (void)self;
    sleep_ms(300);
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "SlowHandler") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_enter_background = did_enter_background;
    return subscriber;
}

static const char *const subscriber_names[] = { "SlowHandler" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.slow-handler",
    .name = "SlowHandler",
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
