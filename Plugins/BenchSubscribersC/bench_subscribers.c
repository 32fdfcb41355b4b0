/*
 * BenchSubscribersC — the benchmark's C subscriber: `VoidCounter`, as in libBenchSubscribers.so, but
 * written against the header alone. Its one entry counts the calls and returns, so that what a
 * dispatch to it costs beyond those few instructions is the host's own overhead per C subscriber
 * (`subscriber-bench --profile voidEvent N EVENTS loaded --plugin …/libBenchSubscribersC.so` under
 * callgrind; docs/performance.md).
 */
#include "SubscriberABI.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    adh_subscriber base; /* first: the host is handed &counter->base */
    uint64_t calls;
} counter;

/* [main-thread] didReceiveMemoryWarning: counted, nothing else. */
static void did_receive_memory_warning(const adh_subscriber *self) { ((counter *)(void *)self)->calls += 1; }

static void destroy(const adh_subscriber *self) { free((void *)self); }

static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (strcmp(name, "VoidCounter") != 0) return NULL;
    counter *made = calloc(1, sizeof *made);
    if (made == NULL) return NULL;
    made->base.struct_size = sizeof made->base;
    made->base.destroy = destroy;
    made->base.did_receive_memory_warning = did_receive_memory_warning;
    return &made->base;
}

static const char *const names[] = {"VoidCounter"};
static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR, .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.bench-subscribers-c", .name = "BenchSubscribersC", .version = "1.0.0",
    .vendor = "AppDelegateHost", .swift_version = "",
    .subscriber_count = 1, .subscriber_names = names, .create = create,
};

ADH_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void) { return &descriptor; }
