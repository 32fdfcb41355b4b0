/*
 * BrokenSwiftVersion — a deliberately broken plugin for the loader: fails load-time check 7
 * (the Swift compiler version).
 *
 * It is written in C but claims swift_version "5.9", as a plugin built by Swift 5.9 would: the
 * loader must refuse it because 5.9 is not the host's major.minor.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "BrokenSwiftVersion", host);
}

static const char *const subscriber_names[] = { "BrokenSwiftVersion" };

/* Spelled out: the defect is one of its fields. */
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

ADH_FIXTURE_ENTRY(descriptor)
