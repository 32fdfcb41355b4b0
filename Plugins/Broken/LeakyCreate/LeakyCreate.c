/*
 * LeakyCreate — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * "each subscriber creates and destroys, 1,000 times without growing memory".
 *
 * create allocates 256 KiB, writes every page of it (so the resident size really grows) and
 * keeps the only pointer in the instance; destroy frees the subscriber struct but not that
 * block. 1,000 cycles leak about 250 MiB.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

/** What each instance leaks. */
enum { LEAK_BYTES = 256 * 1024 };

/* A harmless responding event, so the plugin looks like any other. */
static void did_become_active(const adh_subscriber *self) {
    (void)self;
}

static void destroy(const adh_subscriber *self) {
    /* The defect: self->instance, the 256 KiB block, is not freed. */
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "LeakyCreate") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    unsigned char *leak = malloc(LEAK_BYTES);
    if (leak == NULL) {
        free(subscriber);
        return NULL;
    }
    memset(leak, 0xA5, LEAK_BYTES); /* touch every page so the leak shows in RSS, not just in VM */
    subscriber->instance = leak;   /* stored where the optimiser cannot prove it dead */
    return subscriber;
}

static const char *const subscriber_names[] = { "LeakyCreate" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.leaky-create",
    .name = "LeakyCreate",
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
