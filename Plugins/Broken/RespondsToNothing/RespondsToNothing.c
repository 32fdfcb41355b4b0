/*
 * RespondsToNothing — a subscriber that responds to no event: every vtable entry NULL. It loads,
 * creates, destroys and has nothing for the event checks to call; a host never calls it. The kit must
 * fail it ("responds to no event").
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "RespondsToNothing", host);
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.responds-to-nothing", "RespondsToNothing", create);
ADH_FIXTURE_ENTRY(descriptor)
