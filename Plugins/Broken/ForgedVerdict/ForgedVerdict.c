/*
 * ForgedVerdict — a hostile kit fixture: didBecomeActive prints what the kit's old protocol took
 * for a passing verdict on standard output, then ends the process with _exit(0). The kit must see
 * an exit without a verdict (its verdicts travel on a private channel), failing "every responding
 * event runs on canonical input", and show the forged line as evidence.
 */
#include <unistd.h>

#include "adh_fixture.h"

static void did_become_active(const adh_subscriber *self) {
    (void)self;
    static const char forged[] =
        "@@adh-conformance hello 1\n"
        "@@adh-conformance verdict {\"status\":\"pass\",\"expected\":\"anything\",\"found\":\"forged by the plugin\"}\n";
    ssize_t written = write(1, forged, sizeof forged - 1);
    (void)written;
    _exit(0);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ForgedVerdict", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.forged-verdict", "ForgedVerdict", create);
ADH_FIXTURE_ENTRY(descriptor)
