/*
 * BrokenStructSize — a deliberately broken plugin for the loader: fails load-time check 6
 * (struct_size).
 *
 * Its descriptor claims struct_size 16, smaller than the ABI 1.0 descriptor (80 bytes): the
 * loader must refuse it rather than read fields the plugin says it does not have.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "BrokenStructSize", host);
}

static const char *const subscriber_names[] = { "BrokenStructSize" };

/* Spelled out: the defect is one of its fields. */
static const adh_plugin_descriptor descriptor = {
    .struct_size = 16, /* the defect: smaller than any 1.x descriptor */
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.struct-size",
    .name = "BrokenStructSize",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = sizeof subscriber_names / sizeof subscriber_names[0],
    .subscriber_names = subscriber_names,
    .create = create,
};

ADH_FIXTURE_ENTRY(descriptor)
