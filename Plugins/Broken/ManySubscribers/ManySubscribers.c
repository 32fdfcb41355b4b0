/*
 * ManySubscribers — not a defect: a plugin that declares the most subscribers a descriptor may
 * (4,096), named "Many0000" to "Many4095", so that tests can list every one of them in its own
 * manifest entry and prove that loading stays linear in the entries. Each subscriber responds to
 * didBecomeActive and does nothing.
 */
#include <stdio.h>

#include "adh_fixture.h"

enum { many_count = 4096 };

/* The names, written by the first entry call: "Many" and four digits. */
static char name_storage[many_count][9];
static const char *subscriber_names[many_count];

/* Which declared name `name` is: its index, or -1 for any other name. */
static int declared_index(const char *name) {
    if (name == NULL || strncmp(name, "Many", 4) != 0 || strlen(name) != 8) return -1;
    int index = 0;
    for (int position = 4; position < 8; position++) {
        if (name[position] < '0' || name[position] > '9') return -1;
        index = index * 10 + (name[position] - '0');
    }
    return index < many_count ? index : -1;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (declared_index(name) < 0) return NULL;
    adh_subscriber *subscriber = adh_fixture_new(host);
    if (subscriber != NULL) subscriber->did_become_active = adh_fixture_harmless_event;
    return subscriber;
}

static adh_plugin_descriptor descriptor = ADH_FIXTURE_DESCRIPTOR_FIELDS(
    "dev.appdelegatehost.fixture.many-subscribers", "ManySubscribers", subscriber_names, create);

ADH_FIXTURE_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void) {
    if (subscriber_names[0] == NULL) {
        for (int index = 0; index < many_count; index++) {
            snprintf(name_storage[index], sizeof name_storage[index], "Many%04d", index);
            subscriber_names[index] = name_storage[index];
        }
    }
    return &descriptor;
}
