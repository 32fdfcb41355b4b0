/*
 * BrokenDescriptor — a deliberately broken plugin for the loader: fails load-time check 8
 * (descriptor fields are well-formed).
 *
 * Its descriptor's id is empty: the loader must name the field. (BrokenUTF8Name covers a name
 * that is not valid UTF-8.)
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "BrokenDescriptor", host);
}

static const char *const subscriber_names[] = { "BrokenDescriptor" };

static const adh_plugin_descriptor descriptor = ADH_FIXTURE_DESCRIPTOR_FIELDS(
    "", /* the defect: an empty id */
    "BrokenDescriptor", subscriber_names, create);

ADH_FIXTURE_ENTRY(descriptor)
