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

#include "adh_fixture.h"

#define LOGS_AT_DESTROY_LINES 2000

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
    const adh_host *host = adh_fixture_host(self);
    pthread_t thread;
    if (pthread_create(&thread, NULL, write_lines, (void *)host) == 0) pthread_join(thread, NULL);
    static const adh_string last = { "destroyed", 9 };
    host->log(host, ADH_LOG_INFO, last);
    adh_fixture_destroy(self);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "LogsAtDestroy", host);
    if (subscriber != NULL) subscriber->destroy = destroy;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.logs-at-destroy", "LogsAtDestroy", create);
ADH_FIXTURE_ENTRY(descriptor)
