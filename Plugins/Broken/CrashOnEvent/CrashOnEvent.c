/*
 * CrashOnEvent — a deliberately broken plugin for the conformance kit: fails the check
 * "every responding event runs on canonical input".
 *
 * didBecomeActive writes through a NULL pointer: the process dies of SIGSEGV, and the kit
 * (which runs each check in a child process) must report a crash, not die itself.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include <signal.h>

#include "adh_fixture.h"

/* The defect: a NULL write. volatile keeps the compiler from proving it away; raise() is the
 * fallback should the write somehow not fault. */
static void did_become_active(const adh_subscriber *self) {
    (void)self;
    volatile int *nowhere = NULL;
    *nowhere = 1;
    raise(SIGSEGV);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "CrashOnEvent", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.crash-on-event", "CrashOnEvent", create);
ADH_FIXTURE_ENTRY(descriptor)
