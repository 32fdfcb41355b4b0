/*
 * BenchLimits — the floors subscriber-bench measures beside its rows (docs/performance.md): a plain C
 * loop calling subscribers' void entries directly (the floor for loaded dispatch), and reading and
 * writing a JSON line in C (the floor for the `apphost --json` command). Not part of any product.
 */
#ifndef BENCH_LIMITS_H
#define BENCH_LIMITS_H

#include <stddef.h>
#include "SubscriberABI.h"

/* Calls `entries[i](subscribers[i])` for every i < count, `events` times over: the loop a host could
 * not beat. `entries[i]` is a `void (*)(const adh_subscriber *)` entry of subscriber i. */
void adh_bench_void_loop(const void *const *entries, const adh_subscriber *const *subscribers, size_t count,
                         size_t events);

/* Reads `input` line by line (an event script: one JSON object per line), scans each line's JSON
 * text for its top-level "event" string, and writes one JSON line per event to `output`:
 * {"event":NAME,"result":null,"answers":[],"reports":[]}. Returns the lines written; -1 when a file
 * cannot be opened, -2 when a line has no "event" string. */
long adh_bench_json_lines(const char *input, const char *output);

#endif
