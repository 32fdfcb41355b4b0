/*
 * adh/ext/notification_center.h — the notification-center family: UNUserNotificationCenterDelegate,
 * fanned out to every subscriber that implements it.
 *
 * Extension id ADH_EXT_NOTIFICATION_CENTER. A subscriber that implements it returns an
 * `adh_notification_center` from `get_extension(self, ADH_EXT_NOTIFICATION_CENTER)` (adh/subscriber.h).
 * Depends on adh/types.h and adh/completion.h. Since ABI 1.1.
 *
 * Threads: the host calls every function here on its main thread ([main-thread]); completions may be
 * called back from any thread (adh/completion.h rules apply).
 * Ownership: every pointer argument is borrowed for the duration of the call; copy what you keep.
 */
#ifndef ADH_EXT_NOTIFICATION_CENTER_H
#define ADH_EXT_NOTIFICATION_CENTER_H

#include "../types.h"
#include "../completion.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The id to pass to `get_extension`. The suffix is the version: a change is a new id. */
#define ADH_EXT_NOTIFICATION_CENTER "adh.notification-center/1"

struct adh_subscriber;

/** UNNotificationPresentationOptions, same bits. */
typedef uint32_t adh_presentation_options;
enum {
    ADH_PRESENTATION_BADGE = 1u << 0,
    ADH_PRESENTATION_SOUND = 1u << 1,
    ADH_PRESENTATION_LIST = 1u << 3,
    ADH_PRESENTATION_BANNER = 1u << 4,
};

/** A UNNotification: what was delivered. */
typedef struct adh_notification {
    uint32_t struct_size;
    /** Host-private cache key (see adh/payloads.h); ignore it. */
    uint64_t serial;
    /** The request's identifier. */
    adh_string identifier;
    /** The content's userInfo, a JSON object; `data == NULL` when absent. */
    adh_string user_info_json;
    /** The content's category; empty when none. */
    adh_string category_identifier;
} adh_notification;

/** A UNNotificationResponse: what the user did with a notification. */
typedef struct adh_notification_response {
    uint32_t struct_size;
    /** Host-private cache key (see adh/payloads.h); ignore it. */
    uint64_t serial;
    /** The notification responded to. Never NULL. */
    const adh_notification *notification;
    /** "com.apple.UNNotificationDefaultActionIdentifier" for a tap, the dismiss id, or an action's id. */
    adh_string action_identifier;
    /** The text typed into a text-input action; `data == NULL` for any other response. */
    adh_string user_text;
} adh_notification_response;

/** Completes with presentation options (willPresent). */
typedef struct adh_presentation_completion {
    /** [any-thread] Call exactly once, unless the function returned ADH_DECLINES. */
    void (*call)(void *context, adh_presentation_options options);
    /** A host token: pass it back unchanged, never dereference it. */
    void *context;
} adh_presentation_completion;

/** The notification-center family's vtable. Entries may be NULL: "does not respond to this event". */
typedef struct adh_notification_center {
    /** sizeof(adh_notification_center) as the plugin compiled it. The host ignores entries past it. */
    uint32_t struct_size;

    /**
     * userNotificationCenter(_:willPresent:withCompletionHandler:): how to present a notification that
     * arrives while the app is in the foreground. Reconciled: the union of the options; nobody: none.
     * [main-thread]
     */
    adh_response (*will_present)(const struct adh_subscriber *self, const adh_notification *notification,
                                 adh_presentation_completion completion);

    /**
     * userNotificationCenter(_:didReceive:withCompletionHandler:): the user responded to a
     * notification. Done when every responder called its completion (or at the deadline). [main-thread]
     */
    adh_response (*did_receive_response)(const struct adh_subscriber *self, const adh_notification_response *response,
                                         adh_void_completion completion);

    /**
     * userNotificationCenter(_:openSettingsFor:): show the app's notification settings;
     * `notification` is NULL when opened from Settings rather than from a notification. [main-thread]
     */
    void (*open_settings)(const struct adh_subscriber *self, const adh_notification *notification);
} adh_notification_center;

#ifdef __cplusplus
}
#endif

#endif /* ADH_EXT_NOTIFICATION_CENTER_H */
