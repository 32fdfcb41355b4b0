/*
 * BrokenABIMajor — a deliberately broken plugin for the loader: fails load-time check 6
 * (ABI major).
 *
 * Its descriptor claims ABI 2.0; a 1.x host must refuse it ("ABI mismatch: host speaks 1.x,
 * plugin was built for 2.0").
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "BrokenABIMajor", host);
}

static const char *const subscriber_names[] = { "BrokenABIMajor" };

/* Spelled out: the defect is one of its fields. */
static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = 2, /* the defect: this host speaks 1.x */
    .abi_minor = 0,
    .id = "dev.appdelegatehost.broken.a-b-i-major",
    .name = "BrokenABIMajor",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = sizeof subscriber_names / sizeof subscriber_names[0],
    .subscriber_names = subscriber_names,
    .create = create,
};

ADH_FIXTURE_ENTRY(descriptor)
