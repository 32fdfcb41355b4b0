/*
 * BrokenEntryData — a deliberately broken plugin for the loader: fails load-time check 5 (the entry
 * symbol is a function).
 *
 * It exports its descriptor itself under the entry symbol's name, a plausible C mistake: dlsym finds
 * `adh_plugin_entry`, but it is a data object, and calling it would jump into data and crash the
 * host. The loader must check the symbol's type and refuse it ("adh_plugin_entry is not a
 * function (found a data object)"). Everything else about it is valid, so that this is the only
 * check it can fail.
 */
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "BrokenEntryData", host);
}

static const char *const subscriber_names[] = { "BrokenEntryData" };

/* The defect: the descriptor is exported as ADH_ENTRY_SYMBOL ("adh_plugin_entry") instead of a
 * function returning it. */
ADH_FIXTURE_EXPORT const adh_plugin_descriptor adh_plugin_entry = ADH_FIXTURE_DESCRIPTOR_FIELDS(
    "dev.appdelegatehost.broken.entry-data", "BrokenEntryData", subscriber_names, create);
