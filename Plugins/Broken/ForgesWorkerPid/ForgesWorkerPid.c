/*
 * ForgesWorkerPid — a hostile kit fixture: didBecomeActive writes a handshake in the kit's old protocol
 * naming another process as "the worker" — the pid in its options' "victimPid", else its own — as a
 * frame to every open socket, then never returns. A kit that stops "the worker" a child names kills
 * that process at the timeout. The kit must kill only what it started, and fail the check (a hang, and
 * a frame without the run's secret).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "adh_fixture.h"

static void did_become_active(const adh_subscriber *self) {
    adh_string options = adh_fixture_options(adh_fixture_host(self));
    long victim = (long)getpid();
    size_t at = adh_fixture_find_end(options, "\"victimPid\":");
    if (at > 0) {
        char digits[24] = {0};
        for (size_t i = 0; i < sizeof digits - 1 && at + i < options.length; i++) digits[i] = options.data[at + i];
        long named = strtol(digits, NULL, 10);
        if (named > 0) victim = named;
    }
    char hello[96];
    snprintf(hello, sizeof hello, "{\"kind\":\"hello\",\"version\":2,\"pid\":%ld}", victim);
    adh_fixture_frame_to_every_socket(hello);
    for (;;) adh_fixture_sleep_ms(1000);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ForgesWorkerPid", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.forges-worker-pid", "ForgesWorkerPid", create);
ADH_FIXTURE_ENTRY(descriptor)
