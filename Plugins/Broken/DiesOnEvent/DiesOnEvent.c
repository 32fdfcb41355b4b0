/*
 * DiesOnEvent — a deliberately broken plugin for the host's "output survives" tests: during one
 * event it ends the process, in the way its options say.
 *
 * Options: {"on": "<event>", "do": "<how>", "readyFile": "<path>"}. `on` is one of the six
 * notifications it responds to (didBecomeActive, willResignActive, didEnterBackground,
 * willEnterForeground, didReceiveMemoryWarning, willTerminate); on every other one it does nothing.
 * `do` is how it ends the process during `on`:
 *
 *   exit0           exit(0)                       _exit0          _exit(0)
 *   segv            writes through NULL           segvThread      the same on a thread of its own
 *   raiseSegv       raise(SIGSEGV)                trap            a breakpoint trap (int3)
 *   overflow        a stack overflow              overflowThread  the same on a thread of its own
 *   overflowWorker  a stack overflow on a thread it started when it was created (and that waited since)
 *   hang            sleeps forever (for a signal from outside)
 *
 * Before it does, it logs "ending the process: <do> during <on>" and, when `readyFile` is given,
 * creates that file (so that a test knows when to send its signal). Everything else about it is valid.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, for adh_fixture_sleep_ms */

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "adh_fixture.h"

/* The options, read once at create (one subscriber per process). */
static char on_event[64];
static char how[32];
static char ready_file[1024];

/* Copies the string value of "key" in `options` into `out` (empty when absent). A fixture's scan: no escapes. */
static void option_string(adh_string options, const char *key, char *out, size_t size) {
    out[0] = '\0';
    size_t at = adh_fixture_find_end(options, key);
    if (at == 0) return;
    while (at < options.length && options.data[at] != '"') at++; /* past the colon to the opening quote */
    size_t length = 0;
    for (at++; at < options.length && options.data[at] != '"' && length + 1 < size; at++) out[length++] = options.data[at];
    out[length] = '\0';
}

/* Recursion the compiler cannot turn into a loop: each frame keeps a page and uses it after the call. */
static volatile int keep_recursing = 1;
static int deeper(int depth) {
    volatile char page[4096];
    page[0] = (char)depth;
    if (!keep_recursing) return page[0];
    return deeper(depth + 1) + page[0];
}

static void *fault_on_thread(void *argument) {
    (void)argument;
    volatile int *nowhere = NULL;
    *nowhere = 1;
    return NULL;
}

static void *overflow_on_thread(void *argument) {
    (void)argument;
    return (void *)(long)deeper(0);
}

static void run_on_thread(void *(*body)(void *)) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, body, NULL) == 0) pthread_join(thread, NULL);
}

/* overflowWorker: a thread started at create that waits until the event tells it to overflow. */
static pthread_mutex_t worker_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t worker_go = PTHREAD_COND_INITIALIZER;
static int worker_told = 0;
static pthread_t worker;

static void *wait_then_overflow(void *argument) {
    pthread_mutex_lock(&worker_lock);
    while (!worker_told) pthread_cond_wait(&worker_go, &worker_lock);
    pthread_mutex_unlock(&worker_lock);
    return overflow_on_thread(argument);
}

/* The defect: ends the process during `event` when it is the one the options name. */
static void maybe_die(const adh_subscriber *self, const char *event) {
    if (strcmp(event, on_event) != 0) return;
    const adh_host *host = adh_fixture_host(self);
    char line[160];
    int length = snprintf(line, sizeof line, "ending the process: %s during %s", how, event);
    host->log(host, ADH_LOG_INFO, (adh_string){line, length > 0 ? (size_t)length : 0});
    if (ready_file[0] != '\0') close(open(ready_file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));

    if (strcmp(how, "exit0") == 0) exit(0);
    if (strcmp(how, "_exit0") == 0) _exit(0);
    if (strcmp(how, "segv") == 0) fault_on_thread(NULL);
    if (strcmp(how, "segvThread") == 0) run_on_thread(fault_on_thread);
    if (strcmp(how, "raiseSegv") == 0) raise(SIGSEGV);
    if (strcmp(how, "trap") == 0) __builtin_debugtrap();
    if (strcmp(how, "overflow") == 0) (void)deeper(0);
    if (strcmp(how, "overflowThread") == 0) run_on_thread(overflow_on_thread);
    if (strcmp(how, "overflowWorker") == 0) {
        pthread_mutex_lock(&worker_lock);
        worker_told = 1;
        pthread_cond_signal(&worker_go);
        pthread_mutex_unlock(&worker_lock);
        pthread_join(worker, NULL);
    }
    if (strcmp(how, "hang") == 0) for (;;) adh_fixture_sleep_ms(1000);
}

static void did_become_active(const adh_subscriber *self) { maybe_die(self, "didBecomeActive"); }
static void will_resign_active(const adh_subscriber *self) { maybe_die(self, "willResignActive"); }
static void did_enter_background(const adh_subscriber *self) { maybe_die(self, "didEnterBackground"); }
static void will_enter_foreground(const adh_subscriber *self) { maybe_die(self, "willEnterForeground"); }
static void did_receive_memory_warning(const adh_subscriber *self) { maybe_die(self, "didReceiveMemoryWarning"); }
static void will_terminate(const adh_subscriber *self) { maybe_die(self, "willTerminate"); }

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "DiesOnEvent", host);
    if (subscriber == NULL) return NULL;
    adh_string options = adh_fixture_options(host);
    option_string(options, "\"on\"", on_event, sizeof on_event);
    option_string(options, "\"do\"", how, sizeof how);
    option_string(options, "\"readyFile\"", ready_file, sizeof ready_file);
    if (strcmp(how, "overflowWorker") == 0) pthread_create(&worker, NULL, wait_then_overflow, NULL);
    subscriber->did_become_active = did_become_active;
    subscriber->will_resign_active = will_resign_active;
    subscriber->did_enter_background = did_enter_background;
    subscriber->will_enter_foreground = will_enter_foreground;
    subscriber->did_receive_memory_warning = did_receive_memory_warning;
    subscriber->will_terminate = will_terminate;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.dies-on-event", "DiesOnEvent", create);
ADH_FIXTURE_ENTRY(descriptor)
