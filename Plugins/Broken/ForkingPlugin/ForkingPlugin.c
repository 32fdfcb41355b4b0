/*
 * ForkingPlugin — a hostile kit fixture: every didBecomeActive starts processes and leaves them
 * running: a child that sleeps, a child that spins on the CPU, and (through a child that exits at
 * once) a grandchild in a session of its own (setsid) that sleeps. Each names itself
 * "adh-forked" (its comm) and, when the subscriber's options name a "pidFile", appends its pid
 * there. The kit must kill them all and fail "every responding event runs on canonical input".
 */
#define _GNU_SOURCE  /* fork, setsid, O_CLOEXEC under -std=c99 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adh_fixture.h"

/* The options' "pidFile" value, read at create (a fixture: a plain scan, no escapes). */
static char pid_file[512];

static void read_pid_file(const adh_host *host) {
    adh_string options = adh_fixture_options(host);
    size_t start = adh_fixture_find_end(options, "\"pidFile\":\"");
    if (start == 0) return;
    size_t length = 0;
    while (start + length < options.length && options.data[start + length] != '"' && length < sizeof pid_file - 1)
        length++;
    memcpy(pid_file, options.data + start, length);
    pid_file[length] = 0;
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

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ForkingPlugin", host);
    if (subscriber == NULL) return NULL;
    read_pid_file(host);
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.forking-plugin", "ForkingPlugin", create);
ADH_FIXTURE_ENTRY(descriptor)
