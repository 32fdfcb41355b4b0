/*
 * Compile-time checks of the ABI layout. Fields may only be appended: if one of these fails, a
 * change moved an existing field, which breaks every plugin already built (bump ADH_ABI_MAJOR).
 */
#include "SubscriberABI.h"

_Static_assert(sizeof(adh_string) == 16, "adh_string is a pointer and a size");
_Static_assert(offsetof(adh_plugin_descriptor, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_plugin_descriptor, abi_major) == 4, "abi_major is readable before anything else");
_Static_assert(offsetof(adh_plugin_descriptor, abi_minor) == 8, "abi_minor follows abi_major");
_Static_assert(offsetof(adh_plugin_descriptor, create) == 72, "descriptor 1.0 layout");
_Static_assert(sizeof(adh_plugin_descriptor) == 80, "descriptor 1.0 size");
_Static_assert(offsetof(adh_host, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_subscriber, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_subscriber, destroy) == 16, "subscriber 1.0 layout");
_Static_assert(offsetof(adh_subscriber, handle_watchkit_extension_request) == 248, "subscriber 1.0 layout");
_Static_assert(offsetof(adh_launch, struct_size) == 0, "struct_size comes first");

/* ABI 1.1: appended, so every 1.0 offset above still holds. */
_Static_assert(offsetof(adh_subscriber, get_extension) == 256, "subscriber 1.1: get_extension follows the 1.0 entries");
_Static_assert(offsetof(adh_open_url, event_attribution_json) == 72, "open_url 1.1: event_attribution_json follows the 1.0 fields");
_Static_assert(offsetof(adh_host, get_extension) == sizeof(void *) * 8, "host 1.1: get_extension follows options_json");
_Static_assert(offsetof(adh_notification_center, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_scene_delegate, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_scene, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_scene_connection_options, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_scene_geometry, struct_size) == 0, "struct_size comes first");
/* The host and the SDK read a payload in whole 8-byte words (ABI.readCovered): every payload's size is a multiple of 8. */
_Static_assert(sizeof(adh_scene) % 8 == 0, "adh_scene is read in whole words");
_Static_assert(sizeof(adh_scene_connection_options) % 8 == 0, "adh_scene_connection_options is read in whole words");
_Static_assert(sizeof(adh_scene_geometry) % 8 == 0, "adh_scene_geometry is read in whole words");
_Static_assert(offsetof(adh_host_state, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_host_requests, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_url_hook, struct_size) == 0, "struct_size comes first");
_Static_assert(offsetof(adh_url_hook, decide) == 8, "url_hook 1: decide follows struct_size");

/* Every payload's serial follows its struct_size, at offset 8: the SDK reads it alone (ABI.serial). */
_Static_assert(offsetof(adh_launch, serial) == 8, "adh_launch: serial at 8");
_Static_assert(offsetof(adh_open_url, serial) == 8, "adh_open_url: serial at 8");
_Static_assert(offsetof(adh_user_activity, serial) == 8, "adh_user_activity: serial at 8");
_Static_assert(offsetof(adh_shortcut_item, serial) == 8, "adh_shortcut_item: serial at 8");
_Static_assert(offsetof(adh_notification, serial) == 8, "adh_notification: serial at 8");
_Static_assert(offsetof(adh_notification_response, serial) == 8, "adh_notification_response: serial at 8");
_Static_assert(offsetof(adh_scene, serial) == 8, "adh_scene: serial at 8");
_Static_assert(offsetof(adh_scene_connection_options, serial) == 8, "adh_scene_connection_options: serial at 8");
_Static_assert(offsetof(adh_scene_geometry, serial) == 8, "adh_scene_geometry: serial at 8");
