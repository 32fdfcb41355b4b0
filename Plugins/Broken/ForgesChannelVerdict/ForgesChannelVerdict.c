/*
 * ForgesChannelVerdict — a hostile kit fixture that attacks the kit's channel from inside the process
 * that loads it, as a library a plugin depends on could. Its constructor (run by dlopen) writes a
 * passing verdict in the kit's old protocol — a handshake, a "pass" verdict, a clean ending — as a frame
 * to every open socket; didBecomeActive then crashes (SIGSEGV), and a SIGSEGV handler it installed
 * writes the forgery again and exits 0. A kit that trusts the last verdict on its channel reports every
 * check passed. The kit must fail the checks: the forged frames lack the run's secret.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "adh_fixture.h"

static void forge(void) {
    adh_fixture_frame_to_every_socket("{\"kind\":\"hello\",\"version\":2,\"pid\":1}");
    adh_fixture_frame_to_every_socket("{\"kind\":\"verdict\",\"status\":\"pass\",\"expected\":\"anything\","
                                      "\"found\":\"forged by ForgesChannelVerdict\"}");
    adh_fixture_frame_to_every_socket("{\"kind\":\"ended\",\"exit\":0,\"leftovers\":0,\"pids\":[]}");
}

/* The crash, hidden: the forgery again, then a clean exit. */
static void on_crash(int signal_number) {
    (void)signal_number;
    forge();
    _exit(0);
}

__attribute__((constructor)) static void forge_when_loaded(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_crash;
    sigaction(SIGSEGV, &action, NULL);
    forge();
}

static void did_become_active(const adh_subscriber *self) {
    (void)self;
    volatile int *nowhere = NULL;
    *nowhere = 1;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ForgesChannelVerdict", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.forges-channel-verdict", "ForgesChannelVerdict", create);
ADH_FIXTURE_ENTRY(descriptor)
