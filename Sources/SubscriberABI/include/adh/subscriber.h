/*
 * adh/subscriber.h — one subscriber instance: its data and one function pointer per app-delegate event
 * (the core family, frozen at ABI 1.0), and since ABI 1.1 `get_extension` for the other families.
 *
 * Depends on adh/types.h, adh/payloads.h, adh/completion.h.
 *
 * A NULL function pointer means "this subscriber does not respond to this event": the host skips it,
 * and an event nobody responds to gets its documented default. Every event function receives the
 * subscriber itself as `self`.
 *
 * Threads: the host calls every function of this struct on its main thread, one call at a time
 * ([main-thread]). Completions (adh/completion.h) may be called back from any thread.
 *
 * Ownership: the plugin allocates this struct in `create` (adh/plugin.h) and frees it in `destroy`.
 * The host never writes to it. Every pointer argument is borrowed for the duration of the call.
 */
#ifndef ADH_SUBSCRIBER_H
#define ADH_SUBSCRIBER_H

#include "types.h"
#include "payloads.h"
#include "completion.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct adh_subscriber adh_subscriber;

struct adh_subscriber {
    /** sizeof(adh_subscriber) as the plugin compiled it. The host ignores entries past it. */
    uint32_t struct_size;

    /** The plugin's own data for this instance. The host never touches it. */
    void *instance;

    /**
     * Releases this instance and this struct. Called once, last.
     * [main-thread] Must not be NULL.
     */
    void (*destroy)(const adh_subscriber *self);

    /* ---- launch ------------------------------------------------------------------------------ */

    /** application(_:willFinishLaunchingWithOptions:). Reconciled: any true; nobody: true. [main-thread] */
    adh_tristate (*will_finish_launching)(const adh_subscriber *self, const adh_launch *launch);
    /** application(_:didFinishLaunchingWithOptions:). Reconciled: any true; nobody: true. [main-thread] */
    adh_tristate (*did_finish_launching)(const adh_subscriber *self, const adh_launch *launch);

    /* ---- state transitions: every responder, in order ---------------------------------------- */

    /** applicationDidBecomeActive(_:). [main-thread] */
    void (*did_become_active)(const adh_subscriber *self);
    /** applicationWillResignActive(_:). [main-thread] */
    void (*will_resign_active)(const adh_subscriber *self);
    /** applicationDidEnterBackground(_:). [main-thread] */
    void (*did_enter_background)(const adh_subscriber *self);
    /** applicationWillEnterForeground(_:). [main-thread] */
    void (*will_enter_foreground)(const adh_subscriber *self);
    /** applicationWillTerminate(_:). [main-thread] */
    void (*will_terminate)(const adh_subscriber *self);

    /* ---- system ------------------------------------------------------------------------------ */

    /** applicationDidReceiveMemoryWarning(_:). [main-thread] */
    void (*did_receive_memory_warning)(const adh_subscriber *self);
    /** applicationSignificantTimeChange(_:). [main-thread] */
    void (*significant_time_change)(const adh_subscriber *self);
    /** applicationProtectedDataWillBecomeUnavailable(_:). [main-thread] */
    void (*protected_data_will_become_unavailable)(const adh_subscriber *self);
    /** applicationProtectedDataDidBecomeAvailable(_:). [main-thread] */
    void (*protected_data_did_become_available)(const adh_subscriber *self);

    /* ---- remote notifications and background work -------------------------------------------- */

    /** application(_:didRegisterForRemoteNotificationsWithDeviceToken:); the token is borrowed. [main-thread] */
    void (*did_register_for_remote_notifications)(const adh_subscriber *self, adh_bytes device_token);
    /** application(_:didFailToRegisterForRemoteNotificationsWithError:). [main-thread] */
    void (*did_fail_to_register_for_remote_notifications)(const adh_subscriber *self,
                                                          const adh_error *error);
    /**
     * application(_:didReceiveRemoteNotification:fetchCompletionHandler:). `user_info_json` is a JSON
     * object. Reconciled: failed > newData > noData; nobody: noData.
     * [main-thread]
     */
    adh_response (*did_receive_remote_notification)(const adh_subscriber *self,
                                                    adh_string user_info_json,
                                                    adh_fetch_completion completion);
    /** application(_:performFetchWithCompletionHandler:). Reconciled like the above. [main-thread] */
    adh_response (*perform_fetch)(const adh_subscriber *self, adh_fetch_completion completion);
    /** Done when every responder has called its completion. [main-thread] */
    adh_response (*handle_events_for_background_url_session)(const adh_subscriber *self,
                                                             adh_string identifier,
                                                             adh_void_completion completion);

