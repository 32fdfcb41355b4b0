/*
 * UnknownNameNotNull — a deliberately broken plugin for the conformance kit: fails the check
 * "unknown subscriber name returns NULL".
 *
 * create makes a subscriber for any name, not only the one it declares, where the contract
 * asks for NULL.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

/* Makes a subscriber whatever the name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)name; /* The defect: no check of `name` against the declared subscriber (adh_fixture_create has one). */
    adh_subscriber *subscriber = adh_fixture_new(host);
    if (subscriber != NULL) subscriber->did_become_active = adh_fixture_harmless_event;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.unknown-name-not-null", "UnknownNameNotNull", create);
ADH_FIXTURE_ENTRY(descriptor)
