/*
 * HangsInCreate — a plugin whose create never returns (it sleeps in a loop). Its entry and descriptor
 * are valid; `apphost list` inspects it in a child, stops that child once it has been silent for its
 * budget, and remembers the file as hung (CLIScanCacheTests).
 */
#define _POSIX_C_SOURCE 200809L
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)name;
    (void)host;
    for (;;) adh_fixture_sleep_ms(1000);
    return NULL;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.hangs-in-create", "HangsInCreate", create);
ADH_FIXTURE_ENTRY(descriptor)
