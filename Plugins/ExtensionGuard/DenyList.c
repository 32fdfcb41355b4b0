/*
 * DenyList.c — ExtensionGuard's strict scanner for its options JSON.
 *
 * Not a general JSON parser: it accepts exactly `{}` or `{"denyExtensionPoints": [strings]}` with
 * any JSON whitespace, decodes string escapes (including \u surrogate pairs) and refuses everything
 * else, so a typo in the manifest is reported instead of silently denying nothing.
 */
#include "DenyList.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char DENY_KEY[] = "denyExtensionPoints";

/** Where the scan is, and the first error met (the scan stops at it). */
typedef struct scanner {
    const char *start;
    const char *at;
    const char *end;
    char *error;
    size_t error_size;
    size_t error_offset;
    int failed;
} scanner;

/** Records "expected X, found Y" at the current offset; the first error wins. */
static void fail_found(scanner *s, const char *expected, const char *found) {
    if (s->failed) return;
    s->failed = 1;
    s->error_offset = (size_t)(s->at - s->start);
    snprintf(s->error, s->error_size, "ExtensionGuard options: at byte %zu expected %s, found %s",
             s->error_offset, expected, found);
}

/** Like fail_found, with the byte at the current offset as what was found. */
static void fail(scanner *s, const char *expected) {
    char found[32];
    if (s->at >= s->end) {
        snprintf(found, sizeof found, "end of input");
    } else {
        unsigned char c = (unsigned char)*s->at;
        if (c >= 0x20 && c < 0x7f) snprintf(found, sizeof found, "'%c'", c);
        else snprintf(found, sizeof found, "byte 0x%02X", c);
    }
    fail_found(s, expected, found);
}

static void skip_whitespace(scanner *s) {
    while (s->at < s->end && (*s->at == ' ' || *s->at == '\t' || *s->at == '\n' || *s->at == '\r'))
        s->at++;
}

/** Consumes `c` after whitespace, or fails with `expected`. */
static int consume(scanner *s, char c, const char *expected) {
    skip_whitespace(s);
    if (s->at < s->end && *s->at == c) {
        s->at++;
        return 1;
    }
    fail(s, expected);
    return 0;
}

/** Reads 4 hex digits at s->at into *value. */
static int read_hex4(scanner *s, unsigned *value) {
    *value = 0;
    for (int i = 0; i < 4; i++) {
        if (s->at >= s->end) { fail(s, "4 hex digits after \\u"); return 0; }
        char c = *s->at;
        unsigned digit;
        if (c >= '0' && c <= '9') digit = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') digit = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') digit = (unsigned)(c - 'A' + 10);
        else { fail(s, "4 hex digits after \\u"); return 0; }
        *value = *value * 16 + digit;
        s->at++;
    }
    return 1;
}

/** Appends the UTF-8 encoding of `code` (at most 4 bytes) at *out. */
static void put_utf8(char **out, unsigned code) {
    unsigned char *o = (unsigned char *)*out;
    if (code < 0x80) {
        *o++ = (unsigned char)code;
    } else if (code < 0x800) {
        *o++ = (unsigned char)(0xC0 | (code >> 6));
        *o++ = (unsigned char)(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        *o++ = (unsigned char)(0xE0 | (code >> 12));
        *o++ = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (code & 0x3F));
    } else {
        *o++ = (unsigned char)(0xF0 | (code >> 18));
        *o++ = (unsigned char)(0x80 | ((code >> 12) & 0x3F));
        *o++ = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (code & 0x3F));
    }
    *out = (char *)o;
}

