/*
 * adh/plugin.h — the plugin descriptor and the entry symbol.
 *
 * Depends on adh/types.h, adh/host.h, adh/subscriber.h.
 *
 * A plugin is a shared library that exports one function named ADH_ENTRY_SYMBOL
 * ("adh_plugin_entry") of type adh_plugin_entry_fn. The host loads it with RTLD_NOW | RTLD_LOCAL and
 * never unloads it, so the descriptor and every string in it may be static.
 */
#ifndef ADH_PLUGIN_H
#define ADH_PLUGIN_H

#include "types.h"
#include "host.h"
#include "subscriber.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * What a plugin is and what it provides. Owned by the plugin; must stay valid and unchanged for the
 * life of the process (a static is the natural home). All strings are NUL-terminated UTF-8.
 */
typedef struct adh_plugin_descriptor {
    /** sizeof(adh_plugin_descriptor) as the plugin compiled it. */
    uint32_t struct_size;
    /** ADH_ABI_MAJOR and ADH_ABI_MINOR as the plugin compiled them. */
    uint32_t abi_major;
    uint32_t abi_minor;

    /** Reverse-DNS identifier, e.g. "com.example.deeplink-router". Non-empty. */
    const char *id;
    /** Human-readable name. Non-empty. */
    const char *name;
    /** The plugin's own version, e.g. "1.2.0". */
    const char *version;
    /** Who ships it. May be empty. */
    const char *vendor;
    /**
     * The Swift compiler that built the plugin, "major.minor" (e.g. "6.3"); "" for a plugin written
     * in C. A Swift plugin must match the host's major.minor.
     */
    const char *swift_version;

    /** The names of the subscribers `create` can make (Expo's appDelegateSubscribers). Unique. */
    uint32_t subscriber_count;
    const char *const *subscriber_names;

    /**
     * Makes one subscriber instance named `name` (one of `subscriber_names`), or returns NULL for any
     * other name. `host` is owned by the host and stays valid until the instance's `destroy` returned.
     * The returned struct is owned by the plugin until `destroy`.
     * [main-thread]
     */
    const adh_subscriber *(*create)(const char *name, const adh_host *host);
} adh_plugin_descriptor;

/**
 * The entry symbol's type. Returns the plugin's descriptor; may be called more than once and must
 * return the same pointer each time. Must not fail or block.
 * [main-thread]
 */
typedef const adh_plugin_descriptor *(*adh_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* ADH_PLUGIN_H */
