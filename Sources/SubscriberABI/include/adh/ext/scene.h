/*
 * adh/ext/scene.h — the scene family: UIWindowSceneDelegate (UISceneDelegate's life cycle, URLs, user
 * activities, quick actions, state restoration, geometry), fanned out to every subscriber that
 * implements it.
 *
 * Extension id ADH_EXT_SCENE. A subscriber that implements it returns an `adh_scene_delegate` from
 * `get_extension(self, ADH_EXT_SCENE)` (adh/subscriber.h). Depends on adh/types.h, adh/payloads.h,
 * adh/completion.h and adh/ext/notification_center.h (the notification response of the connection
 * options). Since ABI 1.1.
 *
 * Every event names its scene: the first argument after `self` is an `adh_scene` (the session's
 * persistent identifier, its role, and the scene's activation state during the call).
 *
 * Threads: the host calls every function here on its main thread ([main-thread]); completions may be
 * called back from any thread (adh/completion.h rules apply).
 * Ownership: every pointer argument, and everything it points to, is the host's and borrowed for the
 * duration of the call; copy what you keep. What a function returns is said at the function.
 */
#ifndef ADH_EXT_SCENE_H
#define ADH_EXT_SCENE_H

#include "../types.h"
#include "../payloads.h"
#include "../completion.h"
#include "notification_center.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The id to pass to `get_extension`. The suffix is the version: a change is a new id. */
#define ADH_EXT_SCENE "adh.scene/1"

struct adh_subscriber;

/** UIScene.ActivationState, same raw values. */
typedef int32_t adh_scene_activation_state;
enum {
    ADH_SCENE_UNATTACHED = -1,
    ADH_SCENE_FOREGROUND_ACTIVE = 0,
    ADH_SCENE_FOREGROUND_INACTIVE = 1,
    ADH_SCENE_BACKGROUND = 2,
};

/** UIInterfaceOrientation, same raw values. */
typedef int32_t adh_interface_orientation;
enum {
    ADH_INTERFACE_ORIENTATION_UNKNOWN = 0,
    ADH_INTERFACE_ORIENTATION_PORTRAIT = 1,
    ADH_INTERFACE_ORIENTATION_PORTRAIT_UPSIDE_DOWN = 2,
    ADH_INTERFACE_ORIENTATION_LANDSCAPE_RIGHT = 3,
    ADH_INTERFACE_ORIENTATION_LANDSCAPE_LEFT = 4,
};

/** A UIScene and its UISceneSession: which scene an event is about. */
typedef struct adh_scene {
    uint32_t struct_size;
    /** Host-private cache key (see adh/payloads.h); ignore it. */
    uint64_t serial;
    /** The session's persistent identifier: the scene's name in event scripts ("main"). Never absent. */
    adh_string identifier;
    /** The session's role, e.g. "UIWindowSceneSessionRoleApplication". Never absent. */
    adh_string role;
    /**
     * The scene's activation state during the call: for a `will…` transition the state it leaves,
     * for a `did…` transition the state it enters (as the application's state, adh/ext/host_state.h).
     */
    adh_scene_activation_state activation_state;
} adh_scene;

/**
 * UIScene.ConnectionOptions: why the scene connects. A cold launch from a URL, a universal link, a
 * quick action or a notification brings it here rather than in the launch options.
 */
typedef struct adh_scene_connection_options {
    uint32_t struct_size;
    /** Host-private cache key (see adh/payloads.h); ignore it. */
    uint64_t serial;
    /** The URLs to open (UIOpenURLContext: a URL and its options), `url_context_count` of them. */
    const adh_open_url *const *url_contexts;
    size_t url_context_count;
    /** The activity to continue (a universal link, Handoff); NULL when none. */
    const adh_user_activity *user_activity;
    /** The quick action chosen; NULL when none. */
    const adh_shortcut_item *shortcut_item;
    /** The notification response that launched the app; NULL when none. */
    const adh_notification_response *notification_response;
} adh_scene_connection_options;

/** A window scene's geometry after a change (windowScene(_:didUpdate:interfaceOrientation:traitCollection:)). */
typedef struct adh_scene_geometry {
    uint32_t struct_size;
    /** Host-private cache key (see adh/payloads.h); ignore it. */
    uint64_t serial;
    /** The interface orientation now. */
    adh_interface_orientation interface_orientation;
    /** The user-interface idiom of the scene's trait collection now. */
    adh_idiom idiom;
} adh_scene_geometry;

