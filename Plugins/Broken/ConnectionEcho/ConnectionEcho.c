/*
 * ConnectionEcho — not a defect: a plugin of two scene subscribers, "ConnectFirst" and "ConnectSecond",
 * each of which logs what its scene.willConnect's connection options hold, as
 * "<scene>: <first URL or ->, <activity type or ->, <URL count>", so that tests see which options
 * reached which C subscriber (the flutter profile gives them to the first scene subscriber only).
 */
#include <stdio.h>

#include "adh_fixture.h"

typedef struct connection_echo {
    adh_fixture_subscriber base; /* first: the host's pointer is this one */
    adh_scene_delegate scenes;
} connection_echo;

static void will_connect(const adh_subscriber *self, const adh_scene *scene, const adh_scene_connection_options *options) {
    const adh_host *host = adh_fixture_host(self);
    adh_string url = {"-", 1}, activity = {"-", 1};
    size_t count = options->url_context_count;
    if (count > 0 && options->url_contexts[0]->url.data != NULL) url = options->url_contexts[0]->url;
    if (options->user_activity != NULL && options->user_activity->activity_type.data != NULL) {
        activity = options->user_activity->activity_type;
    }
    char line[512];
    int length = snprintf(line, sizeof line, "%.*s: %.*s, %.*s, %zu", (int)(scene->identifier.length < 64 ? scene->identifier.length : 64),
                          scene->identifier.data, (int)(url.length < 200 ? url.length : 200), url.data,
                          (int)(activity.length < 200 ? activity.length : 200), activity.data, count);
    if (length < 0) return;
    host->log(host, ADH_LOG_INFO, (adh_string){line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1});
}

static const void *get_extension(const adh_subscriber *self, const char *id) {
    const connection_echo *me = (const connection_echo *)self;
    return id != NULL && strcmp(id, ADH_EXT_SCENE) == 0 ? &me->scenes : NULL;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (name == NULL || (strcmp(name, "ConnectFirst") != 0 && strcmp(name, "ConnectSecond") != 0)) return NULL;
    connection_echo *me = calloc(1, sizeof *me);
    if (me == NULL) return NULL;
    me->base.host = host;
    me->base.subscriber.struct_size = sizeof me->base.subscriber;
    me->base.subscriber.destroy = adh_fixture_destroy;
    me->base.subscriber.get_extension = get_extension;
    me->scenes.struct_size = sizeof me->scenes;
    me->scenes.will_connect = will_connect;
    return &me->base.subscriber;
}

static const char *const subscriber_names[] = { "ConnectFirst", "ConnectSecond" };
static const adh_plugin_descriptor descriptor = ADH_FIXTURE_DESCRIPTOR_FIELDS(
    "dev.appdelegatehost.fixture.connection-echo", "ConnectionEcho", subscriber_names, create);
ADH_FIXTURE_ENTRY(descriptor)
