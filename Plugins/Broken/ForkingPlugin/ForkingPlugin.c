/*
 * ForkingPlugin — a hostile kit fixture: every didBecomeActive starts processes and leaves them
 * running: a child that sleeps, a child that spins on the CPU, and (through a child that exits at
 * once) a grandchild in a session of its own (setsid) that sleeps. Each names itself
 * "adh-forked" (its comm) and, when the subscriber's options name a "pidFile", appends its pid
 * there. The kit must kill them all and fail "every responding event runs on canonical input".
 */
#define _GNU_SOURCE  /* fork, setsid, O_CLOEXEC under -std=c99 */
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "SubscriberABI.h"

/* The options' "pidFile" value, read at create (a fixture: a plain scan, no escapes). */
static char pid_file[512];

static void read_pid_file(const adh_host *host) {
    if (host == NULL || !ADH_STRUCT_HAS(host, adh_host, options_json) || host->options_json == NULL) return;
    adh_string options = host->options_json(host);
    static const char key[] = "\"pidFile\":\"";
    for (size_t i = 0; options.data != NULL && i + sizeof key - 1 <= options.length; i++) {
        if (memcmp(options.data + i, key, sizeof key - 1) != 0) continue;
        size_t start = i + sizeof key - 1, length = 0;
        while (start + length < options.length && options.data[start + length] != '"' && length < sizeof pid_file - 1)
            length++;
        memcpy(pid_file, options.data + start, length);
        pid_file[length] = 0;
        return;
    }
}

/* In a forked process: take the marker name, record the pid, tell the caller (one byte on
 * `ready`). Async-signal-safe calls only. */
static void mark_self(int ready) {
    prctl(PR_SET_NAME, "adh-forked", 0, 0, 0);
    if (pid_file[0] != 0) {
        int fd = open(pid_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) {
            char line[32];
            int length = snprintf(line, sizeof line, "%d\n", (int)getpid());
            ssize_t written = write(fd, line, (size_t)length);
            (void)written;
            close(fd);
        }
    }
    ssize_t written = write(ready, "!", 1);
    (void)written;
}

/* Returns once all three processes run and recorded themselves, so that the count is exact. */
static void did_become_active(const adh_subscriber *self) {
    (void)self;
    int ready[2];
    if (pipe(ready) != 0) return;
    if (fork() == 0) {
        mark_self(ready[1]);
        for (;;) sleep(60);
    }
    if (fork() == 0) {
        mark_self(ready[1]);
        for (volatile unsigned long spin = 0;; spin++) {}
    }
    pid_t middle = fork();
    if (middle == 0) {
        if (fork() == 0) {
            setsid();
            mark_self(ready[1]);
            for (;;) sleep(60);
        }
        _exit(0);
    }
    close(ready[1]);
    char marks[3];
    size_t got = 0;
    while (got < sizeof marks) {
        ssize_t count = read(ready[0], marks + got, sizeof marks - got);
        if (count <= 0) break;
        got += (size_t)count;
    }
    close(ready[0]);
    if (middle > 0) waitpid(middle, NULL, 0);
}

static void destroy(const adh_subscriber *self) {
    free((void *)self);
}

/* Makes the one subscriber the descriptor lists; NULL for any other name. */
static const adh_subscriber *create(const char *name, const adh_host *host) {
    if (name == NULL || strcmp(name, "ForkingPlugin") != 0) return NULL;
    read_pid_file(host);
    adh_subscriber *subscriber = calloc(1, sizeof *subscriber);
    if (subscriber == NULL) return NULL;
    subscriber->struct_size = sizeof *subscriber;
    subscriber->destroy = destroy;
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

static const char *const subscriber_names[] = { "ForkingPlugin" };

static const adh_plugin_descriptor descriptor = {
    .struct_size = sizeof(adh_plugin_descriptor),
    .abi_major = ADH_ABI_MAJOR,
    .abi_minor = ADH_ABI_MINOR,
    .id = "dev.appdelegatehost.fixture.forking-plugin",
    .name = "ForkingPlugin",
    .version = "1.0.0",
    .vendor = "AppDelegateHost",
    .swift_version = "",
    .subscriber_count = 1,
    .subscriber_names = subscriber_names,
    .create = create,
};

__attribute__((visibility("default"))) const adh_plugin_descriptor *adh_plugin_entry(void) {
    return &descriptor;
}
