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
