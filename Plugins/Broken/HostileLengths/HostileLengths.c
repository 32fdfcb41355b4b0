/*
 * HostileLengths — a deliberately broken plugin: hands the host strings whose length is
 * (size_t)-1, and forges a completion token.
 *
 * didBecomeActive: log, log_event and log_error with a length of SIZE_MAX, then one good line.
 * configurationForConnecting: answers a string of length SIZE_MAX.
 * handleWatchKitExtensionRequest: replies with a string of length SIZE_MAX.
 * performFetch: calls the completion with its own context − 1 (a neighbour's token, were tokens
 * sequential), then with its own context (newData).
 * The host must read every bad length as invalid and report it, never trap, and report the forged
 * call against this subscriber only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

/* The defect: a length no string can have. */
static const adh_string endless = { "endless", SIZE_MAX };

typedef struct hostile {
    adh_subscriber subscriber; /* first, so that the host's pointer is ours */
    const adh_host *host;
} hostile;

static const adh_host *host_of(const adh_subscriber *self) {
    return ((const hostile *)self)->host;
}

static void did_become_active(const adh_subscriber *self) {
    const adh_host *host = host_of(self);
    static const adh_string opened = { "opened", 6 };
    static const adh_string fine = { "still here", 10 };
    host->log(host, ADH_LOG_INFO, endless);
    host->log_event(host, endless, endless);
    host->log_event(host, opened, endless);
    host->log_error(host, endless, endless);
    host->log(host, ADH_LOG_INFO, fine);
}

static adh_string configuration_for_connecting(const adh_subscriber *self, adh_string role) {
    (void)self;
    (void)role;
    return endless;
}

static adh_response handle_watchkit_extension_request(const adh_subscriber *self, adh_string user_info,
                                                      adh_json_completion reply) {
    (void)self;
    (void)user_info;
    reply.call(reply.context, endless);
    return ADH_RESPONDS;
}

static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    (void)self;
    completion.call((void *)((uintptr_t)completion.context - 1), ADH_FETCH_FAILED);
    completion.call(completion.context, ADH_FETCH_NEW_DATA);
    return ADH_RESPONDS;
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (name == NULL || strcmp(name, "HostileLengths") != 0) return NULL;
    hostile *made = calloc(1, sizeof *made);
    if (made == NULL) return NULL;
    made->host = host;
    made->subscriber.struct_size = sizeof made->subscriber;
    made->subscriber.destroy = destroy;
    made->subscriber.did_become_active = did_become_active;
    made->subscriber.configuration_for_connecting = configuration_for_connecting;
    made->subscriber.handle_watchkit_extension_request = handle_watchkit_extension_request;
    made->subscriber.perform_fetch = perform_fetch;
    return &made->subscriber;
}

static const char *const subscriber_names[] = { "HostileLengths" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.hostile-lengths",
    .name = "HostileLengths",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = sizeof subscriber_names / sizeof subscriber_names[0],
    .subscriber_names = subscriber_names,
    .create = create,
};

__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entry(void) {
    return &descriptor;
}
