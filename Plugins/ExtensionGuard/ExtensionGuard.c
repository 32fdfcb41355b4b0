/*
 * ExtensionGuard — an example subscriber plugin written in plain C against SubscriberABI.h alone.
 *
 * It vetoes app-extension points the manifest denies (shouldAllowExtensionPointIdentifier), for
 * example custom keyboards:
 *     {"library": "ExtensionGuard", "subscribers": ["ExtensionGuard"],
 *      "options": {"denyExtensionPoints": ["com.apple.keyboard-service"]}}
 * agrees to secure state saving and restoration, and logs every memory warning (a log line and a
 * `memory_warning_received` event with the running count). Every other event is left NULL, so the
 * host skips this subscriber for it. Malformed options are reported through log_error, and then
 * ExtensionGuard vetoes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "DenyList.h"
#include "SubscriberABI.h"

static const char SUBSCRIBER_NAME[] = "ExtensionGuard";

/** One instance: its vtable first (so `self` is the instance), the host, and its state. */
typedef struct extension_guard {
    adh_subscriber vtable;
    const adh_host *host;
    eg_deny_list denied;
    unsigned long memory_warnings;
} extension_guard;

static extension_guard *guard_of(const adh_subscriber *self) {
    return (extension_guard *)self->instance;
}

static adh_string string_of(const char *text, size_t length) {
    adh_string result = { text, length };
    return result;
}

static const adh_string NO_ATTRIBUTES = { NULL, 0 };

/* ---- host calls, tolerant of a host that leaves a function out --------------------------------- */

static void host_log(const adh_host *host, adh_log_level level, const char *message) {
    if (ADH_STRUCT_HAS(host, adh_host, log) && host->log != NULL)
        host->log(host, level, string_of(message, strlen(message)));
}

static void host_log_event(const adh_host *host, const char *name, const char *attributes) {
    if (ADH_STRUCT_HAS(host, adh_host, log_event) && host->log_event != NULL)
        host->log_event(host, string_of(name, strlen(name)), string_of(attributes, strlen(attributes)));
}

static void host_log_error(const adh_host *host, const char *message, const char *attributes) {
    if (ADH_STRUCT_HAS(host, adh_host, log_error) && host->log_error != NULL)
        host->log_error(host, string_of(message, strlen(message)), string_of(attributes, strlen(attributes)));
}

static adh_string host_options(const adh_host *host) {
    if (ADH_STRUCT_HAS(host, adh_host, options_json) && host->options_json != NULL)
        return host->options_json(host);
    return NO_ATTRIBUTES;
}

/* ---- events ----------------------------------------------------------------------------------- */

static adh_tristate should_allow_extension_point_identifier(const adh_subscriber *self,
                                                            adh_string identifier) {
    if (identifier.data == NULL) return ADH_NO_OPINION;
    return eg_deny_list_contains(&guard_of(self)->denied, identifier.data, identifier.length)
               ? ADH_FALSE
               : ADH_NO_OPINION;
}

static void did_receive_memory_warning(const adh_subscriber *self) {
    extension_guard *guard = guard_of(self);
    guard->memory_warnings++;
    char line[64];
    snprintf(line, sizeof line, "memory warning #%lu received", guard->memory_warnings);
    host_log(guard->host, ADH_LOG_WARNING, line);
    char attributes[48];
    snprintf(attributes, sizeof attributes, "{\"count\": %lu}", guard->memory_warnings);
    host_log_event(guard->host, "memory_warning_received", attributes);
}

static adh_tristate should_save_secure_application_state(const adh_subscriber *self) {
    (void)self;
    return ADH_TRUE;
}

static adh_tristate should_restore_secure_application_state(const adh_subscriber *self) {
    (void)self;
    return ADH_TRUE;
}

/* ---- life cycle ------------------------------------------------------------------------------- */

static void destroy(const adh_subscriber *self) {
    extension_guard *guard = guard_of(self);
    eg_deny_list_free(&guard->denied);
    free(guard);
}

/** Reads the deny list from the options; on malformed options, reports them and denies nothing. */
static void configure(extension_guard *guard) {
    adh_string options = host_options(guard->host);
    if (options.data == NULL) return;
    char error[256];
    size_t offset = 0;
    if (!eg_deny_list_parse(&guard->denied, options.data, options.length, error, sizeof error, &offset)) {
        char attributes[48];
        snprintf(attributes, sizeof attributes, "{\"offset\": %zu}", offset);
        host_log_error(guard->host, error, attributes);
        return;
    }
    if (guard->denied.count > 0) {
        char line[64];
        snprintf(line, sizeof line, "denying %zu extension point%s", guard->denied.count,
                 guard->denied.count == 1 ? "" : "s");
        host_log(guard->host, ADH_LOG_INFO, line);
    }
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (name == NULL || host == NULL || strcmp(name, SUBSCRIBER_NAME) != 0) return NULL;
    extension_guard *guard = calloc(1, sizeof *guard); /* every event not set below stays NULL */
    if (guard == NULL) return NULL;
    guard->vtable.struct_size = sizeof guard->vtable;
    guard->vtable.instance = guard;
    guard->vtable.destroy = destroy;
    guard->vtable.did_receive_memory_warning = did_receive_memory_warning;
    guard->vtable.should_allow_extension_point_identifier = should_allow_extension_point_identifier;
    guard->vtable.should_save_secure_application_state = should_save_secure_application_state;
    guard->vtable.should_restore_secure_application_state = should_restore_secure_application_state;
    guard->host = host;
    configure(guard);
    return &guard->vtable;
}

/* ---- the plugin ------------------------------------------------------------------------------- */

static const char *const subscriber_names[] = { SUBSCRIBER_NAME };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.extension-guard",
    .name = "ExtensionGuard",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "", /* written in C */
    .subscriber_count = sizeof subscriber_names / sizeof subscriber_names[0],
    .subscriber_names = subscriber_names,
    .create = create,
};

/** The entry symbol (ADH_ENTRY_SYMBOL): the only symbol this library exports. */
__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entry(void) {
    return &descriptor;
}
