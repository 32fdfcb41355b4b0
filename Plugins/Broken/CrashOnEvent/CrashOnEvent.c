/*
 * CrashOnEvent — a deliberately broken plugin for the conformance kit (SPEC §7): fails the check
 * "every responding event runs on canonical input".
 *
 * didBecomeActive writes through a NULL pointer: the process dies of SIGSEGV, and the kit
 * (which runs each check in a child process) must report a crash, not die itself.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include <stdlib.h>
#include <string.h>
#include <signal.h>

#include "SubscriberABI.h"

/* The defect: a NULL write. volatile keeps the compiler from proving it away; raise() is the
 * fallback should the write somehow not fault. */
static void did_become_active(const adh_subscriber *self) {
    (void)self;
    volatile int *nowhere = NULL;
    *nowhere = 1;
    raise(SIGSEGV);
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (name == NULL || strcmp(name, "CrashOnEvent") != 0) return NULL;
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const subscriber_names[] = { "CrashOnEvent" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.crash-on-event",
    .name = "CrashOnEvent",
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
