/*
 * BrokenSwiftVersion — a deliberately broken plugin for the loader: fails SPEC §2 load-time check 7
 * (the Swift compiler version).
 *
 * It is written in C but claims swift_version "5.9", as a plugin built by Swift 5.9 would: the
 * loader must refuse it because 5.9 is not the host's major.minor.
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
    if (name == NULL || strcmp(name, "BrokenSwiftVersion") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    return subscriber;
}

static const char *const subscriber_names[] = { "BrokenSwiftVersion" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.swift-version",
    .name = "BrokenSwiftVersion",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "5.9", /* the defect: not the host's compiler */
    .subscriber_count = sizeof subscriber_names / sizeof subscriber_names[0],
    .subscriber_names = subscriber_names,
    .create = create,
};

__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entry(void) {
    return &descriptor;
}
