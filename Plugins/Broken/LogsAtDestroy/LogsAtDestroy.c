/*
 * LogsAtDestroy — a plugin whose log lines arrive while it is being destroyed: every one written
 * before `destroy` returns must reach the host's log.
 *
 * `destroy` starts a thread that writes LOGS_AT_DESTROY_LINES (2,000) lines through host->log,
 * joins it, writes one last line ("destroyed") and returns. The lines are written from another
 * thread, up to the moment destroy returns; none may be lost.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

#define LOGS_AT_DESTROY_LINES 2000

typedef struct logger {
    adh_subscriber subscriber; /* first, so that the host's pointer is ours */
    const adh_host *host;
} logger;

static void *write_lines(void *argument) {
    const adh_host *host = argument;
    char line[32];
    for (int index = 0; index < LOGS_AT_DESTROY_LINES; index++) {
        int length = snprintf(line, sizeof line, "line %d", index);
        adh_string message = { line, (size_t)length };
        host->log(host, ADH_LOG_INFO, message);
    }
    return NULL;
}

static void destroy(const adh_subscriber *self) {
    const adh_host *host = ((const logger *)self)->host;
    pthread_t thread;
    if (pthread_create(&thread, NULL, write_lines, (void *)host) == 0) pthread_join(thread, NULL);
    static const adh_string last = { "destroyed", 9 };
    host->log(host, ADH_LOG_INFO, last);
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (name == NULL || strcmp(name, "LogsAtDestroy") != 0) return NULL;
    logger *made = calloc(1, sizeof *made);
    if (made == NULL) return NULL;
    made->host = host;
    made->subscriber.struct_size = sizeof made->subscriber;
    made->subscriber.destroy = destroy;
    return &made->subscriber;
}

static const char *const subscriber_names[] = { "LogsAtDestroy" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.broken.logs-at-destroy",
    .name = "LogsAtDestroy",
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