/** Decodes one \u escape (s->at just past "\u"), pairing surrogates. */
static int read_unicode_escape(scanner *s, char **out) {
    unsigned code;
    if (!read_hex4(s, &code)) return 0;
    if (code >= 0xDC00 && code <= 0xDFFF) { s->at -= 6; fail(s, "a high surrogate before a low one"); return 0; }
    if (code >= 0xD800 && code <= 0xDBFF) {
        unsigned low;
        if (s->end - s->at < 2 || s->at[0] != '\\' || s->at[1] != 'u') { fail(s, "\\u low surrogate"); return 0; }
        s->at += 2;
        if (!read_hex4(s, &low)) return 0;
        if (low < 0xDC00 || low > 0xDFFF) { s->at -= 6; fail(s, "\\u low surrogate"); return 0; }
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    put_utf8(out, code);
    return 1;
}

/**
 * Reads a JSON string after whitespace into a new NUL-terminated buffer. Decoding never makes a
 * string longer than its escaped form, so the raw span bounds the allocation.
 */
static int read_string(scanner *s, const char *expected, eg_identifier *result) {
    skip_whitespace(s);
    if (s->at >= s->end || *s->at != '"') { fail(s, expected); return 0; }
    s->at++;
    const char *raw = s->at;
    while (raw < s->end && *raw != '"') raw += (*raw == '\\') ? 2 : 1;
    if (raw >= s->end) { s->at = s->end; fail(s, "a closing '\"'"); return 0; }

    char *buffer = malloc((size_t)(raw - s->at) + 1);
    if (buffer == NULL) { fail(s, "memory for a string"); return 0; }
    char *out = buffer;
    while (*s->at != '"') {
        unsigned char c = (unsigned char)*s->at;
        if (c < 0x20) { fail(s, "no control characters in a string"); free(buffer); return 0; }
        if (c != '\\') { *out++ = (char)c; s->at++; continue; }
        s->at++;
        char e = *s->at++;
        switch (e) {
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '/': *out++ = '/'; break;
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'n': *out++ = '\n'; break;
        case 'r': *out++ = '\r'; break;
        case 't': *out++ = '\t'; break;
        case 'u':
            if (!read_unicode_escape(s, &out)) { free(buffer); return 0; }
            break;
        default:
            s->at--;
            fail(s, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
            free(buffer);
            return 0;
        }
    }
    s->at++;
    *out = '\0';
    result->data = buffer;
    result->length = (size_t)(out - buffer);
    return 1;
}

static int append(eg_deny_list *list, eg_identifier item) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 4;
        if (capacity > ((size_t)-1) / sizeof *list->items) return 0;
        eg_identifier *items = realloc(list->items, capacity * sizeof *items);
        if (items == NULL) return 0;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = item;
    return 1;
}

/** Reads `[ "id", … ]` into `list`. */
static int read_identifier_array(scanner *s, eg_deny_list *list) {
    if (!consume(s, '[', "'[' (\"denyExtensionPoints\" is an array of strings)")) return 0;
    skip_whitespace(s);
    if (s->at < s->end && *s->at == ']') { s->at++; return 1; }
    for (;;) {
        eg_identifier item;
        if (!read_string(s, "a string (an extension point identifier)", &item)) return 0;
        if (!append(list, item)) { free(item.data); fail(s, "memory for the list"); return 0; }
        skip_whitespace(s);
        if (s->at < s->end && *s->at == ',') { s->at++; continue; }
        return consume(s, ']', "',' or ']'");
    }
}

static int read_options(scanner *s, eg_deny_list *list) {
    if (!consume(s, '{', "'{' (options are a JSON object)")) return 0;
    skip_whitespace(s);
    if (s->at < s->end && *s->at == '}') { s->at++; return 1; }
    int seen_deny = 0;
    for (;;) {
        const char *key_at = s->at;
        eg_identifier key;
        if (!read_string(s, "a key string", &key)) return 0;
        int is_deny = key.length == sizeof DENY_KEY - 1 && memcmp(key.data, DENY_KEY, key.length) == 0;
        if (!is_deny || seen_deny) {
            /* Name the key, printable ASCII only and cut short: it goes into one log line. */
            char found[64];
            size_t n = key.length < 40 ? key.length : 40;
            for (size_t i = 0; i < n; i++)
                found[i] = (key.data[i] >= 0x20 && key.data[i] < 0x7f) ? key.data[i] : '?';
            snprintf(found + n, sizeof found - n, "%s", key.length > n ? "..." : "");
            char quoted[80];
            snprintf(quoted, sizeof quoted, "key \"%s\"", found);
            free(key.data);
            s->at = key_at;
            skip_whitespace(s);
            fail_found(s, seen_deny ? "\"denyExtensionPoints\" only once" : "the only key \"denyExtensionPoints\"",
                       quoted);
            return 0;
        }
        free(key.data);
        seen_deny = 1;
        if (!consume(s, ':', "':'")) return 0;
        if (!read_identifier_array(s, list)) return 0;
        skip_whitespace(s);
        if (s->at < s->end && *s->at == ',') { s->at++; continue; }
        return consume(s, '}', "',' or '}'");
    }
}

int eg_deny_list_parse(eg_deny_list *list, const char *json, size_t length,
                       char *error, size_t error_size, size_t *error_offset) {
    scanner s = { json, json, json + length, error, error_size, 0, 0 };
    if (read_options(&s, list)) {
        skip_whitespace(&s);
        if (s.at == s.end) return 1;
        fail(&s, "end of input after the options object");
    }
    eg_deny_list_free(list);
    *error_offset = s.error_offset;
    return 0;
}

int eg_deny_list_contains(const eg_deny_list *list, const char *data, size_t length) {
    for (size_t i = 0; i < list->count; i++) {
        if (list->items[i].length == length && (length == 0 || memcmp(list->items[i].data, data, length) == 0))
            return 1;
    }
    return 0;
}

void eg_deny_list_free(eg_deny_list *list) {
    for (size_t i = 0; i < list->count; i++) free(list->items[i].data);
    free(list->items);
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
}
