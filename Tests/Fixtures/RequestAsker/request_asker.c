/*
 * RequestAsker: a C subscriber that makes requests through `adh.host.requests/1`, compiled by the
 * tests at test time (this folder is in no target). No shipped plugin makes requests.
 *
 * - didBecomeActive: asks registerForRemoteNotifications, then updateSupportedInterfaceOrientations,
 *   during the event.
 * - didEnterBackground: starts a thread that asks registerForRemoteNotifications after the event
 *   returned: once destroy tells it to (so after the last event, however busy the machine is), and
 *   destroy joins it, so the host interface is still valid when it asks.
 * - supportedInterfaceOrientations: counts the calls and logs each; landscape left on a pad,
 *   portrait elsewhere.
 */
#include "SubscriberABI.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const adh_host *host;
    const adh_host_requests *requests;
    int orientation_calls;
    int thread_started;
    pthread_t thread;
    /* destroy writes a byte here: the thread's signal to ask. */
    int wake[2];
} asker;

static void say(const asker *me, const char *text) {
    me->host->log(me->host, ADH_LOG_INFO, (adh_string){text, strlen(text)});
}

/* [main-thread] */
static void did_become_active(const adh_subscriber *self) {
    asker *me = self->instance;
    me->requests->register_for_remote_notifications(me->host);
    me->requests->update_supported_interface_orientations(me->host);
}

/* [any-thread] Runs after didEnterBackground returned; asks once destroy says so. */
static void *ask_later(void *context) {
    asker *me = context;
    char byte;
    while (read(me->wake[0], &byte, 1) < 0 && errno == EINTR) {}
    me->requests->register_for_remote_notifications(me->host);
    say(me, "asked from a thread");
    return NULL;
}

/* [main-thread] */
static void did_enter_background(const adh_subscriber *self) {
    asker *me = self->instance;
    if (me->thread_started || pipe(me->wake) != 0) return;
    me->thread_started = pthread_create(&me->thread, NULL, ask_later, me) == 0;
    if (!me->thread_started) {
        close(me->wake[0]);
        close(me->wake[1]);
    }
}

/* [main-thread] */
static int64_t supported_interface_orientations(const adh_subscriber *self, adh_idiom idiom) {
    asker *me = self->instance;
    me->orientation_calls += 1;
    char line[64];
    snprintf(line, sizeof line, "orientations asked %d times", me->orientation_calls);
    say(me, line);
    return idiom == ADH_IDIOM_PAD ? ADH_ORIENTATION_LANDSCAPE_LEFT : ADH_ORIENTATION_PORTRAIT;
}

static void destroy(const adh_subscriber *self) {
    asker *me = self->instance;
    if (me->thread_started) {
        while (write(me->wake[1], "!", 1) < 0 && errno == EINTR) {}
        pthread_join(me->thread, NULL);
        close(me->wake[0]);
        close(me->wake[1]);
    }
    free(me);
    free((void *)self);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (strcmp(name, "RequestAsker") != 0) return NULL;
    if (!ADH_STRUCT_HAS(host, adh_host, get_extension) || host->get_extension == NULL) return NULL;
    const adh_host_requests *requests = host->get_extension(host, ADH_EXT_HOST_REQUESTS);
    if (requests == NULL || !ADH_STRUCT_HAS(requests, adh_host_requests, update_supported_interface_orientations)) return NULL;
    asker *me = calloc(1, sizeof *me);
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (me == NULL || subscriber == NULL) {
        free(me);
        free(subscriber);
        return NULL;
    }
    me->host = host;
    me->requests = requests;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->instance = me;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    subscriber->did_enter_background = did_enter_background;
    subscriber->supported_interface_orientations = supported_interface_orientations;
    return subscriber;
}

static const char *const names[] = {"RequestAsker"};
static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR, .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.tests.request-asker", .name = "Request asker", .version = "1.0.0", .vendor = "",
    .swift_version = "",
    .subscriber_count = 1, .subscriber_names = names, .create = create,
};

__attribute__((visibility("default")))
const adh_plugin_descriptor *adh_plugin_entry(void) { return &descriptor; }
