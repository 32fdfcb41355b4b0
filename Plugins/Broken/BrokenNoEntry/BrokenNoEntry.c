/*
 * BrokenNoEntry — a deliberately broken plugin for the loader: fails load-time check 5
 * (the entry symbol exists).
 *
 * It is a well-formed shared library with a valid descriptor, but it exports it under the
 * wrong name (`adh_plugin_entrypoint`) and exports no `adh_plugin_entry`: the loader must report
 * that the file "is not a subscriber plugin".
 * Everything else about it is valid, so that this is the only check it can fail.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "BrokenNoEntry", host);
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.no-entry", "BrokenNoEntry", create);

/* The defect: a near miss of ADH_ENTRY_SYMBOL ("adh_plugin_entry"), so no entry symbol is found. */
ADH_FIXTURE_EXPORT const adh_plugin_descriptor *adh_plugin_entrypoint(void) {
    return &descriptor;
}
