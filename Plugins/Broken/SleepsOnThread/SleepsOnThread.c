/*
 * SleepsOnThread — not a defect: a plugin whose own thread sleeps while the host plays events, to
 * prove that the host never changes what a plugin's system calls do (it signals no thread it did
 * not start, so a sleep is never cut short by EINTR).
 *
 * `create` starts a thread that, until `destroy`, calls usleep(500 ms) and poll(NULL, 0, 500) in
 * turn, and counts the calls that returned early: -1 with EINTR, or before the 500 ms had passed.
 * `destroy` stops it, joins it and logs "sleeper: N calls, M interrupted". `didBecomeActive` and
 * `willResignActive` log a line each (output for the host to write while the thread sleeps).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define _DEFAULT_SOURCE         /* usleep */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "adh_fixture.h"

#define SLEEP_MS 500

static pthread_t sleeper;
static int sleeper_started = 0;
static volatile int stop_sleeping = 0;
static int calls = 0, interrupted = 0;

static long long now_ms(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (long long)time.tv_sec * 1000 + time.tv_nsec / 1000000;
}

/* Counts one call that started at `start` and returned `result`. */
static void count(long long start, int result) {
    calls++;
    if ((result < 0 && errno == EINTR) || now_ms() - start < SLEEP_MS) interrupted++;
}

static void *sleep_in_turn(void *argument) {
    (void)argument;
    while (!stop_sleeping) {
        long long start = now_ms();
        count(start, usleep(SLEEP_MS * 1000));
        if (stop_sleeping) break;
        start = now_ms();
        count(start, poll(NULL, 0, SLEEP_MS));
    }
    return NULL;
}

static void log_line(const adh_subscriber *self, const char *text) {
    const adh_host *host = adh_fixture_host(self);
    host->log(host, ADH_LOG_INFO, (adh_string){ text, strlen(text) });
}

static void did_become_active(const adh_subscriber *self) { log_line(self, "active while the sleeper sleeps"); }
static void will_resign_active(const adh_subscriber *self) { log_line(self, "inactive while the sleeper sleeps"); }

static void destroy(const adh_subscriber *self) {
    if (sleeper_started) {
        stop_sleeping = 1;
        pthread_join(sleeper, NULL);
        sleeper_started = 0;
    }
    char line[96];
    snprintf(line, sizeof line, "sleeper: %d calls, %d interrupted", calls, interrupted);
    log_line(self, line);
    adh_fixture_destroy(self);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "SleepsOnThread", host);
    if (subscriber == NULL) return NULL;
    if (!sleeper_started) sleeper_started = pthread_create(&sleeper, NULL, sleep_in_turn, NULL) == 0;
    subscriber->did_become_active = did_become_active;
    subscriber->will_resign_active = will_resign_active;
    subscriber->destroy = destroy;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.sleeps-on-thread", "SleepsOnThread", create);
ADH_FIXTURE_ENTRY(descriptor)
