/*
 * DenyList.h — ExtensionGuard's options: the extension-point identifiers it vetoes, read from the
 * manifest's `options` JSON by a small, strict scanner (only the shape ExtensionGuard accepts).
 */
#ifndef EXTENSION_GUARD_DENY_LIST_H
#define EXTENSION_GUARD_DENY_LIST_H

#include <stddef.h>

/** One denied identifier: UTF-8 bytes (NUL-terminated for convenience) and their length. */
typedef struct eg_identifier {
    char *data;
    size_t length;
} eg_identifier;

/** The identifiers to veto. Empty (count 0, items NULL) when the options deny nothing. */
typedef struct eg_deny_list {
    eg_identifier *items;
    size_t count;
    size_t capacity;
} eg_deny_list;

/**
 * Parses `{"denyExtensionPoints": ["id", …]}` (the key is optional; `{}` denies nothing) into `list`,
 * which must be zeroed. Unknown keys, a duplicated key, a non-string element, trailing bytes or any
 * malformed JSON are errors: on error it returns 0, leaves `list` empty and writes one line naming
 * what, where (byte offset), expected and found into `error` (`error_size` bytes, NUL-terminated),
 * and the byte offset into `*error_offset`. Returns 1 on success.
 */
int eg_deny_list_parse(eg_deny_list *list, const char *json, size_t length,
                       char *error, size_t error_size, size_t *error_offset);

/** Returns 1 when `list` holds exactly the bytes `data[0..<length]`, 0 otherwise. */
int eg_deny_list_contains(const eg_deny_list *list, const char *data, size_t length);

/** Frees every identifier and empties `list`. */
void eg_deny_list_free(eg_deny_list *list);

#endif /* EXTENSION_GUARD_DENY_LIST_H */
