/*
 * ConformanceChildEntry.c — the conformance child's entry (a constructor) and its reaper. See the
 * header for the protocol. Everything here runs before `main` in a single-threaded process, or in
 * the reaper, which never returns to Swift: plain C, fixed buffers, no stdio.
 */
#define _GNU_SOURCE
#include "ConformanceChildEntry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The worker's main, in SubscriberConformance (Swift, @_cdecl). Weak, so that this target links
 * into an executable without the kit; the constructor then does nothing. Never returns. */
extern int adh_conformance_child_main(int channel) __attribute__((weak));

int adh_child_has_ended(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return -1;
    return info.si_pid == pid ? 1 : 0;
}

int adh_child_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int adh_child_socketpair(int fds[2]) { return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds); }

/* Writes one frame in a single buffer (the worker is gone by then: nobody else writes). */
static void write_frame(int channel, const char *json) {
    size_t length = strlen(json);
    char frame[4 + 1024];
    if (length > sizeof frame - 4) return;
    frame[0] = (char)((length >> 24) & 0xFF);
    frame[1] = (char)((length >> 16) & 0xFF);
    frame[2] = (char)((length >> 8) & 0xFF);
    frame[3] = (char)(length & 0xFF);
    memcpy(frame + 4, json, length);
    size_t offset = 0;
    while (offset < length + 4) {
        ssize_t written = send(channel, frame + offset, length + 4 - offset, MSG_NOSIGNAL);
        if (written < 0) {
            if (errno == EINTR) continue;
            return;
        }
        offset += (size_t)written;
    }
}

/* One process as /proc/PID/stat shows it. */
typedef struct {
    pid_t pid;
    pid_t ppid;
    char state;
} process_entry;

/* Reads pid, state and ppid from /proc/PID/stat; 0 when the process is gone. The command name
 * sits in parentheses and may hold anything, so fields are read after the last ')'. */
static int read_process(pid_t pid, process_entry *entry) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[1024];
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    if (count <= 0) return 0;
    text[count] = '\0';
    char *close_paren = strrchr(text, ')');
    if (close_paren == NULL) return 0;
    char state = 0;
    int ppid = 0;
    if (sscanf(close_paren + 1, " %c %d", &state, &ppid) != 2) return 0;
    entry->pid = pid;
    entry->ppid = (pid_t)ppid;
    entry->state = state;
    return 1;
}

/* Every process on the system; *count set. The caller frees. NULL when /proc cannot be read. */
static process_entry *list_processes(size_t *count) {
    *count = 0;
    DIR *proc = opendir("/proc");
    if (proc == NULL) return NULL;
    size_t capacity = 256;
    process_entry *entries = malloc(capacity * sizeof *entries);
    struct dirent *item;
    while (entries != NULL && (item = readdir(proc)) != NULL) {
        char *end = NULL;
        long pid = strtol(item->d_name, &end, 10);
        if (end == item->d_name || *end != '\0' || pid <= 0) continue;
        if (*count == capacity) {
            process_entry *grown = realloc(entries, capacity * 2 * sizeof *entries);
            if (grown == NULL) break;
            entries = grown;
            capacity *= 2;
        }
        if (read_process((pid_t)pid, &entries[*count])) (*count)++;
    }
    closedir(proc);
    return entries;
}

/* Marks in `inside` every entry that descends from `root`, repeating until nothing changes (each
 * pass adds at least one level of the tree). Returns how many are still alive (not zombies). */
static size_t mark_descendants(pid_t root, const process_entry *entries, size_t count, unsigned char *inside) {
    memset(inside, 0, count);
    int changed = 1;
    while (changed) {
        changed = 0;
        for (size_t i = 0; i < count; i++) {
            if (inside[i]) continue;
            int parent_inside = entries[i].ppid == root;
            for (size_t j = 0; !parent_inside && j < count; j++)
                parent_inside = inside[j] && entries[j].pid == entries[i].ppid;
            if (parent_inside) {
                inside[i] = 1;
                changed = 1;
            }
        }
    }
    size_t alive = 0;
    for (size_t i = 0; i < count; i++)
        if (inside[i] && entries[i].state != 'Z' && entries[i].state != 'X') alive++;
    return alive;
}

static void reap_available(void) {
    while (waitpid(-1, NULL, WNOHANG) > 0) {}
}

/* Kills every live descendant of this process, round after round until none is left (a process may
 * fork between the listing and the kill), and reaps them. Fills `listed` with the first pids killed;
 * returns how many distinct processes it killed. */
