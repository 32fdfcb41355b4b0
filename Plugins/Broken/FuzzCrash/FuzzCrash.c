/*
 * FuzzCrash — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * "fuzzed input neither crashes nor hangs".
 *
 * openURL aborts when the URL is empty or longer than 4096 bytes, and answers normally
 * otherwise: it passes on canonical input and fails only under fuzzing.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

/** Longest URL this plugin survives. */
enum { LONGEST_URL = 4096 };

/* The defect: an assumption about the input, enforced by abort(). */
static adh_tristate open_url(const adh_subscriber *self, const adh_open_url *request) {
    (void)self;
    if (request->url.data == NULL || request->url.length == 0 || request->url.length > LONGEST_URL) abort();
    return ADH_TRUE;
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "FuzzCrash") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->open_url = open_url;
    return subscriber;
}

static const char *const subscriber_names[] = { "FuzzCrash" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.fuzz-crash",
    .name = "FuzzCrash",
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
