#define _POSIX_C_SOURCE 200809L

#include "BenchLimits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*void_entry)(const adh_subscriber *self);

void adh_bench_void_loop(const void *const *entries, const adh_subscriber *const *subscribers, size_t count,
                         size_t events) {
    for (size_t event = 0; event < events; event++) {
        for (size_t index = 0; index < count; index++) {
            void_entry entry;
            memcpy(&entry, &entries[index], sizeof entry);
            entry(subscribers[index]);
        }
    }
}

/* The end of the JSON string starting after the quote at `text` (the closing quote), or NULL. */
static const char *string_end(const char *text, const char *end) {
    while (text < end) {
        if (*text == '\\') {
            text += 2;
        } else if (*text == '"') {
            return text;
        } else {
            text++;
        }
    }
    return NULL;
}

/* The top-level "event" string of the object in [line, end): its first byte and length. Every byte
 * is looked at once (strings skipped by their escapes, depth counted), as a reader must. */
static int find_event(const char *line, const char *end, const char **name, size_t *length) {
    int depth = 0;
    int expect_key = 0;
    const char *key = NULL;
    size_t key_length = 0;
    for (const char *at = line; at < end; at++) {
        switch (*at) {
        case '{': depth++; expect_key = 1; break;
        case '[': depth++; expect_key = 0; break;
        case '}': case ']': depth--; break;
        case ',': expect_key = 1; break;
        case ':': expect_key = 0; break;
        case '"': {
            const char *close = string_end(at + 1, end);
            if (close == NULL) return 0;
            if (depth == 1 && expect_key) {
                key = at + 1;
                key_length = (size_t)(close - key);
            } else if (depth == 1 && key != NULL && key_length == 5 && memcmp(key, "event", 5) == 0) {
                *name = at + 1;
                *length = (size_t)(close - *name);
                return 1;
            }
            at = close;
            break;
        }
        default: break;
        }
    }
    return 0;
}

long adh_bench_json_lines(const char *input, const char *output) {
    FILE *in = fopen(input, "r");
    if (in == NULL) return -1;
    FILE *out = fopen(output, "w");
    if (out == NULL) {
        fclose(in);
        return -1;
    }
    char *line = NULL;
    size_t capacity = 0;
    ssize_t read;
    long written = 0;
    while ((read = getline(&line, &capacity, in)) > 0) {
        const char *name;
        size_t length;
        if (!find_event(line, line + read, &name, &length)) {
            written = -2;
            break;
        }
        fputs("{\"event\":\"", out);
        fwrite(name, 1, length, out);
        fputs("\",\"result\":null,\"answers\":[],\"reports\":[]}\n", out);
        written++;
    }
    free(line);
    fclose(in);
    fclose(out);
    return written;
}
