/*
 * ClosesDescriptors — a constructor that closes every descriptor from 3 to 4095, as a careless
 * "close everything I inherited" loop does, while the library is being loaded. In a host those are the
 * host's own files, pipes and sockets (and, in the conformance kit, the kit's private channel and the
 * descriptors its runtime uses). Its one subscriber answers didBecomeActive and is otherwise fine.
 * The kit must fail it at load, naming the descriptors it closed, the same way on every run.
 */
#include <unistd.h>

#include "adh_fixture.h"

__attribute__((constructor)) static void close_inherited_descriptors(void) {
    for (int fd = 3; fd < 4096; fd++) close(fd);
}

static void did_become_active(const adh_subscriber *self) {
    (void)self;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ClosesDescriptors", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.closes-descriptors", "ClosesDescriptors", create);
ADH_FIXTURE_ENTRY(descriptor)
