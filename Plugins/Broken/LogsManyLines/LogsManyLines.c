/*
 * LogsManyLines — not a defect: a plugin that logs many lines in one event, for the tests that keep
 * the host's and apphost's logging linear in the lines of an event.
 *
 * `didBecomeActive` logs "line K of N" for K = 1..N, where N is the whole number after `"lines":`
 * in the plugin's options (10 when absent; at most 10,000,000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adh_fixture.h"

static long line_count = 10;

static void did_become_active(const adh_subscriber *self) {
    const adh_host *host = adh_fixture_host(self);
    char line[64];
    for (long index = 1; index <= line_count; index++) {
        int length = snprintf(line, sizeof line, "line %ld of %ld", index, line_count);
        host->log(host, ADH_LOG_INFO, (adh_string){ line, (size_t)length });
    }
}

/* Reads N from options such as {"lines": 200000}; the JSON is small and written by the tests. */
static void read_options(const adh_host *host) {
    adh_string options = host->options_json(host);
    if (options.data == NULL || options.length == 0 || options.length > 4096) return;
    char text[4097];
    memcpy(text, options.data, options.length);
    text[options.length] = '\0';
    const char *key = strstr(text, "\"lines\":");
    if (key == NULL) return;
    long value = strtol(key + strlen("\"lines\":"), NULL, 10);
    if (value >= 0 && value <= 10000000) line_count = value;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "LogsManyLines", host);
    if (subscriber == NULL) return NULL;
    read_options(host);
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.logs-many-lines", "LogsManyLines", create);
ADH_FIXTURE_ENTRY(descriptor)
