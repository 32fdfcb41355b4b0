/*
 * StdoutFlood — a kit fixture that passes every check: the first didBecomeActive in a process
 * writes 9 MiB on standard output (later calls write nothing, so handler budgets hold). The kit
 * keeps only the end of a child's output and must go on to the next plugin.
 */
#include <unistd.h>

#include "adh_fixture.h"

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

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "StdoutFlood", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.stdout-flood", "StdoutFlood", create);
ADH_FIXTURE_ENTRY(descriptor)
