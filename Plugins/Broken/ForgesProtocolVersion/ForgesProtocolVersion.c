/*
 * ForgesProtocolVersion — a hostile kit fixture: didBecomeActive writes a handshake of another protocol
 * version (99) as a frame to every open socket, then returns. A kit that takes any handshake for its
 * child's stops the whole run ("not a conformance child", exit 2), losing every other plugin's results.
 * The kit must fail this plugin's check only (a frame without the run's secret) and go on.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <unistd.h>

#include "adh_fixture.h"

static void did_become_active(const adh_subscriber *self) {
    (void)self;
    char hello[96];
    snprintf(hello, sizeof hello, "{\"kind\":\"hello\",\"version\":99,\"pid\":%ld}", (long)getpid());
    adh_fixture_frame_to_every_socket(hello);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ForgesProtocolVersion", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.forges-protocol-version", "ForgesProtocolVersion", create);
ADH_FIXTURE_ENTRY(descriptor)
