/*
 * HangOnEvent — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * "every responding event runs on canonical input (no hang)".
 *
 * openURL never returns (it sleeps in an endless loop): the kit's per-check timeout must turn
 * it into a verdict.
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

/* The defect: never returns. */
static adh_tristate open_url(const adh_subscriber *self, const adh_open_url *request) {
    (void)self;
    (void)request;
    for (;;) sleep_ms(1000);
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "HangOnEvent") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->open_url = open_url;
    return subscriber;
}

static const char *const subscriber_names[] = { "HangOnEvent" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.hang-on-event",
    .name = "HangOnEvent",
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