/** The scene family's vtable. Entries may be NULL: "does not respond to this event". */
typedef struct adh_scene_delegate {
    /** sizeof(adh_scene_delegate) as the plugin compiled it. The host ignores entries past it. */
    uint32_t struct_size;

    /* ---- connecting and disconnecting ------------------------------------------------------- */

    /**
     * scene(_:willConnectTo:options:): a scene connects (activation state unattached). Every
     * responder receives the whole connection options. [main-thread]
     */
    void (*will_connect)(const struct adh_subscriber *self, const adh_scene *scene,
                         const adh_scene_connection_options *options);
    /** sceneDidDisconnect(_:): the scene was released; no event names it until it connects again. [main-thread] */
    void (*did_disconnect)(const struct adh_subscriber *self, const adh_scene *scene);

    /* ---- transitions: every responder, in order --------------------------------------------- */

    /** sceneDidBecomeActive(_:). [main-thread] */
    void (*did_become_active)(const struct adh_subscriber *self, const adh_scene *scene);
    /** sceneWillResignActive(_:). [main-thread] */
    void (*will_resign_active)(const struct adh_subscriber *self, const adh_scene *scene);
    /** sceneWillEnterForeground(_:). [main-thread] */
    void (*will_enter_foreground)(const struct adh_subscriber *self, const adh_scene *scene);
    /** sceneDidEnterBackground(_:). [main-thread] */
    void (*did_enter_background)(const struct adh_subscriber *self, const adh_scene *scene);

    /* ---- URLs and user activities ------------------------------------------------------------ */

    /**
     * scene(_:openURLContexts:): open these URLs, `count` of them (at least one). Returns whether
     * this subscriber handled them (UIKit's method returns nothing; the answer decides the bridge to
     * application(_:open:options:), see docs/events.md). Reconciled: any true; nobody: false.
     * [main-thread]
     */
    adh_tristate (*open_url_contexts)(const struct adh_subscriber *self, const adh_scene *scene,
                                      const adh_open_url *const *url_contexts, size_t count);
    /** scene(_:willContinueUserActivityWithType:). Reconciled: any true; nobody: false. [main-thread] */
    adh_tristate (*will_continue_user_activity)(const struct adh_subscriber *self, const adh_scene *scene,
                                                adh_string activity_type);
    /**
     * scene(_:continue:): continue a user activity (no restoration handler, as in UIKit).
     * Reconciled: any true; nobody: false. [main-thread]
     */
    adh_tristate (*continue_user_activity)(const struct adh_subscriber *self, const adh_scene *scene,
                                           const adh_user_activity *activity);
    /** scene(_:didFailToContinueUserActivityWithType:error:). [main-thread] */
    void (*did_fail_to_continue_user_activity)(const struct adh_subscriber *self, const adh_scene *scene,
                                               adh_string activity_type, const adh_error *error);
    /** scene(_:didUpdate:). [main-thread] */
    void (*did_update_user_activity)(const struct adh_subscriber *self, const adh_scene *scene,
                                     const adh_user_activity *activity);

    /* ---- quick actions, state restoration, geometry ------------------------------------------ */

    /**
     * windowScene(_:performActionFor:completionHandler:). Call `completion` exactly once with
     * ADH_TRUE or ADH_FALSE, or return ADH_DECLINES and never call it. Reconciled: any true, once,
     * by the deadline (a responder that misses it counts as false); nobody: false. [main-thread]
     */
    adh_response (*perform_action_for_shortcut_item)(const struct adh_subscriber *self, const adh_scene *scene,
                                                     const adh_shortcut_item *item, adh_bool_completion completion);
    /**
     * stateRestorationActivity(for:): the activity that restores this scene's state, or NULL for no
     * opinion. The returned struct and everything it points to are owned by the plugin and must stay
     * valid until the next call on this subscriber or its destruction; the host copies them at once.
     * Reconciled: the first answer in subscriber order; nobody: none. [main-thread]
     */
    const adh_user_activity *(*state_restoration_activity)(const struct adh_subscriber *self, const adh_scene *scene);
    /** windowScene(_:didUpdate:interfaceOrientation:traitCollection:), with the geometry now. [main-thread] */
    void (*did_update_geometry)(const struct adh_subscriber *self, const adh_scene *scene,
                                const adh_scene_geometry *geometry);
} adh_scene_delegate;

#ifdef __cplusplus
}
#endif

#endif /* ADH_EXT_SCENE_H */
