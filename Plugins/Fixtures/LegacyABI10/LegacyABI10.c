/*
 * LegacyABI10 — a plugin as it was written for ABI 1.0, built against the frozen 1.0 headers in
 * Plugins/Fixtures/ABI-1.0/include (never against SubscriberABI), so that a newer host is tested
 * against what a 1.0 plugin really is: a 1.0 descriptor and a 1.0 `adh_subscriber`, without
 * `get_extension`.
 *
 * One subscriber, LegacyABI10: didBecomeActive logs the host's ABI version, openURL answers true
 * for `legacy:` URLs (no opinion otherwise), performFetch completes with newData.
 *
 * Where ABI 1.1 appended `get_extension`, right past the 1.0 struct, the instance keeps a tripwire:
 * a function that logs an error if it is ever called. `struct_size` does not cover it, so a host
 * must neither read nor call it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

#if ADH_ABI_MAJOR != 1 || ADH_ABI_MINOR != 0
#error "LegacyABI10 must be built against the frozen ABI 1.0 headers (Plugins/Fixtures/ABI-1.0/include)"
#endif

static const char SUBSCRIBER_NAME[] = "LegacyABI10";

/** One instance: the 1.0 vtable first (so `self` is the instance), the tripwire, the host. */
typedef struct legacy {
    adh_subscriber vtable;
    /* At 1.1's offset of `get_extension` (the 1.0 struct ends on a pointer boundary). */
    const void *(*tripwire)(const adh_subscriber *self, const char *id);
    const adh_host *host;
} legacy;

_Static_assert(offsetof(legacy, tripwire) == sizeof(adh_subscriber),
               "the tripwire sits right past the 1.0 struct, where 1.1 put get_extension");

static void log_line(const adh_subscriber *self, adh_log_level level, const char *text) {
    const adh_host *host = ((const legacy *)self)->host;
    adh_string message = { text, strlen(text) };
    host->log(host, level, message);
}

/* Never called by a host that honours struct_size. */
static const void *tripwire(const adh_subscriber *self, const char *id) {
    char line[160];
    snprintf(line, sizeof line, "get_extension called past struct_size (id %.100s)", id ? id : "NULL");
    log_line(self, ADH_LOG_ERROR, line);
    return NULL;
}

/* [main-thread] */
static void did_become_active(const adh_subscriber *self) {
    const adh_host *host = ((const legacy *)self)->host;
    char line[64];
    snprintf(line, sizeof line, "active; host speaks ABI %u.%u", (unsigned)host->abi_major,
             (unsigned)host->abi_minor);
    log_line(self, ADH_LOG_INFO, line);
}

/* [main-thread] Ours: `legacy:` URLs. */
static adh_tristate open_url(const adh_subscriber *self, const adh_open_url *request) {
    static const char scheme[] = "legacy:";
    (void)self;
    if (request->url.data == NULL || request->url.length < sizeof scheme - 1) return ADH_NO_OPINION;
    return memcmp(request->url.data, scheme, sizeof scheme - 1) == 0 ? ADH_TRUE : ADH_NO_OPINION;
}

/* [main-thread] Completes at once. */
static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    (void)self;
    completion.call(completion.context, ADH_FETCH_NEW_DATA);
    return ADH_RESPONDS;
}

static void destroy(const adh_subscriber *self) { free((void *)self); }

static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (name == NULL || host == NULL || strcmp(name, SUBSCRIBER_NAME) != 0) return NULL;
    legacy *instance = calloc(1, sizeof *instance);
    if (instance == NULL) return NULL;
    instance->vtable.struct_size = sizeof instance->vtable;  /* the 1.0 size */
    instance->vtable.instance = instance;
    instance->vtable.destroy = destroy;
    instance->vtable.did_become_active = did_become_active;
    instance->vtable.open_url = open_url;
    instance->vtable.perform_fetch = perform_fetch;
    instance->tripwire = tripwire;
    instance->host = host;
    return &instance->vtable;
}

static const char *const subscriber_names[] = { SUBSCRIBER_NAME };
static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.fixtures.legacy-abi-1-0",
    .name = "LegacyABI10",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = 1,
    .subscriber_names = subscriber_names,
    .create = create,
};

/* ABI 1.0 had no ADH_EXPORT: the attribute, spelled out. */
__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entry(void) {
    return &descriptor;
}
