/*
 * adh/types.h — the small value types every other header uses.
 *
 * Depends on adh/version.h only.
 */
#ifndef ADH_TYPES_H
#define ADH_TYPES_H

#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * UTF-8 text: a pointer and a length in bytes. Not NUL-terminated (a NUL may follow, but do not rely
 * on it). `data == NULL` means "absent", which differs from the empty string (`data != NULL`,
 * `length == 0`). Ownership: always borrowed; valid only for the duration of the call that passed
 * it, unless the function says otherwise. Copy what you keep.
 */
typedef struct adh_string {
    const char *data;
    size_t length;
} adh_string;

/** Raw bytes (e.g. a device token). Same ownership rules as adh_string. */
typedef struct adh_bytes {
    const uint8_t *data;
    size_t length;
} adh_bytes;

/**
 * Answer of a `Bool?` event: no opinion, false or true. A subscriber that has nothing to say about a
 * given call returns ADH_NO_OPINION; reconcilers ignore it.
 */
typedef int32_t adh_tristate;
enum {
    ADH_NO_OPINION = -1,
    ADH_FALSE = 0,
    ADH_TRUE = 1,
};

/**
 * Return value of every event that answers through a completion: whether this subscriber will call
 * (or already called) the completion. ADH_DECLINES means "I do not respond to this call": the host
 * stops waiting for this subscriber, and the completion must not be called.
 */
typedef int32_t adh_response;
enum {
    ADH_DECLINES = 0,
    ADH_RESPONDS = 1,
};

/** UIBackgroundFetchResult, same raw values. */
typedef int32_t adh_fetch_result;
enum {
    ADH_FETCH_NEW_DATA = 0,
    ADH_FETCH_NO_DATA = 1,
    ADH_FETCH_FAILED = 2,
};

/** UIInterfaceOrientationMask, same bits. */
typedef uint32_t adh_orientation_mask;
enum {
    ADH_ORIENTATION_PORTRAIT = 1u << 1,
    ADH_ORIENTATION_PORTRAIT_UPSIDE_DOWN = 1u << 2,
    ADH_ORIENTATION_LANDSCAPE_RIGHT = 1u << 3,
    ADH_ORIENTATION_LANDSCAPE_LEFT = 1u << 4,
    ADH_ORIENTATION_ALL = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4),
};

/** UIUserInterfaceIdiom, same raw values. */
typedef int32_t adh_idiom;
enum {
    ADH_IDIOM_UNSPECIFIED = -1,
    ADH_IDIOM_PHONE = 0,
    ADH_IDIOM_PAD = 1,
    ADH_IDIOM_TV = 2,
    ADH_IDIOM_CAR_PLAY = 3,
    ADH_IDIOM_MAC = 5,
    ADH_IDIOM_VISION = 6,
};

/** Log levels, as swift-log names them. */
typedef int32_t adh_log_level;
enum {
    ADH_LOG_TRACE = 0,
    ADH_LOG_DEBUG = 1,
    ADH_LOG_INFO = 2,
    ADH_LOG_NOTICE = 3,
    ADH_LOG_WARNING = 4,
    ADH_LOG_ERROR = 5,
    ADH_LOG_CRITICAL = 6,
};

/** How the app was launched, as the host classified it from the launch options (see adh/payloads.h). */
typedef int32_t adh_invocation_kind;
enum {
    ADH_INVOCATION_UNKNOWN = 0,
    ADH_INVOCATION_APP_ICON_CLICK = 1,
    /** detail: the universal link (webpageURL of a browsing-web user activity). */
    ADH_INVOCATION_DEEP_LINK = 2,
    /** detail: the `url` launch option. */
    ADH_INVOCATION_URL_SCHEME = 3,
    /** detail: the notification's userInfo, a JSON object. */
    ADH_INVOCATION_NOTIFICATION = 4,
    /** detail: the shortcut item's type. */
    ADH_INVOCATION_SHORTCUT = 5,
    /** detail: "location", "bluetooth" or "fetch". */
    ADH_INVOCATION_BACKGROUND = 6,
};

#ifdef __cplusplus
}
#endif

#endif /* ADH_TYPES_H */
