/*
 * BrokenABIMajor — a deliberately broken plugin for the loader: fails SPEC §2 load-time check 6
 * (ABI major).
 *
 * Its descriptor claims ABI 2.0; a 1.x host must refuse it ("ABI mismatch: host speaks 1.x,
 * plugin was built for 2.0").
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name, as the contract asks. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "BrokenABIMajor") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    return subscriber;
}

static const char *const subscriber_names[] = { "BrokenABIMajor" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = 2, /* the defect: this host speaks 1.x */
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.a-b-i-major",
    .name = "BrokenABIMajor",
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
