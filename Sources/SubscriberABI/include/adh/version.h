/*
 * adh/version.h — the ABI version and the name of the entry symbol.
 *
 * Depends on nothing. Part of the AppDelegateHost binary contract (SubscriberABI).
 *
 * Versioning rules (read these before changing any struct in this directory):
 * - Every struct that crosses the boundary starts with `uint32_t struct_size`, set by whoever fills
 *   the struct to `sizeof` the struct as *they* compiled it.
 * - Fields are only ever appended. A reader touches a field only when `struct_size` covers it
 *   (see ADH_STRUCT_HAS below); a field the writer did not know about reads as absent.
 * - Appending fields bumps ADH_ABI_MINOR. Anything else (removing, reordering, changing a type or a
 *   meaning) bumps ADH_ABI_MAJOR, and the host refuses plugins of another major.
 */
#ifndef ADH_VERSION_H
#define ADH_VERSION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Major version of this contract. A host refuses a plugin whose major differs. */
#define ADH_ABI_MAJOR 1
/**
 * Minor version of this contract. A host accepts plugins of any minor of its major.
 * 1.0: the descriptor, the host interface, the 29 app-delegate events of adh_subscriber.
 * 1.1: `get_extension` appended to adh_subscriber and adh_host: event families and host services
 *      come as extensions (adh/ext/), one header each, asked for by a versioned id;
 *      `event_attribution_json` appended to adh_open_url.
 */
#define ADH_ABI_MINOR 1

/**
 * The one symbol a plugin exports: a *function* (dlsym is only guaranteed for functions) of type
 * `adh_plugin_entry_fn` (see adh/plugin.h).
 */
#define ADH_ENTRY_SYMBOL "adh_plugin_entry"

/**
 * Marks the entry function for export: `ADH_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void)`.
 * A plugin built with `-fvisibility=hidden` (recommended: the entry is then its only symbol) still
 * exports what carries this.
 */
#if defined(_WIN32)
#define ADH_EXPORT __declspec(dllexport)
#else
#define ADH_EXPORT __attribute__((visibility("default")))
#endif

/**
 * Whether a host speaking `host_major`.`host_minor` accepts a plugin built for `major`.`minor`: the
 * majors must be equal; any minor works both ways (a newer plugin's appended fields are ignored by an
 * older host, an older plugin's missing fields read as absent).
 */
static inline int adh_version_is_compatible(uint32_t host_major, uint32_t host_minor, uint32_t major,
                                            uint32_t minor) {
    (void)host_minor;
    (void)minor;
    return host_major == major;
}

/**
 * True when a struct written by the other side, whose first field is `struct_size`, is large enough
 * to contain `field`. Use it before reading any field added after ABI 1.0.
 */
#define ADH_STRUCT_HAS(ptr, type, field) \
    ((ptr)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

#ifdef __cplusplus
}
#endif

#endif /* ADH_VERSION_H */