static size_t kill_leftovers(pid_t listed[ADH_CONFORMANCE_LISTED_LEFTOVERS]) {
    /* The usual case, without reading /proc: no child left at all. Any live descendant would have a
     * child of this subreaper at the top of its branch (the worker's children re-parent here). */
    reap_available();
    if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD) return 0;
    pid_t self = getpid();
    size_t killed = 0;
    size_t seen_capacity = 64;
    pid_t *seen = malloc(seen_capacity * sizeof *seen);
    for (int round = 0; round < 500 && seen != NULL; round++) {
        reap_available();
        size_t count = 0;
        process_entry *entries = list_processes(&count);
        if (entries == NULL) break;
        unsigned char *inside = calloc(count ? count : 1, 1);
        size_t alive = inside != NULL ? mark_descendants(self, entries, count, inside) : 0;
        for (size_t i = 0; alive > 0 && i < count; i++) {
            if (!inside[i] || entries[i].state == 'Z' || entries[i].state == 'X') continue;
            kill(entries[i].pid, SIGKILL);
            int known = 0;
            for (size_t k = 0; k < killed && !known; k++) known = seen[k] == entries[i].pid;
            if (known) continue;
            if (killed == seen_capacity) {
                pid_t *grown = realloc(seen, seen_capacity * 2 * sizeof *seen);
                if (grown == NULL) continue;
                seen = grown;
                seen_capacity *= 2;
            }
            if (killed < ADH_CONFORMANCE_LISTED_LEFTOVERS) listed[killed] = entries[i].pid;
            seen[killed++] = entries[i].pid;
        }
        free(inside);
        free(entries);
        if (alive == 0) break;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    free(seen);
    /* Everything left is dead or dying: reap what comes, for at most a second. */
    for (int wait_round = 0; wait_round < 1000; wait_round++) {
        pid_t reaped = waitpid(-1, NULL, WNOHANG);
        if (reaped < 0 && errno == ECHILD) break;
        if (reaped <= 0) {
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
        }
    }
    return killed;
}

/* The worker, for the SIGTERM handler. */
static volatile pid_t reaped_worker = 0;

/* The kit went away (the reaper's parent-death signal) or asked to stop: end the worker, then
 * clean up as after any ending. */
static void stop_worker(int signal_number) {
    (void)signal_number;
    if (reaped_worker > 0) kill(reaped_worker, SIGKILL);
}

/* The reaper: waits for `worker`, kills what it left, reports, exits. */
static void reap(pid_t worker, int channel) {
    reaped_worker = worker;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = stop_worker;
    sigaction(SIGTERM, &action, NULL);
    /* Set by the kit's thread that waits for this process until it ends, so it holds. */
    prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
    int status = 0;
    for (;;) {
        pid_t ended = waitpid(-1, &status, 0);
        if (ended == worker) break;
        if (ended < 0 && errno != EINTR) {
            status = -1;
            break;
        }
    }
    pid_t listed[ADH_CONFORMANCE_LISTED_LEFTOVERS];
    size_t leftovers = kill_leftovers(listed);

    char json[1024];
    int length;
    if (status != -1 && WIFSIGNALED(status))
        length = snprintf(json, sizeof json, "{\"kind\":\"ended\",\"signal\":%d,\"leftovers\":%zu,\"pids\":[",
                          WTERMSIG(status), leftovers);
    else
        length = snprintf(json, sizeof json, "{\"kind\":\"ended\",\"exit\":%d,\"leftovers\":%zu,\"pids\":[",
                          status == -1 ? 255 : WEXITSTATUS(status), leftovers);
    size_t shown = leftovers < ADH_CONFORMANCE_LISTED_LEFTOVERS ? leftovers : ADH_CONFORMANCE_LISTED_LEFTOVERS;
    for (size_t i = 0; i < shown && length > 0 && (size_t)length < sizeof json - 16; i++)
        length += snprintf(json + length, sizeof json - (size_t)length, "%s%d", i ? "," : "", (int)listed[i]);
    if (length > 0 && (size_t)length < sizeof json - 3) {
        memcpy(json + length, "]}", 3);
        write_frame(channel, json);
    }
    _exit(0);
}

__attribute__((constructor)) static void adh_conformance_child_entry(void) {
    const char *value = getenv(ADH_CONFORMANCE_CHILD_VARIABLE);
    if (value == NULL || adh_conformance_child_main == NULL) return;
    char *end = NULL;
    long channel = strtol(value, &end, 10);
    /* Not for the plugin to see, nor for anything it starts. */
    unsetenv(ADH_CONFORMANCE_CHILD_VARIABLE);
    struct stat info;
    if (end == value || *end != '\0' || channel < 0 || channel > 65535 || fstat((int)channel, &info) != 0
        || !S_ISSOCK(info.st_mode)) {
        static const char message[] = ADH_CONFORMANCE_CHILD_VARIABLE
            ": expected the descriptor of the conformance kit's channel (set by the kit only), found something else\n";
        ssize_t written = write(2, message, sizeof message - 1);
        (void)written;
        _exit(2);
    }

    /* Orphans of the check re-parent to the reaper, which outlives the worker and kills them. */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    pid_t reaper = getpid();
    pid_t worker = fork();
    if (worker < 0) _exit(2);
    if (worker > 0) reap(worker, (int)channel);
    /* The worker dies with the reaper (set by the reaper's only thread, so it holds). */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != reaper) _exit(2);
    _exit(adh_conformance_child_main((int)channel));
}
