/*
 * NoDestroy — a deliberately broken plugin for the conformance kit: fails the check
 * subscriber.create-destroy (create returns a subscriber with a destroy function).
 *
 * create returns a struct whose destroy is NULL: the host can never free the instance, so it must
 * refuse it (and the kit leaks each one it makes, which is the point).
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "NoDestroy", host);
    if (subscriber == NULL) return NULL;
    subscriber->destroy = NULL; /* the defect: no way to free it */
    subscriber->did_become_active = adh_fixture_harmless_event;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.no-destroy", "NoDestroy", create);
ADH_FIXTURE_ENTRY(descriptor)
