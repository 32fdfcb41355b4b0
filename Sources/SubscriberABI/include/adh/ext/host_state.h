/*
 * adh/ext/host_state.h — host service: the application's state, as the host tracks it.
 *
 * Extension id ADH_EXT_HOST_STATE, from the host's `get_extension` (adh/host.h). Since ABI 1.1.
 * Depends on adh/types.h only.
 */
#ifndef ADH_EXT_HOST_STATE_H
#define ADH_EXT_HOST_STATE_H

#include "../types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The id to pass to the host's `get_extension`. */
#define ADH_EXT_HOST_STATE "adh.host.state/1"

struct adh_host;

/**
 * The application's state (UIApplication.State, plus the states around a process's life).
 * UIKit's three raw values are kept: active 0, inactive 1, background 2.
 */
typedef int32_t adh_application_state;
enum {
    ADH_APPLICATION_ACTIVE = 0,
    ADH_APPLICATION_INACTIVE = 1,
    ADH_APPLICATION_BACKGROUND = 2,
    /** Before willFinishLaunching. */
    ADH_APPLICATION_NOT_RUNNING = 3,
    /** After willTerminate. */
    ADH_APPLICATION_TERMINATED = 4,
};

/** The host's state service. */
typedef struct adh_host_state {
    /** sizeof(adh_host_state) as the host compiled it. Check ADH_STRUCT_HAS before later fields. */
    uint32_t struct_size;

    /**
     * The application's state now. During an event, the state the event is delivered in: a `will…`
     * transition sees the state it leaves (willResignActive: active), a `did…` transition the state it
     * enters (didBecomeActive: active), as UIKit's applicationState does. [any-thread]
     */
    adh_application_state (*application_state)(const struct adh_host *host);

    /**
     * How the app was launched, as the host classified it (adh/types.h): what the launch events
     * carried, or `ADH_INVOCATION_NOTIFICATION` once a notification response arrived while the app
     * was launching (before it first became active). `*detail` receives what the kind carries (see
     * adh_invocation_kind), `data == NULL` when nothing; the bytes are the host's, valid until the
     * next event. `ADH_INVOCATION_UNKNOWN` before any launch event. [main-thread]
     */
    adh_invocation_kind (*launch_invocation)(const struct adh_host *host, adh_string *detail);
} adh_host_state;

#ifdef __cplusplus
}
#endif

#endif /* ADH_EXT_HOST_STATE_H */
