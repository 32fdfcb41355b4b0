/*
 * RequiresOption — a kit fixture, not a broken plugin: its subscriber needs an option. `create`
 * returns NULL unless the subscriber's options (the host's `options_json`, a manifest entry's
 * "options", `apphost check --options`) hold the key "token". Without it, it fails
 * "each declared subscriber creates and destroys"; with it, it passes every check.
 */
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Whether the options text holds the key "token" (a fixture: a substring search is enough). */
static int has_token(const adh_host *host) {
    if (host == NULL || !ADH_STRUCT_HAS(host, adh_host, options_json) || host->options_json == NULL) return 0;
    adh_string options = host->options_json(host);
    static const char key[] = "\"token\"";
    if (options.data == NULL || options.length < sizeof key - 1) return 0;
    for (size_t i = 0; i + sizeof key - 1 <= options.length; i++)
        if (memcmp(options.data + i, key, sizeof key - 1) == 0) return 1;
    return 0;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (name == NULL || strcmp(name, "RequiresOption") != 0 || !has_token(host)) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    return subscriber;
}

static const char *const subscriber_names[] = { "RequiresOption" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.fixture.requires-option",
    .name = "RequiresOption",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = 1,
    .subscriber_names = subscriber_names,
    .create = create,
};

__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entry(void) {
    return &descriptor;
}
