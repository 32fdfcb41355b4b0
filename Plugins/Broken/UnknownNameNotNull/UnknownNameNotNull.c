/*
 * UnknownNameNotNull — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * "unknown subscriber name returns NULL".
 *
 * create makes a subscriber for any name, not only the one it declares, where the contract
 * asks for NULL.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

/* A harmless responding event, so the plugin looks like any other. */
static void did_become_active(const adh_subscriber *self) {
    (void)self;
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes a subscriber whatever the name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    (void)name; /* The defect: no check of `name` against the declared subscriber. */
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const subscriber_names[] = { "UnknownNameNotNull" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.unknown-name-not-null",
    .name = "UnknownNameNotNull",
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
