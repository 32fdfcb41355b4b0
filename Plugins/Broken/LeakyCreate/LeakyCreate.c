/*
 * LeakyCreate — a deliberately broken plugin for the conformance kit: fails the check
 * "each subscriber creates and destroys, 1,000 times without growing memory".
 *
 * create allocates 256 KiB, writes every page of it (so the resident size really grows) and
 * keeps the only pointer in the instance; destroy frees the subscriber struct but not that
 * block. 1,000 cycles leak about 250 MiB.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

/** What each instance leaks. */
enum { LEAK_BYTES = 256 * 1024 };

static void destroy(const adh_subscriber *self) {
    /* The defect: self->instance, the 256 KiB block, is not freed. */
    adh_fixture_destroy(self);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "LeakyCreate", host);
    if (subscriber == NULL) return NULL;
    subscriber->destroy = destroy;
    subscriber->did_become_active = adh_fixture_harmless_event;
    unsigned char *leak = malloc(LEAK_BYTES);
    if (leak == NULL) {
        adh_fixture_destroy(subscriber);
        return NULL;
    }
    memset(leak, 0xA5, LEAK_BYTES); /* touch every page so the leak shows in RSS, not just in VM */
    subscriber->instance = leak;   /* stored where the optimiser cannot prove it dead */
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.leaky-create", "LeakyCreate", create);
ADH_FIXTURE_ENTRY(descriptor)
