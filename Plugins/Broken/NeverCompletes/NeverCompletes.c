/*
 * NeverCompletes — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * "every completion is called exactly once, within the deadline".
 *
 * performFetch returns ADH_RESPONDS ("I will call the completion") and never calls it: the kit
 * must report the completion as never called (late at the deadline).
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

/* The defect: promises an answer and drops the completion. */
static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    (void)self;
    (void)completion;
    return ADH_RESPONDS;
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "NeverCompletes") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->perform_fetch = perform_fetch;
    return subscriber;
}

static const char *const subscriber_names[] = { "NeverCompletes" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.never-completes",
    .name = "NeverCompletes",
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
