/*
 * adh/ext/url_hook.h — the URL hook: a subscriber that may rewrite or drop a URL before the host fans
 * it out (`open_url`, a scene's `open_url_contexts`) or classifies a launch by it (the launch's `url`).
 *
 * Extension id ADH_EXT_URL_HOOK. A subscriber that is a URL hook returns an `adh_url_hook` from
 * `get_extension(self, ADH_EXT_URL_HOOK)` (adh/subscriber.h). Depends on adh/types.h. Since ABI 1.1
 * (an extension: a 1.1 host without it asks nobody, and a plugin asking for nothing loses nothing).
 *
 * Order: the host asks every URL hook, loaded or in-process, in dispatch order (priority, `after`,
 * `before`), before any subscriber hears the event; each hook sees the URL as the previous one left it,
 * and the first drop ends it. Each decision other than keep is shown in the event's outcome.
 *
 * Threads: the host calls `decide` on its main thread ([main-thread]).
 * Ownership: see `decide`.
 */
#ifndef ADH_EXT_URL_HOOK_H
#define ADH_EXT_URL_HOOK_H

#include "../types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The id to pass to `get_extension`. The suffix is the version: a change is a new id. */
#define ADH_EXT_URL_HOOK "adh.url-hook/1"

struct adh_subscriber;

/** What `decide` answers. Any other value is a bad answer: the host keeps the URL and reports it. */
typedef int32_t adh_url_decision;
enum {
    /** Deliver the URL as it is. */
    ADH_URL_KEEP = 0,
    /** Deliver `*rewritten` instead (later hooks see it). */
    ADH_URL_REWRITE = 1,
    /** Deliver it to nobody: `open_url` answers false, a URL context is left out, a launch URL is
     *  removed from the launch options. */
    ADH_URL_DROP = 2,
};

/** The longest rewritten URL the host accepts, in bytes; a longer one is a bad answer (kept). */
#define ADH_URL_HOOK_MAX_LENGTH 8192

/** The URL hook's vtable. */
typedef struct adh_url_hook {
    /** sizeof(adh_url_hook) as the plugin compiled it. The host ignores entries past it. */
    uint32_t struct_size;

    /**
     * The decision about `url`, about to be delivered as (or in) event `event` (its wire name:
     * "openURL", "scene.openURLContexts", "willFinishLaunching" or "didFinishLaunching").
     * For ADH_URL_REWRITE, set `*rewritten` to the new URL: valid UTF-8, at most
     * ADH_URL_HOOK_MAX_LENGTH bytes, an absolute URL with a scheme. A bad answer (another decision,
     * a rewrite that is NULL, empty, too long, not UTF-8 or not a URL) keeps the URL, and the host
     * reports it naming the plugin and the subscriber. NULL (the field): this subscriber is no hook.
     * [main-thread]
     * Ownership: `event` (NUL-terminated) and `url` are borrowed for the call; `*rewritten` arrives
     * as {NULL, 0} and is owned by the plugin: the host copies it at once, as soon as `decide`
     * returns, before it calls the plugin again, so it must stay valid until then (a string in the
     * instance or a static one; never a buffer on `decide`'s own stack).
     */
    adh_url_decision (*decide)(const struct adh_subscriber *self, const char *event, adh_string url,
                               adh_string *rewritten);
} adh_url_hook;

#ifdef __cplusplus
}
#endif

#endif /* ADH_EXT_URL_HOOK_H */
