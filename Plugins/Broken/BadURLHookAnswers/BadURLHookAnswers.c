/*
 * BadURLHookAnswers — a deliberately broken plugin: a URL hook (adh.url-hook/1) whose `decide`
 * answers badly, chosen by the URL it is asked about:
 *
 *   bad://decision  returns 7, no decision
 *   bad://null      rewrites to {NULL, 0}
 *   bad://empty     rewrites to the empty string
 *   bad://utf8      rewrites to bytes that are not UTF-8
 *   bad://relative  rewrites to "no scheme here", not an absolute URL
 *   bad://long      rewrites to a URL one byte longer than ADH_URL_HOOK_MAX_LENGTH
 *   anything else   keeps it (a good answer)
 *
 * The host must keep the URL each time and say so in one line naming the plugin, the subscriber,
 * what it expected and what it found.
 */
#include "adh_fixture.h"

static char long_url[ADH_URL_HOOK_MAX_LENGTH + 1];
static const char not_utf8[] = {'x', ':', '/', '/', (char)0xff, (char)0xfe};

static int is(adh_string url, const char *text) {
    return url.length == strlen(text) && memcmp(url.data, text, url.length) == 0;
}

static adh_url_decision decide(const adh_subscriber *self, const char *event, adh_string url, adh_string *rewritten) {
    (void)self;
    (void)event;
    if (is(url, "bad://decision")) return 7;
    if (is(url, "bad://null")) {
        *rewritten = (adh_string){NULL, 0};
        return ADH_URL_REWRITE;
    }
    if (is(url, "bad://empty")) *rewritten = (adh_string){"", 0};
    else if (is(url, "bad://utf8")) *rewritten = (adh_string){not_utf8, sizeof not_utf8};
    else if (is(url, "bad://relative")) *rewritten = (adh_string){"no scheme here", 14};
    else if (is(url, "bad://long")) {
        memset(long_url, 'a', sizeof long_url);
        memcpy(long_url, "x://", 4);
        *rewritten = (adh_string){long_url, sizeof long_url};
    } else return ADH_URL_KEEP;
    return ADH_URL_REWRITE;
}

static const adh_url_hook hook = {.struct_size = sizeof(adh_url_hook), .decide = decide};

static const void *get_extension(const adh_subscriber *self, const char *id) {
    (void)self;
    return id != NULL && strcmp(id, ADH_EXT_URL_HOOK) == 0 ? &hook : NULL;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "BadURLHookAnswers", host);
    if (subscriber != NULL) subscriber->get_extension = get_extension;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.bad-url-hook-answers", "BadURLHookAnswers", create);
ADH_FIXTURE_ENTRY(descriptor)
