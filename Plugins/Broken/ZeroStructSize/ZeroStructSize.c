/*
 * ZeroStructSize — create returns a subscriber whose struct_size is 0 (its destroy and an event entry
 * set): the host reads only what struct_size covers, so it sees no destroy and no entry. The kit must
 * say so ("struct_size is 0"), not that the subscriber has no destroy.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ZeroStructSize", host);
    if (subscriber != NULL) {
        subscriber->did_become_active = adh_fixture_harmless_event;
        subscriber->struct_size = 0;
    }
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.zero-struct-size", "ZeroStructSize", create);
ADH_FIXTURE_ENTRY(descriptor)
