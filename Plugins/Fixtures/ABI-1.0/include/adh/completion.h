/*
 * adh/completion.h — completion handlers: (callback, context) pairs the host gives to events that
 * answer later (fetch, background sessions, shortcuts, restoration, WatchKit replies).
 *
 * Depends on adh/types.h only.
 *
 * Rules, the same for every completion type below:
 * - [any-thread] `call` may be called from any thread, synchronously inside the event function or
 *   at any later time.
 * - Call it exactly once, unless the event function returned ADH_DECLINES, in which case never.
 *   A second call is ignored by the host and reported (subscriber name, event); it never makes the
 *   host deliver early. A call after the host's deadline is ignored and reported as late.
 * - `context` is a host token, not a pointer: never dereference it, pass it back unchanged. It stays
 *   safe to call with for the life of the process, so a late or duplicate call never crashes.
 * - Strings passed to `call` are borrowed by the host for the duration of `call`.
 */
#ifndef ADH_COMPLETION_H
#define ADH_COMPLETION_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Completes with no value (handleEventsForBackgroundURLSession). */
typedef struct adh_void_completion {
    /** [any-thread] Call exactly once, unless the event function returned ADH_DECLINES. */
    void (*call)(void *context);
    /** A host token: pass it back unchanged, never dereference it. */
    void *context;
} adh_void_completion;

/** Completes with a fetch result (didReceiveRemoteNotification, performFetch). */
typedef struct adh_fetch_completion {
    /** [any-thread] Call exactly once with the fetch result. */
    void (*call)(void *context, adh_fetch_result result);
    void *context;
} adh_fetch_completion;

/** Completes with a boolean, ADH_FALSE or ADH_TRUE (performActionForShortcutItem). */
typedef struct adh_bool_completion {
    /** [any-thread] Call exactly once with ADH_TRUE or ADH_FALSE. */
    void (*call)(void *context, adh_tristate succeeded);
    void *context;
} adh_bool_completion;

/**
 * Completes with a JSON value: a JSON array of restorable-object identifiers (restoration handler of
 * continueUserActivity) or a JSON object (WatchKit reply).
 */
typedef struct adh_json_completion {
    /** [any-thread] Call exactly once; `json` is borrowed for the call. */
    void (*call)(void *context, adh_string json);
    void *context;
} adh_json_completion;

#ifdef __cplusplus
}
#endif

#endif /* ADH_COMPLETION_H */
