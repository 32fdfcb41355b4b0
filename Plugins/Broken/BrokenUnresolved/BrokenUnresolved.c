/*
 * BrokenUnresolved — a deliberately broken plugin for the loader and the conformance kit: fails
 * load-time check 4, the kit's load.rtld-now (dlopen(RTLD_NOW | RTLD_LOCAL) resolves every
 * symbol at once).
 *
 * didBecomeActive calls adh_broken_unresolved_function, which nothing defines. A shared library
 * links with an undefined symbol (the linker leaves it for the dynamic loader), so the file builds;
 * with RTLD_NOW the dynamic loader must resolve it before dlopen returns, and cannot.
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

/* The defect: declared, called, defined nowhere (`nm -D` lists it as U). */
extern void adh_broken_unresolved_function(void);

static void did_become_active(const adh_subscriber *self) {
    (void)self;
    adh_broken_unresolved_function();
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "BrokenUnresolved", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.unresolved", "BrokenUnresolved", create);
ADH_FIXTURE_ENTRY(descriptor)
