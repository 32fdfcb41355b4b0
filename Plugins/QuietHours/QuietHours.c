/*
 * QuietHours — a plugin in plain C that joins the notification-center family (an ABI 1.1 extension,
 * adh/ext/notification_center.h): how notifications arriving in the foreground are presented, what
 * the user did with one, and the app's notification settings.
 *
 * Options: {"quietHours": true} presents notifications quietly (in the list, with a badge; no banner,
 * no sound); {"quietHours": false} or {} with a banner and a sound. Anything else is reported through
 * log_error, and QuietHours is then not quiet.
 *
 * Threads: the host calls every function here on its main thread; a completion may be called from
 * any thread, now or later. Ownership: the host's arguments are borrowed for the call; the
 * extension vtable belongs to the instance and lives until `destroy`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

/** One instance: its core vtable first (the pointer the host gets), its extension vtable, its state. */
typedef struct quiet_hours {
    adh_subscriber subscriber;
    adh_notification_center notifications;
    const adh_host *host;
    int quiet;
} quiet_hours;

/* [any-thread] The host's functions may be called from any thread, until `destroy` returns. */
static void log_line(const quiet_hours *me, const char *line) {
    me->host->log(me->host, ADH_LOG_INFO, (adh_string){line, strlen(line)});
}

/* ---- the notification-center family ---------------------------------------------------------- */

/* [main-thread] Answers at once; the host takes the union of every subscriber's options. */
static adh_response will_present(const adh_subscriber *self, const adh_notification *notification,
                                 adh_presentation_completion completion) {
    (void)notification;
    const quiet_hours *me = self->instance;
    completion.call(completion.context, me->quiet ? ADH_PRESENTATION_LIST | ADH_PRESENTATION_BADGE
                                                  : ADH_PRESENTATION_BANNER | ADH_PRESENTATION_SOUND);
    return ADH_RESPONDS;
}

/* [main-thread] Strings are pointer + length, not NUL-terminated: print them with "%.*s" (cut to
 * 100 bytes each here; the host reads a character cut in two as U+FFFD). */
static adh_response did_receive_response(const adh_subscriber *self, const adh_notification_response *response,
                                         adh_void_completion completion) {
    adh_string action = response->action_identifier, id = response->notification->identifier;
    char line[256];
    snprintf(line, sizeof line, "action %.*s on %.*s", (int)(action.length < 100 ? action.length : 100),
             action.data ? action.data : "", (int)(id.length < 100 ? id.length : 100), id.data ? id.data : "");
    log_line(self->instance, line);
    completion.call(completion.context);
    return ADH_RESPONDS;
}

/* [main-thread] `notification` is NULL when the settings were opened from Settings. */
static void open_settings(const adh_subscriber *self, const adh_notification *notification) {
    (void)notification;
    log_line(self->instance, notification ? "settings opened from a notification" : "settings opened");
}

/* ---- the core ---------------------------------------------------------------------------------- */

/* [main-thread] The host asks once per id, right after `create`, and keeps what it gets until
 * `destroy`: the vtable lives in the instance. Any other id, known or not, gets NULL. */
static const void *get_extension(const adh_subscriber *self, const char *id) {
    const quiet_hours *me = self->instance;
    return id != NULL && strcmp(id, ADH_EXT_NOTIFICATION_CENTER) == 0 ? &me->notifications : NULL;
}

static void destroy(const adh_subscriber *self) { free(self->instance); }

/* ---- options: {"quietHours": true|false} or {} --------------------------------------------------- */

/* Skips JSON whitespace at *at, then consumes `token` if it comes next. */
static int next_is(const char **at, const char *end, const char *token) {
    while (*at < end && (**at == ' ' || **at == '\t' || **at == '\r' || **at == '\n')) (*at)++;
    size_t length = strlen(token);
    if ((size_t)(end - *at) < length || memcmp(*at, token, length) != 0) return 0;
    *at += length;
    return 1;
}

/* Reads the options into *quiet (not a JSON parser: this one shape only). NULL when they are well
 * formed; otherwise what was expected at *stop. */
static const char *read_options(adh_string json, const char **stop, int *quiet) {
    const char *end = json.data + json.length;
    *stop = json.data;
    if (!next_is(stop, end, "{")) return "'{'";
    if (!next_is(stop, end, "}")) {
        if (!next_is(stop, end, "\"quietHours\"")) return "the key \"quietHours\" or '}'";
        if (!next_is(stop, end, ":")) return "':'";
        *quiet = next_is(stop, end, "true");
        if (!*quiet && !next_is(stop, end, "false")) return "true or false";
        if (!next_is(stop, end, "}")) return "'}'";
    }
    next_is(stop, end, "");  /* trailing whitespace */
    return *stop == end ? NULL : "the end of the options";
}

/* One line through log_error: where, what was expected, what was found. */
static void report_options(const adh_host *host, adh_string json, const char *stop, const char *expected) {
    char found[16], line[160];
    if (stop == json.data + json.length) snprintf(found, sizeof found, "the end");
    else if (*stop >= 0x20 && *stop < 0x7f) snprintf(found, sizeof found, "'%c'", *stop);
    else snprintf(found, sizeof found, "byte 0x%02X", (unsigned)(unsigned char)*stop);
    snprintf(line, sizeof line, "QuietHours options: at byte %zu expected %s, found %s; not quiet",
             (size_t)(stop - json.data), expected, found);
    host->log_error(host, (adh_string){line, strlen(line)}, (adh_string){NULL, 0});
}

/* [main-thread] `host` stays valid until `destroy` returns, so the instance keeps it. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (strcmp(name, "QuietHours") != 0) return NULL;  /* an unknown name gets NULL */
    quiet_hours *me = calloc(1, sizeof *me);  /* every entry not set below stays NULL */
    if (me == NULL) return NULL;
    me->subscriber.struct_size = sizeof me->subscriber;
    me->subscriber.instance = me;
    me->subscriber.destroy = destroy;
    me->subscriber.get_extension = get_extension;
    me->notifications.struct_size = sizeof me->notifications;
    me->notifications.will_present = will_present;
    me->notifications.did_receive_response = did_receive_response;
    me->notifications.open_settings = open_settings;
    me->host = host;
    adh_string options = host->options_json(host);  /* owned by the host, valid as long as `host` */
    const char *stop, *expected = options.data ? read_options(options, &stop, &me->quiet) : NULL;
    if (expected != NULL) {
        me->quiet = 0;
        report_options(host, options, stop, expected);
    }
    return &me->subscriber;
}

static const char *const names[] = {"QuietHours"};
static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR, .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.quiet-hours", .name = "QuietHours", .version = "1.0.0", .vendor = "AppDelegateHost",
    .swift_version = "", /* empty: a C plugin */
    .subscriber_count = 1, .subscriber_names = names, .create = create,
};

/* ADH_EXPORT: the one symbol this library exports (it is built with -fvisibility=hidden). */
ADH_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void) { return &descriptor; }
