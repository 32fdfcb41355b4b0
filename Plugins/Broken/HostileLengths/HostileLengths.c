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

#include "adh_fixture.h"

/* The defect: a length no string can have. */
static const adh_string endless = { "endless", SIZE_MAX };

static void did_become_active(const adh_subscriber *self) {
    const adh_host *host = adh_fixture_host(self);
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

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "HostileLengths", host);
    if (subscriber == NULL) return NULL;
    subscriber->did_become_active = did_become_active;
    subscriber->configuration_for_connecting = configuration_for_connecting;
    subscriber->handle_watchkit_extension_request = handle_watchkit_extension_request;
    subscriber->perform_fetch = perform_fetch;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.hostile-lengths", "HostileLengths", create);
ADH_FIXTURE_ENTRY(descriptor)
