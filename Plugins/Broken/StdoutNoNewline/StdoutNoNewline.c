/*
 * StdoutNoNewline — a kit fixture that passes every check: didBecomeActive writes "." on standard
 * output without a line break. Plugin output must never mix with the kit's own messages.
 */
#include <unistd.h>

#include "adh_fixture.h"

static void did_become_active(const adh_subscriber *self) {
    (void)self;
    ssize_t written = write(1, ".", 1);
    (void)written;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "StdoutNoNewline", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.stdout-no-newline", "StdoutNoNewline", create);
ADH_FIXTURE_ENTRY(descriptor)
