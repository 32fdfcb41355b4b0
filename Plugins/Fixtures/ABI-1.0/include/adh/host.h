/*
 * adh/host.h — what the host gives each subscriber: logging and its data source.
 *
 * Q2's ModuleDelegate (log, logEvent, logError) and ModuleDataSource (app info, options) in C.
 * Depends on adh/types.h only.
 */
#ifndef ADH_HOST_H
#define ADH_HOST_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The host interface. The host makes one per subscriber instance, so that every log line is
 * attributed to the subscriber that wrote it and `options_json` is that subscriber's own options.
 *
 * Ownership: the host owns this struct and everything it points to. It stays valid from the call
 * to `create` until `destroy` of the subscriber it was given to has returned. Never free it.
 */
typedef struct adh_host {
    /** sizeof(adh_host) as the host compiled it. Check ADH_STRUCT_HAS before reading later fields. */
    uint32_t struct_size;
    /** The host's ABI version. Its major equals the plugin's (the host refused the plugin otherwise). */
    uint32_t abi_major;
    uint32_t abi_minor;

    /** Opaque to the plugin. Pass `host` back as the first argument; never dereference it. */
    void *host_data;

    /**
     * Writes one log line, attributed to this subscriber.
     * [any-thread] `message` is borrowed for the call.
     */
    void (*log)(const struct adh_host *host, adh_log_level level, adh_string message);

    /**
     * Records an analytics event (`session_started`, …) with attributes given as a JSON object
     * (`data == NULL` for none).
     * [any-thread] `name` and `attributes_json` are borrowed for the call.
     */
    void (*log_event)(const struct adh_host *host, adh_string name, adh_string attributes_json);

    /**
     * Records an error with attributes given as a JSON object (`data == NULL` for none).
     * [any-thread] `message` and `attributes_json` are borrowed for the call.
     */
    void (*log_error)(const struct adh_host *host, adh_string message, adh_string attributes_json);

    /**
     * The app's info as a JSON object: {"name", "bundleIdentifier", "version"}.
     * [any-thread] The returned bytes are owned by the host and valid as long as this struct.
     */
    adh_string (*app_info_json)(const struct adh_host *host);

    /**
     * This subscriber's `options` from the manifest, as JSON (`{}` when the manifest gives none).
     * [any-thread] The returned bytes are owned by the host and valid as long as this struct.
     */
    adh_string (*options_json)(const struct adh_host *host);
} adh_host;

#ifdef __cplusplus
}
#endif

#endif /* ADH_HOST_H */
