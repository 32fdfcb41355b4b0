/*
 * BrokenUTF8Name — a deliberately broken plugin for the loader: fails load-time check 8
 * (descriptor fields are well-formed).
 *
 * Its descriptor's name is not valid UTF-8 (0xFF and 0xFE never occur in UTF-8): the loader must
 * name the field and show the bytes. (BrokenDescriptor covers an empty id.)
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "BrokenUTF8Name", host);
}

static const char *const subscriber_names[] = { "BrokenUTF8Name" };

static const adh_plugin_descriptor descriptor = ADH_FIXTURE_DESCRIPTOR_FIELDS(
    "dev.appdelegatehost.broken.utf8-name",
    "Broken" "\xff\xfe" "Name", /* the defect: invalid UTF-8 (split so \xfe cannot swallow a letter) */
    subscriber_names, create);

ADH_FIXTURE_ENTRY(descriptor)
