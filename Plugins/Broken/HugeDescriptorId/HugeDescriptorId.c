/*
 * HugeDescriptorId — a kit fixture: its descriptor id is 8 MiB long
 * ("dev.appdelegatehost.fixture.huge-descriptor-id." and then "x" repeated). The host reads a
 * descriptor string up to 64 KiB, so the kit must fail load.descriptor, not choke on the id, and
 * go on to the next plugin.
 */
#include "adh_fixture.h"

/* The id, filled in on the first entry call. */
static char huge_id[8 * 1024 * 1024 + 1];

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "HugeDescriptorId", host);
    if (subscriber != NULL) subscriber->did_become_active = adh_fixture_harmless_event;
    return subscriber;
}

static const char *const subscriber_names[] = { "HugeDescriptorId" };

/* Not const: the entry points `id` at huge_id once it is filled. */
static adh_plugin_descriptor descriptor = ADH_FIXTURE_DESCRIPTOR_FIELDS(
    "dev.appdelegatehost.fixture.huge-descriptor-id", "HugeDescriptorId", subscriber_names, create);

/* The defect: an id of 8 MiB. */
ADH_FIXTURE_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void) {
    if (huge_id[0] == 0) {
        static const char prefix[] = "dev.appdelegatehost.fixture.huge-descriptor-id.";
        memset(huge_id, 'x', sizeof huge_id - 1);
        memcpy(huge_id, prefix, sizeof prefix - 1);
        huge_id[sizeof huge_id - 1] = 0;
        descriptor.id = huge_id;
    }
    return &descriptor;
}
