/*
 * IsolationFaults — a deliberately broken plugin for process isolation's tests: the failures a child
 * must survive that the other fixtures do not make.
 *
 *   create                   with options {"create": "segv"}: writes through NULL while being made
 *   performFetch             returns ADH_RESPONDS and keeps the completion (never calls it)
 *   didBecomeActive          writes through NULL (SIGSEGV), with a fetch completion still owed
 *   willResignActive         writes a frame of garbage to every socket it finds (the child's channel)
 *   didReceiveMemoryWarning  asks malloc for 8 GiB (never touched); aborts when it gets NULL (a
 *                            memory limit reached), else frees it and logs "got 8 GiB of address space"
 *   didEnterBackground       writes a line on standard output and one on standard error
 *   willEnterForeground      with options {"crashWhen": "<path>"}: starts a thread that waits until
 *                            that file exists, then writes through NULL (a crash between events)
 *   destroy                  with options {"destroy": "segv"}: writes through NULL while destroyed
 */
#define _POSIX_C_SOURCE 200809L /* adh_fixture_frame_to_every_socket */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adh_fixture.h"

static adh_response perform_fetch(const adh_subscriber *self, adh_fetch_completion completion) {
    (void)self;
    (void)completion;
    return ADH_RESPONDS;
}

static void did_become_active(const adh_subscriber *self) {
    (void)self;
    volatile int *nowhere = NULL;
    *nowhere = 1;
}

static void will_resign_active(const adh_subscriber *self) {
    (void)self;
    adh_fixture_frame_to_every_socket("{\"verdict\":\"garbage\"}");
}

static void did_receive_memory_warning(const adh_subscriber *self) {
    size_t size = (size_t)8 << 30;
    char *block = malloc(size);
    if (block == NULL) abort();
    free(block); /* never touched: only the address space was asked for */
    const adh_host *host = adh_fixture_host(self);
    static const char line[] = "got 8 GiB of address space";
    host->log(host, ADH_LOG_INFO, (adh_string){line, sizeof line - 1});
}

static void did_enter_background(const adh_subscriber *self) {
    (void)self;
    static const char out[] = "IsolationFaults: a line on standard output\n";
    static const char err[] = "IsolationFaults: a line on standard error\n";
    ssize_t written = write(1, out, sizeof out - 1);
    written = write(2, err, sizeof err - 1);
    (void)written;
}

/* The file the crashing thread waits for (options' "crashWhen"), read at create. */
static char crash_when[1024];
static int destroy_segv;

static void *crash_when_file_exists(void *argument) {
    (void)argument;
    while (access(crash_when, F_OK) != 0) adh_fixture_sleep_ms(5);
    volatile int *nowhere = NULL;
    *nowhere = 1;
    return NULL;
}

static void will_enter_foreground(const adh_subscriber *self) {
    (void)self;
    pthread_t thread;
    if (crash_when[0] != '\0' && pthread_create(&thread, NULL, crash_when_file_exists, NULL) == 0) pthread_detach(thread);
}

static void destroy(const adh_subscriber *self) {
    if (destroy_segv) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
    adh_fixture_destroy(self);
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_string options = adh_fixture_options(host);
    if (adh_fixture_find_end(options, "\"create\":\"segv\"") != 0) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
    adh_subscriber *subscriber = adh_fixture_create(name, "IsolationFaults", host);
    if (subscriber == NULL) return NULL;
    destroy_segv = adh_fixture_find_end(options, "\"destroy\":\"segv\"") != 0;
    crash_when[0] = '\0';
    size_t at = adh_fixture_find_end(options, "\"crashWhen\":\"");
    if (at != 0) {
        size_t length = 0;
        while (at < options.length && options.data[at] != '"' && length + 1 < sizeof crash_when) crash_when[length++] = options.data[at++];
        crash_when[length] = '\0';
    }
    subscriber->destroy = destroy;
    subscriber->will_enter_foreground = will_enter_foreground;
    subscriber->perform_fetch = perform_fetch;
    subscriber->did_become_active = did_become_active;
    subscriber->will_resign_active = will_resign_active;
    subscriber->did_receive_memory_warning = did_receive_memory_warning;
    subscriber->did_enter_background = did_enter_background;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.isolation-faults", "IsolationFaults", create);
ADH_FIXTURE_ENTRY(descriptor)
