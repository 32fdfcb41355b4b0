/*
 * AcmeFetch — a plugin in plain C, built from the header alone:
 *
 *   cc -shared -fPIC -I ../../Sources/SubscriberABI/include acme_fetch.c -o libAcmeFetch.so
 *
 * One subscriber, AcmeFetch: it answers background fetches (through the completion) and keeps
 * phones in portrait. Every other event is left NULL: it does not respond to them.
 */
#include "SubscriberABI.h"
#include <stdlib.h>
#include <string.h>

/* [main-thread] Completes at once; a real plugin may call `completion` later, from any thread. */
static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    const adh_host *host = self->instance;
    static const char message[] = "fetched 3 new articles";
    host->log(host, ADH_LOG_INFO, (adh_string){message, sizeof message - 1});
    completion.call(completion.context, ADH_FETCH_NEW_DATA);
    return ADH_RESPONDS;  /* ADH_DECLINES would mean: not mine, never call the completion */
}

/* [main-thread] Portrait on phones; no opinion elsewhere (the manifest's default applies). */
static int64_t supported_interface_orientations(const adh_subscriber *self, adh_idiom idiom) {
    (void)self;
    return idiom == ADH_IDIOM_PHONE ? ADH_ORIENTATION_PORTRAIT : ADH_NO_OPINION;
}

static void destroy(const adh_subscriber *self) { free((void *)self); }

/* [main-thread] `host` stays valid until `destroy` returns, so the instance keeps it for logging. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (strcmp(name, "AcmeFetch") != 0) return NULL;  /* an unknown name gets NULL */
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->instance = (void *)host;
    subscriber->destroy = destroy;
    subscriber->perform_fetch = perform_fetch;
    subscriber->supported_interface_orientations = supported_interface_orientations;
    return subscriber;
}

static const char *const names[] = {"AcmeFetch"};
static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR, .abi_minor = ADH_ABI_MINOR,
    .id = "com.acme.fetch", .name = "Acme Fetch", .version = "1.0.0", .vendor = "Acme",
    .swift_version = "", /* empty: a C plugin */
    .subscriber_count = 1, .subscriber_names = names, .create = create,
};

__attribute__((visibility("default")))
const adh_plugin_descriptor *adh_plugin_entry(void) { return &descriptor; }
