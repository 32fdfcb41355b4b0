/*
 * adh/payloads.h — the arguments of events that take more than one value.
 *
 * Depends on adh/types.h only.
 *
 * Ownership: the host fills these structs and owns them and everything they point to. They are
 * borrowed for the duration of the event call; copy what you keep.
 *
 * `serial` (host-private, ignore it): an optional cache key, never needed to handle an event. The
 * host gives equal payloads the same non-zero serial, so the Swift SDK decodes a payload once for all
 * the subscribers one image serves; 0 means "not numbered". A plugin must not rely on its value or
 * on any numbering scheme, and a host may send 0 always. It stays in the struct because fields are
 * never removed (1.0 plugins read the fields after it at these offsets).
 *
 * Dictionaries (launch options, userInfo, annotations) travel as JSON text (`data == NULL` when
 * absent).
 */
#ifndef ADH_PAYLOADS_H
#define ADH_PAYLOADS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * willFinishLaunching / didFinishLaunching.
 *
 * `options_json` is the launch options object. Keys, named after UIApplication.LaunchOptionsKey:
 * "url", "sourceApplication", "annotation", "userActivity" ({"activityType", "webpageURL",
 * "userInfo"}), "remoteNotification" (object), "shortcutItem" ({"type", "title", "userInfo"}),
 * "location" (true), "bluetoothCentrals" / "bluetoothPeripherals" (arrays), "backgroundFetch" (true).
 * Empty object when the app was launched without options.
 */
typedef struct adh_launch {
    uint32_t struct_size;
    uint64_t serial;
    adh_string options_json;
    /** The host's classification of this launch. */
    adh_invocation_kind invocation;
    /** See adh_invocation_kind for what each kind puts here; `data == NULL` when nothing. */
    adh_string invocation_detail;
} adh_launch;

/** openURL: application(_:open:options:). */
typedef struct adh_open_url {
    uint32_t struct_size;
    uint64_t serial;
    adh_string url;
    /** Bundle identifier of the app that asked to open the URL; `data == NULL` when unknown. */
    adh_string source_application;
    /** Any JSON value; `data == NULL` when absent. */
    adh_string annotation_json;
    /** ADH_TRUE when the file must be opened in place. */
    adh_tristate open_in_place;
    /**
     * Since ABI 1.1 (read it only when ADH_STRUCT_HAS(request, adh_open_url, event_attribution_json)):
     * UIApplication.OpenURLOptionsKey.eventAttribution, the ad the user tapped, as a JSON object
     * {"sourceIdentifier": 0-255, "destinationURL", "reportEndpoint"?, "sourceDescription",
     * "purchaser"}; `data == NULL` when the URL did not come from an ad.
     */
    adh_string event_attribution_json;
} adh_open_url;

/** An NSUserActivity: continueUserActivity, didUpdateUserActivity. */
typedef struct adh_user_activity {
    uint32_t struct_size;
    uint64_t serial;
    /** e.g. "NSUserActivityTypeBrowsingWeb". */
    adh_string activity_type;
    /** `data == NULL` when the activity has none. */
    adh_string webpage_url;
    /** JSON object; `data == NULL` when absent. */
    adh_string user_info_json;
} adh_user_activity;

/** A UIApplicationShortcutItem: performActionForShortcutItem. */
typedef struct adh_shortcut_item {
    uint32_t struct_size;
    uint64_t serial;
    adh_string type;
    adh_string title;
    /** JSON object; `data == NULL` when absent. */
    adh_string user_info_json;
} adh_shortcut_item;

/** An NSError: didFailToRegisterForRemoteNotifications, didFailToContinueUserActivity. */
typedef struct adh_error {
    uint32_t struct_size;
    adh_string domain;
    int64_t code;
    adh_string message;
} adh_error;

#ifdef __cplusplus
}
#endif

#endif /* ADH_PAYLOADS_H */
