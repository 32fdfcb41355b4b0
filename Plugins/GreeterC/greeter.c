#include "SubscriberABI.h"
#include <stdlib.h>
#include <string.h>

/* [main-thread] Logs through the host interface this instance was created with. */
static void did_become_active(const adh_subscriber *self) {
    const adh_host *host = self->instance;
    static const char hello[] = "Hello from C!";
    host->log(host, ADH_LOG_INFO, (adh_string){hello, sizeof hello - 1});
}

static void destroy(const adh_subscriber *self) { free((void *)self); }

/* Every entry left NULL means "does not respond to that event". */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (strcmp(name, "GreeterC") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->instance = (void *)host;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const names[] = {"GreeterC"};
static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR, .abi_minor = ADH_ABI_MINOR,
    .id = "com.example.greeter-c", .name = "Greeter (C)", .version = "1.0.0", .vendor = "",
    .swift_version = "", /* empty: a C plugin */
    .subscriber_count = 1, .subscriber_names = names, .create = create,
};

__attribute__((visibility("default")))
const adh_plugin_descriptor *adh_plugin_entry(void) { return &descriptor; }
