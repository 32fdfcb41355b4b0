/*
 * BrokenNoEntry — a deliberately broken plugin for the loader: fails SPEC §2 load-time check 5
 * (the entry symbol exists).
 *
 * It is a well-formed shared library with a valid descriptor, but it exports it under the
 * wrong name (`adh_plugin_entrypoint`) and exports no `adh_plugin_entry`: the loader must report
 * that the file "is not a subscriber plugin".
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
    if (name == NULL || strcmp(name, "BrokenNoEntry") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    return subscriber;
}

static const char *const subscriber_names[] = { "BrokenNoEntry" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.no-entry",
    .name = "BrokenNoEntry",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = sizeof subscriber_names / sizeof subscriber_names[0],
    .subscriber_names = subscriber_names,
    .create = create,
};

/* The defect: a near miss of ADH_ENTRY_SYMBOL ("adh_plugin_entry"), so no entry symbol is found. */
__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entrypoint(void) {
    return &descriptor;
}
