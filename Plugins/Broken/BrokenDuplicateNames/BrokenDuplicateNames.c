/*
 * BrokenDuplicateNames — a deliberately broken plugin for the loader: fails load-time check 8
 * (unique subscriber names).
 *
 * Its descriptor lists the subscriber "Alpha" twice: the loader must refuse duplicate names.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "Alpha", host);
}

static const char *const subscriber_names[] = { "Alpha", "Alpha" }; /* the defect: listed twice */

static const adh_plugin_descriptor descriptor = ADH_FIXTURE_DESCRIPTOR_FIELDS(
    "dev.appdelegatehost.broken.duplicate-names", "BrokenDuplicateNames", subscriber_names, create);

ADH_FIXTURE_ENTRY(descriptor)
