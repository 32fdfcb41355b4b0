/*
 * HoldsDescriptors — a deliberately broken plugin for the host's "faults are errors" tests: its
 * first didBecomeActive opens /dev/null until the process has no file descriptor left, and keeps
 * them all (it logs how many it took). Whatever the host needs a descriptor for afterwards (a
 * deadline timer, a file) must fail as an error, not a crash.
 * Everything else about it is valid.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "adh_fixture.h"

/* The defect: takes every free descriptor, once, and never gives them back. */
static void did_become_active(const adh_subscriber *self) {
    static int taken = -1;
    if (taken >= 0) return;
    taken = 0;
    while (open("/dev/null", O_RDONLY | O_CLOEXEC) >= 0) taken++;
    const adh_host *host = adh_fixture_host(self);
    char line[96];
    int length = snprintf(line, sizeof line, "holding %d file descriptors", taken);
    host->log(host, ADH_LOG_INFO, (adh_string){line, length > 0 ? (size_t)length : 0});
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "HoldsDescriptors", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.holds-descriptors", "HoldsDescriptors", create);
ADH_FIXTURE_ENTRY(descriptor)
