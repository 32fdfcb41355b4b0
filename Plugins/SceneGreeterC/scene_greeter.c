#include "SubscriberABI.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One instance: its core struct first (what the host gets), then its scene vtable. */
typedef struct scene_greeter {
    adh_subscriber subscriber;
    adh_scene_delegate scenes;
    const adh_host *host;
} scene_greeter;

/* [main-thread] The scene's identifier is an adh_string: a pointer and a length, not NUL-terminated. */
static void did_become_active(const adh_subscriber *self, const adh_scene *scene) {
    const scene_greeter *me = self->instance;
    char line[160];
    int length = snprintf(line, sizeof line, "Hello from C in scene %.*s!",
                          (int)(scene->identifier.length < 100 ? scene->identifier.length : 100), scene->identifier.data);
    me->host->log(me->host, ADH_LOG_INFO, (adh_string){line, (size_t)length});
}

/* [main-thread] Handles the greeter: URLs; no opinion about any other. */
static adh_tristate open_url_contexts(const adh_subscriber *self, const adh_scene *scene,
                                      const adh_open_url *const *url_contexts, size_t count) {
    (void)self;
    (void)scene;
    for (size_t i = 0; i < count; i++) {
        adh_string url = url_contexts[i]->url;
        if (url.length >= 8 && memcmp(url.data, "greeter:", 8) == 0) return ADH_TRUE;
    }
    return ADH_NO_OPINION;
}

/* [main-thread] Asked once, right after create: the scene vtable, NULL for any other id. */
static const void *get_extension(const adh_subscriber *self, const char *id) {
    const scene_greeter *me = self->instance;
    return strcmp(id, ADH_EXT_SCENE) == 0 ? &me->scenes : NULL;
}

static void destroy(const adh_subscriber *self) { free(self->instance); }

/* Every entry left NULL (calloc) means "does not respond to that event". */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (strcmp(name, "SceneGreeterC") != 0) return NULL;
    scene_greeter *me = calloc(1, sizeof *me);
    if (me == NULL) return NULL;
    me->subscriber.struct_size = sizeof me->subscriber;
    me->subscriber.instance = me;
    me->subscriber.destroy = destroy;
    me->subscriber.get_extension = get_extension;
    me->scenes.struct_size = sizeof me->scenes;
    me->scenes.did_become_active = did_become_active;
    me->scenes.open_url_contexts = open_url_contexts;
    me->host = host;
    return &me->subscriber;
}

static const char *const names[] = {"SceneGreeterC"};
static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR, .abi_minor = ADH_ABI_MINOR,
    .id = "com.example.scene-greeter-c", .name = "Scene Greeter (C)", .version = "1.0.0", .vendor = "",
    .swift_version = "", /* empty: a C plugin */
    .subscriber_count = 1, .subscriber_names = names, .create = create,
};

ADH_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void) { return &descriptor; }
