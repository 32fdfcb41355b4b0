/*
 * CrashesInEntry — a plugin whose entry symbol crashes: adh_plugin_entry raises SIGSEGV before it
 * returns a descriptor. Loaded in the host, it would take the host down; `apphost list` inspects it
 * in a child, which dies, and remembers the file as blacklisted (CLIScanCacheTests).
 */
#include <signal.h>
#include "adh_fixture.h"

ADH_FIXTURE_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void) {
    raise(SIGSEGV);
    return NULL;
}