    /* ---- URLs and user activities ------------------------------------------------------------ */

    /** application(_:open:options:). Reconciled: any true; nobody: false. [main-thread] */
    adh_tristate (*open_url)(const adh_subscriber *self, const adh_open_url *request);
    /** application(_:willContinueUserActivityWithType:). Reconciled: any true; nobody: false. [main-thread] */
    adh_tristate (*will_continue_user_activity)(const adh_subscriber *self, adh_string activity_type);
    /**
     * application(_:continue:restorationHandler:). Reconciled: any true; nobody: false.
     * A subscriber that returns ADH_TRUE may call `restoration` once with a JSON array of
     * restorable-object identifiers (`[]` for none); the host calls the app's handler once, with the
     * lists concatenated in subscriber order. A subscriber that returns anything else must not call it.
     * The handler is optional, as UIKit's: one never called is not reported and stalls nothing (the
     * host's handler gets what arrived by the event's deadline).
     * [main-thread]
     */
    adh_tristate (*continue_user_activity)(const adh_subscriber *self,
                                           const adh_user_activity *activity,
                                           adh_json_completion restoration);
    /** application(_:didUpdate:). [main-thread] */
    void (*did_update_user_activity)(const adh_subscriber *self, const adh_user_activity *activity);
    /** application(_:didFailToContinueUserActivityWithType:error:). [main-thread] */
    void (*did_fail_to_continue_user_activity)(const adh_subscriber *self, adh_string activity_type,
                                               const adh_error *error);
    /** application(_:performActionFor:completionHandler:). Reconciled: any true; nobody: false. [main-thread] */
    adh_response (*perform_action_for_shortcut_item)(const adh_subscriber *self,
                                                     const adh_shortcut_item *item,
                                                     adh_bool_completion completion);

    /* ---- interface, extensions, state restoration, scenes ------------------------------------ */

    /**
     * application(_:supportedInterfaceOrientationsFor:). Returns an adh_orientation_mask, or a negative
     * value (ADH_NO_OPINION) for no opinion. Reconciled: intersection; nobody: the manifest's default.
     * [main-thread]
     */
    int64_t (*supported_interface_orientations)(const adh_subscriber *self, adh_idiom idiom);
    /** Reconciled: one false vetoes; nobody: true. [main-thread] */
    adh_tristate (*should_allow_extension_point_identifier)(const adh_subscriber *self,
                                                            adh_string identifier);
    /** Reconciled: one false vetoes; nobody: false. [main-thread] */
    adh_tristate (*should_save_secure_application_state)(const adh_subscriber *self);
    /** Reconciled: one false vetoes; nobody: false. [main-thread] */
    adh_tristate (*should_restore_secure_application_state)(const adh_subscriber *self);
    /**
     * application(_:configurationForConnecting:options:): the name of a scene configuration.
     * Returns `data == NULL` for no opinion. The returned bytes are owned by the plugin and must stay
     * valid until the next call on this subscriber or its destruction; the host copies them at once.
     * Reconciled: first answer in order; nobody: "Default Configuration".
     * [main-thread]
     */
    adh_string (*configuration_for_connecting)(const adh_subscriber *self, adh_string scene_role);
    /** application(_:didDiscardSceneSessions:), with the number of sessions. [main-thread] */
    void (*did_discard_scene_sessions)(const adh_subscriber *self, int64_t count);
    /**
     * application(_:handleWatchKitExtensionRequest:reply:). `reply` takes a JSON object. Reconciled:
     * merged, a key answered twice keeps the first; nobody: {}.
     * [main-thread]
     */
    adh_response (*handle_watchkit_extension_request)(const adh_subscriber *self,
                                                      adh_string user_info_json,
                                                      adh_json_completion reply);

    /* ---- ABI 1.1: extensions ----------------------------------------------------------------- */

    /**
     * The vtable of extension `id` (a versioned id such as ADH_EXT_NOTIFICATION_CENTER,
     * "adh.notification-center/1", see adh/ext/), or NULL when this subscriber does not implement it.
     * The host asks once per extension, right after `create`, and keeps the pointer: it must stay
     * valid, and its entries unchanged, until `destroy`. An unknown id answers NULL, never an error.
     * Every extension vtable starts with `uint32_t struct_size`; its functions receive this
     * subscriber as `self`. NULL itself (the field) means "no extensions" (a 1.0 plugin).
     * [main-thread] `id` is NUL-terminated and borrowed for the call.
     */
    const void *(*get_extension)(const adh_subscriber *self, const char *id);
};

#ifdef __cplusplus
}
#endif

#endif /* ADH_SUBSCRIBER_H */
