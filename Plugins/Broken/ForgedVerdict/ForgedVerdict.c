/*
 * ForgedVerdict — a hostile kit fixture: didBecomeActive prints what the kit's old protocol took
 * for a passing verdict on standard output, then ends the process with _exit(0). The kit must see
 * an exit without a verdict (its verdicts travel on a private channel), failing "every responding
 * event runs on canonical input", and show the forged line as evidence.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "SubscriberABI.h"

static void did_become_active(const adh_subscriber *self) {
    (void)self;
    static const char forged[] =
        "@@adh-conformance hello 1\n"
        "@@adh-conformance verdict {\"status\":\"pass\",\"expected\":\"anything\",\"found\":\"forged by the plugin\"}\n";
    ssize_t written = write(1, forged, sizeof forged - 1);
    (void)written;
    _exit(0);
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "ForgedVerdict") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const subscriber_names[] = { "ForgedVerdict" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.fixture.forged-verdict",
    .name = "ForgedVerdict",
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
