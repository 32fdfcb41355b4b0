/*
 * BrokenUnresolved — a deliberately broken plugin for the loader and the conformance kit: fails
 * SPEC §2 load-time check 4, the kit's load.rtld-now (dlopen(RTLD_NOW | RTLD_LOCAL) resolves every
 * symbol at once).
 *
 * didBecomeActive calls adh_broken_unresolved_function, which nothing defines. A shared library
 * links with an undefined symbol (the linker leaves it for the dynamic loader), so the file builds;
 * with RTLD_NOW the dynamic loader must resolve it before dlopen returns, and cannot.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

/* The defect: declared, called, defined nowhere (`nm -D` lists it as U). */
extern void adh_broken_unresolved_function(void);

static void did_become_active(const adh_subscriber *self) {
    (void)self;
    adh_broken_unresolved_function();
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "BrokenUnresolved") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const subscriber_names[] = { "BrokenUnresolved" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.unresolved",
    .name = "BrokenUnresolved",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = sizeof subscriber_names / sizeof subscriber_names[0],
    .subscriber_names = subscriber_names,
    .create = create,
};

__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entry(void) {
    return &descriptor;
}
