/*
 * BrokenEntryData — a deliberately broken plugin for the loader: fails load-time check 5 (the entry
 * symbol is a function).
 *
 * It exports its descriptor itself under the entry symbol's name, a plausible C mistake: dlsym finds
 * `adh_plugin_entry`, but it is a data object, and calling it would jump into data and crash the
 * host. The loader must check the symbol's type and refuse it ("adh_plugin_entry is not a
 * function (found a data object)"). Everything else about it is valid, so that this is the only
 * check it can fail.
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
    if (name == NULL || strcmp(name, "BrokenEntryData") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    return subscriber;
}

static const char *const subscriber_names[] = { "BrokenEntryData" };

/* The defect: the descriptor is exported as ADH_ENTRY_SYMBOL ("adh_plugin_entry") instead of a
 * function returning it. */
__attribute__((visibility("default"))) const adh_plugin_descriptor adh_plugin_entry = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.entry-data",
    .name = "BrokenEntryData",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = sizeof subscriber_names / sizeof subscriber_names[0],
    .subscriber_names = subscriber_names,
    .create = create,
};
