/*
 * adh_fixture.h — the scaffolding every fixture plugin in Plugins/Broken shares, so that each fixture's
 * file holds its one defect and little else.
 *
 * Header-only (static inline functions and macros): a fixture stays one self-contained .so whose
 * only export is its entry symbol. Nothing here is part of the ABI; the example plugins in Plugins/
 * spell everything out on purpose and do not use it.
 *
 * A typical fixture:
 *
 *     static const adh_subscriber *create(const char *name, const adh_host *host) {
 *         adh_subscriber *subscriber = adh_fixture_create(name, "CrashOnEvent", host);
 *         if (subscriber != NULL) subscriber->did_become_active = did_become_active;
 *         return subscriber;
 *     }
 *
 *     ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.crash-on-event", "CrashOnEvent", create);
 *     ADH_FIXTURE_ENTRY(descriptor)
 *
 * A fixture whose defect is in the descriptor, the entry symbol or `create` spells that part out.
 */
#ifndef ADH_FIXTURE_H
#define ADH_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "SubscriberABI.h"

/** Exports a symbol from a library built with -fvisibility=hidden: fixtures export their entry only. */
#define ADH_FIXTURE_EXPORT __attribute__((visibility("default")))

/** One fixture subscriber: the ABI struct first (so that the host's pointer is this one) and its host. */
typedef struct adh_fixture_subscriber {
    adh_subscriber subscriber;
    /** The host the subscriber was created for; valid until its `destroy` returns. */
    const adh_host *host;
} adh_fixture_subscriber;

/** The host `self` was created for (`self` made by adh_fixture_new or adh_fixture_create). */
static inline const adh_host *adh_fixture_host(const adh_subscriber *self) {
    return ((const adh_fixture_subscriber *)self)->host;
}

/** Frees a subscriber made by adh_fixture_new or adh_fixture_create (the struct, nothing else). */
static inline void adh_fixture_destroy(const adh_subscriber *self) {
    free((void *)self);
}

/**
 * A zeroed subscriber with `struct_size` set, `host` kept and adh_fixture_destroy as its `destroy`,
 * whatever the name; NULL when out of memory. The caller sets the event entries it answers.
 */
static inline adh_subscriber *adh_fixture_new(const adh_host *host) {
    adh_fixture_subscriber *made = calloc(1, sizeof *made);
    if (made == NULL) return NULL;
    made->host = host;
    made->subscriber.struct_size = sizeof made->subscriber;
    made->subscriber.destroy = adh_fixture_destroy;
    return &made->subscriber;
}

/** adh_fixture_new for the declared subscriber `declared`; NULL for any other name, as the contract asks. */
static inline adh_subscriber *adh_fixture_create(const char *name, const char *declared, const adh_host *host) {
    if (name == NULL || strcmp(name, declared) != 0) return NULL;
    return adh_fixture_new(host);
}

/** A didBecomeActive that does nothing: a harmless responding event, so a fixture looks like any other. */
static inline void adh_fixture_harmless_event(const adh_subscriber *self) {
    (void)self;
}

/** The subscriber's options (the host's `options_json`), or an empty string when the host has none. */
static inline adh_string adh_fixture_options(const adh_host *host) {
    adh_string none = { NULL, 0 };
    if (host == NULL || !ADH_STRUCT_HAS(host, adh_host, options_json) || host->options_json == NULL) return none;
    adh_string options = host->options_json(host);
    return options.data == NULL ? none : options;
}

/**
 * Where `needle` first occurs in `text`, just past its end; 0 when it does not occur (a fixture's
 * plain scan of its options: no JSON parsing, no escapes).
 */
static inline size_t adh_fixture_find_end(adh_string text, const char *needle) {
    size_t length = strlen(needle);
    for (size_t start = 0; text.data != NULL && start + length <= text.length; start++)
        if (memcmp(text.data + start, needle, length) == 0) return start + length;
    return 0;
}

#if defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 199309L
#include <time.h>

/** Sleeps `milliseconds`, resuming after a signal (nanosleep: C99 has no sleep of its own). Needs
 * _POSIX_C_SOURCE defined before the first include. */
static inline void adh_fixture_sleep_ms(long milliseconds) {
    struct timespec duration = { milliseconds / 1000, (milliseconds % 1000) * 1000000L };
    while (nanosleep(&duration, &duration) != 0) {
    }
}
#endif

#if defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200809L
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

/**
 * Writes `json` as one frame (a 4-byte big-endian length, then the bytes) to every open socket of the
 * process from descriptor 3 up, without blocking: what a plugin does to forge a message on a channel
 * it was never given. Needs _POSIX_C_SOURCE 200809L defined before the first include.
 */
static inline void adh_fixture_frame_to_every_socket(const char *json) {
    unsigned char frame[4 + 1024];
    size_t length = strlen(json);
    if (length > sizeof frame - 4) return;
    frame[0] = (unsigned char)(length >> 24);
    frame[1] = (unsigned char)(length >> 16);
    frame[2] = (unsigned char)(length >> 8);
    frame[3] = (unsigned char)length;
    memcpy(frame + 4, json, length);
    long ceiling = 65536;
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < (rlim_t)ceiling) ceiling = (long)limit.rlim_cur;
    for (int fd = 3; fd < ceiling; fd++) {
        struct stat info;
        if (fstat(fd, &info) != 0 || !S_ISSOCK(info.st_mode)) continue;
        ssize_t sent = send(fd, frame, length + 4, MSG_DONTWAIT | MSG_NOSIGNAL);
        (void)sent;
    }
}
#endif

/**
 * The initializer of a valid ABI 1.0 descriptor of a C plugin (version "1.0.0", vendor
 * "AppDelegateHost", no Swift version) with the given id, name, subscriber-name array and create.
 * For fixtures whose defect is in one of those four; the rest use ADH_FIXTURE_DESCRIPTOR.
 */
#define ADH_FIXTURE_DESCRIPTOR_FIELDS(id_, name_, subscriber_names_, create_) \
    {                                                                          \
        .struct_size = sizeof(adh_plugin_descriptor),                          \
        .abi_major = ADH_ABI_MAJOR,                                            \
        .abi_minor = ADH_ABI_MINOR,                                            \
        .id = (id_),                                                           \
        .name = (name_),                                                       \
        .version = "1.0.0",                                                    \
        .vendor = "AppDelegateHost",                                           \
        .swift_version = "",                                                   \
        .subscriber_count = sizeof(subscriber_names_) / sizeof((subscriber_names_)[0]), \
        .subscriber_names = (subscriber_names_),                               \
        .create = (create_),                                                   \
    }

/**
 * Defines `static const adh_plugin_descriptor variable_`: a valid descriptor with the given id, whose
 * plugin and only subscriber are both named `name_`, made by `create_`. End it with a semicolon.
 */
#define ADH_FIXTURE_DESCRIPTOR(variable_, id_, name_, create_)          \
    static const char *const variable_##_subscriber_names[] = { name_ }; \
    static const adh_plugin_descriptor variable_ =                       \
        ADH_FIXTURE_DESCRIPTOR_FIELDS(id_, name_, variable_##_subscriber_names, create_)

/** Defines and exports the entry function `adh_plugin_entry`, which returns `&descriptor_`. No semicolon. */
#define ADH_FIXTURE_ENTRY(descriptor_)                                            \
    ADH_FIXTURE_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void) { \
        return &(descriptor_);                                                    \
    }

#endif /* ADH_FIXTURE_H */
