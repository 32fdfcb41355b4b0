/*
 * SubscriberABI.h — the AppDelegateHost binary contract, everything a plugin or a host needs.
 *
 * Plain C99, depends on nothing but <stddef.h> and <stdint.h>. One concept per header:
 *   adh/version.h     ABI version, entry symbol name, growth rules
 *   adh/types.h       strings, tri-states, fetch results, orientation masks, idioms, log levels
 *   adh/host.h        what the host gives each subscriber (logging, app info, options)
 *   adh/completion.h  completion handlers: (callback, context) pairs, callable from any thread
 *   adh/payloads.h    multi-value event arguments (launch, open URL, user activity, shortcut, error)
 *   adh/subscriber.h  one subscriber: one function pointer per lifecycle event
 *   adh/plugin.h      the descriptor and the entry function
 * Extensions (ABI 1.1), one header each, asked for by versioned id through `get_extension`:
 *   adh/ext/notification_center.h  the notification-center family (UNUserNotificationCenterDelegate)
 *   adh/ext/scene.h                the scene family (UIWindowSceneDelegate)
 *   adh/ext/host_state.h           host service: the application's state
 *   adh/ext/host_requests.h        host service: requests from plugins (remote notifications, orientations)
 *   adh/ext/url_hook.h             the URL hook: rewrite or drop a URL before it is delivered
 */
#ifndef SUBSCRIBER_ABI_H
#define SUBSCRIBER_ABI_H

#include "adh/version.h"
#include "adh/types.h"
#include "adh/host.h"
#include "adh/completion.h"
#include "adh/payloads.h"
#include "adh/subscriber.h"
#include "adh/plugin.h"
#include "adh/ext/notification_center.h"
#include "adh/ext/scene.h"
#include "adh/ext/host_state.h"
#include "adh/ext/host_requests.h"
#include "adh/ext/url_hook.h"

#endif /* SUBSCRIBER_ABI_H */
