#include "SubscriberABI.h"
#include <stdlib.h>
#include <string.h>

/* One instance: its core struct first (what the host gets), its URL hook, and the buffer a rewritten
 * URL lives in until the host has copied it (it does so as soon as decide returns). */
typedef struct link_rewriter {
    adh_subscriber subscriber;
    adh_url_hook hook;
    char rewritten[ADH_URL_HOOK_MAX_LENGTH];
} link_rewriter;

static int has_prefix(adh_string url, const char *prefix) {
    size_t length = strlen(prefix);
    return url.length >= length && memcmp(url.data, prefix, length) == 0;
}

/* [main-thread] news://old/… becomes news://new/…, news://spam is dropped, every other URL is kept. */
static adh_url_decision decide(const adh_subscriber *self, const char *event, adh_string url, adh_string *rewritten) {
    link_rewriter *me = self->instance;
    (void)event; /* the same decision for openURL, URL contexts and a launch's URL */
    if (url.length == 11 && memcmp(url.data, "news://spam", 11) == 0) return ADH_URL_DROP;
    if (!has_prefix(url, "news://old/")) return ADH_URL_KEEP;
    size_t rest = url.length - 11;
    if (11 + rest > sizeof me->rewritten) return ADH_URL_KEEP;
    memcpy(me->rewritten, "news://new/", 11);
    memcpy(me->rewritten + 11, url.data + 11, rest);
    *rewritten = (adh_string){me->rewritten, 11 + rest};
    return ADH_URL_REWRITE;
}

/* [main-thread] Asked once, right after create: the URL hook, NULL for any other id. */
static const void *get_extension(const adh_subscriber *self, const char *id) {
    const link_rewriter *me = self->instance;
    return strcmp(id, ADH_EXT_URL_HOOK) == 0 ? &me->hook : NULL;
}

static void destroy(const adh_subscriber *self) { free(self->instance); }

/* Every event entry left NULL (calloc): a hook need not respond to any event. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    (void)host;
    if (strcmp(name, "LinkRewriterC") != 0) return NULL;
    link_rewriter *me = calloc(1, sizeof *me);
    if (me == NULL) return NULL;
    me->subscriber.struct_size = sizeof me->subscriber;
    me->subscriber.instance = me;
    me->subscriber.destroy = destroy;
    me->subscriber.get_extension = get_extension;
    me->hook.struct_size = sizeof me->hook;
    me->hook.decide = decide;
    return &me->subscriber;
}

static const char *const names[] = {"LinkRewriterC"};
static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR, .abi_minor = ADH_ABI_MINOR,
    .id = "com.example.link-rewriter-c", .name = "Link Rewriter (C)", .version = "1.0.0", .vendor = "",
    .swift_version = "", /* empty: a C plugin */
    .subscriber_count = 1, .subscriber_names = names, .create = create,
};

ADH_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void) { return &descriptor; }
