/*
 * NoDestroy — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * subscriber.create-destroy (create returns a subscriber with a destroy function).
 *
 * create returns a struct whose destroy is NULL: the host can never free the instance, so it must
 * refuse it (and the kit leaks each one it makes, which is the point).
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

/* A harmless responding event, so the plugin looks like any other. */
static void did_become_active(const adh_subscriber *self) {
    (void)self;
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "NoDestroy") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = NULL; /* the defect: no way to free it */
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const subscriber_names[] = { "NoDestroy" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.no-destroy",
    .name = "NoDestroy",
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
