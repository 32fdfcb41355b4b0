/*
 * RequiresOption — a kit fixture, not a broken plugin: its subscriber needs an option. `create`
 * returns NULL unless the subscriber's options (the host's `options_json`, a manifest entry's
 * "options", `apphost check --options`) hold the key "token". Without it, it fails
 * "each declared subscriber creates and destroys"; with it, it passes every check.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (adh_fixture_find_end(adh_fixture_options(host), "\"token\"") == 0) return NULL;
    adh_subscriber *subscriber = adh_fixture_create(name, "RequiresOption", host);
    if (subscriber != NULL) subscriber->did_become_active = adh_fixture_harmless_event;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.requires-option", "RequiresOption", create);
ADH_FIXTURE_ENTRY(descriptor)
