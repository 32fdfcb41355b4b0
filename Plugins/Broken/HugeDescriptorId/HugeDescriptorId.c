/*
 * HugeDescriptorId — a kit fixture that passes every check: its descriptor id is 8 MiB long
 * ("dev.appdelegatehost.fixture.huge-descriptor-id." and then "x" repeated). Every report shows
 * the id; the kit must cut it, not choke on it.
 */
#include <stdlib.h>
#include <string.h>
#include "SubscriberABI.h"

static void did_become_active(const adh_subscriber *self) {
    (void)self;
}

/* The id, filled in on the first entry call. */
static char huge_id[8 * 1024 * 1024 + 1];

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "HugeDescriptorId") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const subscriber_names[] = { "HugeDescriptorId" };

static adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.fixture.huge-descriptor-id",
    .name = "HugeDescriptorId",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = 1,
    .subscriber_names = subscriber_names,
    .create = create,
};

__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entry(void) {
    if (huge_id[0] == 0) {
        static const char prefix[] = "dev.appdelegatehost.fixture.huge-descriptor-id.";
        memset(huge_id, 'x', sizeof huge_id - 1);
        memcpy(huge_id, prefix, sizeof prefix - 1);
        huge_id[sizeof huge_id - 1] = 0;
        descriptor.id = huge_id;
    }
    return &descriptor;
}
