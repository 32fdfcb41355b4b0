/*
 * OptionsEcho — not a defect: a plugin of two subscribers, "EchoFirst" and "EchoSecond", each of
 * which logs the options the host hands it (`options_json`, verbatim) once, at create, as
 * "options: <json>", so that tests see which options reached which subscriber.
 */
#include <stdio.h>

#include "adh_fixture.h"

static void log_options(const adh_host *host) {
    adh_string options = adh_fixture_options(host);
    static const char prefix[] = "options: ";
    size_t length = sizeof prefix - 1 + options.length;
    char *line = malloc(length + 1);
    if (line == NULL) return;
    memcpy(line, prefix, sizeof prefix - 1);
    if (options.length > 0) memcpy(line + sizeof prefix - 1, options.data, options.length);
    line[length] = '\0';
    adh_string message = { line, length };
    host->log(host, ADH_LOG_INFO, message);
    free(line);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (name == NULL || (strcmp(name, "EchoFirst") != 0 && strcmp(name, "EchoSecond") != 0)) return NULL;
    adh_subscriber *subscriber = adh_fixture_new(host);
    if (subscriber == NULL) return NULL;
    subscriber->did_become_active = adh_fixture_harmless_event;
    log_options(host);
    return subscriber;
}

static const char *const subscriber_names[] = { "EchoFirst", "EchoSecond" };
static const adh_plugin_descriptor descriptor = ADH_FIXTURE_DESCRIPTOR_FIELDS(
    "dev.appdelegatehost.fixture.options-echo", "OptionsEcho", subscriber_names, create);
ADH_FIXTURE_ENTRY(descriptor)
