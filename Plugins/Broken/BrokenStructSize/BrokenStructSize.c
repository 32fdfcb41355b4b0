/*
 * BrokenStructSize — a deliberately broken plugin for the loader: fails SPEC §2 load-time check 6
 * (struct_size).
 *
 * Its descriptor claims struct_size 16, smaller than the ABI 1.0 descriptor (80 bytes): the
 * loader must refuse it rather than read fields the plugin says it does not have.
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
    if (name == NULL || strcmp(name, "BrokenStructSize") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    return subscriber;
}

static const char *const subscriber_names[] = { "BrokenStructSize" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = 16, /* the defect: smaller than any 1.x descriptor */
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.struct-size",
    .name = "BrokenStructSize",
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
