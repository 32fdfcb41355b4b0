/*
 * adh/ext/host_requests.h — host service: what a plugin may ask the app to do.
 *
 * Extension id ADH_EXT_HOST_REQUESTS, from the host's `get_extension` (adh/host.h). Since ABI 1.1.
 * Depends on nothing but adh/types.h.
 *
 * A request reaches the embedding app as a value; the app decides what it does on its platform
 * (`apphost` prints each one, and asks for orientations again before its next event). A request
 * never calls back into the plugin synchronously.
 */
#ifndef ADH_EXT_HOST_REQUESTS_H
#define ADH_EXT_HOST_REQUESTS_H

#include "../types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The id to pass to the host's `get_extension`. */
#define ADH_EXT_HOST_REQUESTS "adh.host.requests/1"

struct adh_host;

/** The host's request service. */
typedef struct adh_host_requests {
    /** sizeof(adh_host_requests) as the host compiled it. Check ADH_STRUCT_HAS before later fields. */
    uint32_t struct_size;

    /**
     * UIApplication.registerForRemoteNotifications(): ask the app to register; the answer comes as
     * didRegisterForRemoteNotifications or didFailToRegisterForRemoteNotifications.
     * [any-thread] During an event or later.
     */
    void (*register_for_remote_notifications)(const struct adh_host *host);

    /**
     * UIViewController.setNeedsUpdateOfSupportedInterfaceOrientations(): ask the app to ask
     * supportedInterfaceOrientations again. [any-thread] During an event or later.
     */
    void (*update_supported_interface_orientations)(const struct adh_host *host);
} adh_host_requests;

#ifdef __cplusplus
}
#endif

#endif /* ADH_EXT_HOST_REQUESTS_H */
