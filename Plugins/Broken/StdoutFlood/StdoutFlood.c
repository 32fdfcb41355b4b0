/*
 * StdoutFlood — a kit fixture that passes every check: the first didBecomeActive in a process
 * writes 9 MiB on standard output (later calls write nothing, so handler budgets hold). The kit
 * keeps only the end of a child's output and must go on to the next plugin.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "SubscriberABI.h"

static void did_become_active(const adh_subscriber *self) {
    (void)self;
    static int flooded = 0;
    if (flooded) return;
    flooded = 1;
    static char block[64 * 1024];
    memset(block, 'x', sizeof block);
    block[sizeof block - 1] = '\n';
    for (int i = 0; i < 9 * 16; i++) {
        size_t offset = 0;
        while (offset < sizeof block) {
            ssize_t written = write(1, block + offset, sizeof block - offset);
            if (written <= 0) return;
            offset += (size_t)written;
        }
    }
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "StdoutFlood") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const subscriber_names[] = { "StdoutFlood" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.fixture.stdout-flood",
    .name = "StdoutFlood",
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
