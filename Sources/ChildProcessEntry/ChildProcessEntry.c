/*
 * ChildProcessEntry.c — the child's entry (a constructor) and its reaper. See the header for the
 * protocol. Everything here runs before `main` in a single-threaded process, or in the reaper, which
 * never returns to Swift: plain C, fixed buffers, no stdio.
 */
#define _GNU_SOURCE
#include "ChildProcessEntry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The roles' mains (Swift, @_cdecl), weak: an executable links the ones it has. The conformance
 * kit's lives in SubscriberConformance; the test role in this layer's own tests. */
extern int adh_conformance_child_main(int channel, const unsigned char *secret, size_t secret_length)
    __attribute__((weak));
extern int adh_child_process_test_main(int channel, const unsigned char *secret, size_t secret_length)
    __attribute__((weak));
/* Process isolation's child (SubscriberHost): serves one isolation group's plugins. */
extern int adh_isolation_child_main(int channel, const unsigned char *secret, size_t secret_length)
    __attribute__((weak));
/* apphost list's plugin scanner (AppHostCLI/Listing/PluginScanChild.swift). */
extern int adh_plugin_scan_child_main(int channel, const unsigned char *secret, size_t secret_length)
    __attribute__((weak));
/* A host of an isolated plugin, for the host's tests (the child dies with its host). */
extern int adh_isolation_host_test_main(int channel, const unsigned char *secret, size_t secret_length)
    __attribute__((weak));

/* The main of `role`, or NULL when the role is unknown or its main is not linked in. */
static adh_child_main role_main(const char *role) {
    if (strcmp(role, "conformance") == 0) return adh_conformance_child_main;
    if (strcmp(role, "child-process-test") == 0) return adh_child_process_test_main;
    if (strcmp(role, "isolation") == 0) return adh_isolation_child_main;
    if (strcmp(role, "plugin-scan") == 0) return adh_plugin_scan_child_main;
    if (strcmp(role, "isolation-host-test") == 0) return adh_isolation_host_test_main;
    return NULL;
}

int adh_child_has_ended(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return -1;
    return info.si_pid == pid ? 1 : 0;
}

int adh_child_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int adh_child_socketpair(int fds[2]) { return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds); }

/* Writes one frame in a single buffer on the reaper channel (only the reaper holds it). */
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
static size_t kill_leftovers(pid_t listed[ADH_CHILD_LISTED_LEFTOVERS]) {
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
            if (killed < ADH_CHILD_LISTED_LEFTOVERS) listed[killed] = entries[i].pid;
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

/* The parent's timeout (SIGTERM) or its death (the reaper's parent-death signal): end the worker,
 * then clean up as after any ending. The parent never names a process to kill: the reaper knows its
 * worker because it forked it. */
static void stop_worker(int signal_number) {
    (void)signal_number;
    if (reaped_worker > 0) kill(reaped_worker, SIGKILL);
}

/* The reaper: waits for `worker`, kills what it left, reports on `report_channel`, exits. `parent`
 * is the process that started it (0: not known). */
static void reap(pid_t worker, int report_channel, pid_t parent) {
    reaped_worker = worker;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = stop_worker;
    sigaction(SIGTERM, &action, NULL);
    /* Set by the parent's thread that waits for this process until it ends, so it holds. */
    prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
    /* A parent that died before the signal was set never sends it: then stop at once. */
    if (parent > 0 && getppid() != parent) stop_worker(SIGTERM);
    int status = 0;
    for (;;) {
        pid_t ended = waitpid(-1, &status, 0);
        if (ended == worker) break;
        if (ended < 0 && errno != EINTR) {
            status = -1;
            break;
        }
    }
    pid_t listed[ADH_CHILD_LISTED_LEFTOVERS];
    size_t leftovers = kill_leftovers(listed);

    char json[1024];
    int length;
    if (status != -1 && WIFSIGNALED(status))
        length = snprintf(json, sizeof json, "{\"signal\":%d,\"leftovers\":%zu,\"pids\":[", WTERMSIG(status), leftovers);
    else
        length = snprintf(json, sizeof json, "{\"exit\":%d,\"leftovers\":%zu,\"pids\":[",
                          status == -1 ? 255 : WEXITSTATUS(status), leftovers);
    size_t shown = leftovers < ADH_CHILD_LISTED_LEFTOVERS ? leftovers : ADH_CHILD_LISTED_LEFTOVERS;
    for (size_t i = 0; i < shown && length > 0 && (size_t)length < sizeof json - 16; i++)
        length += snprintf(json + length, sizeof json - (size_t)length, "%s%d", i ? "," : "", (int)listed[i]);
    if (length > 0 && (size_t)length < sizeof json - 3) {
        memcpy(json + length, "]}", 3);
        write_frame(report_channel, json);
    }
    _exit(0);
}

/* Writes `message` and a line break on standard error and exits with status 2: the parent sees a
 * child that never answered and reports the executable as unable to serve as one. */
static void refuse(const char *message) {
    static const char prefix[] = "child process entry: ";
    ssize_t written = write(2, prefix, sizeof prefix - 1);
    written = write(2, message, strlen(message));
    written = write(2, "\n", 1);
    (void)written;
    _exit(2);
}

/* The descriptor number in variable `name`, checked to be a socket; -1 when it is not. */
static int socket_variable(const char *name) {
    const char *value = getenv(name);
    if (value == NULL) return -1;
    char *end = NULL;
    long number = strtol(value, &end, 10);
    struct stat info;
    if (end == value || *end != '\0' || number < 0 || number > 65535 || fstat((int)number, &info) != 0
        || !S_ISSOCK(info.st_mode))
        return -1;
    return (int)number;
}

/* Reads exactly `count` bytes from `fd`, waiting at most 10 s for each piece; 0 on success. */
static int read_exactly(int fd, unsigned char *bytes, size_t count) {
    size_t offset = 0;
    while (offset < count) {
        struct pollfd wait = {fd, POLLIN, 0};
        int ready = poll(&wait, 1, 10000);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return -1;
        ssize_t got = read(fd, bytes + offset, count - offset);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        offset += (size_t)got;
    }
    return 0;
}

/* Moves `fd` to a random free number at or above ADH_CHILD_CHANNEL_MINIMUM (below the descriptor
 * limit), close-on-exec; returns the new number, or `fd` itself (made close-on-exec) when there is
 * no room. A well-known number would be one a careless plugin could hit by accident. */
static int move_to_random_number(int fd) {
    struct rlimit limit;
    long ceiling = 1024;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) ceiling = (long)limit.rlim_cur;
    if (ceiling > 65536) ceiling = 65536;
    if (ceiling > ADH_CHILD_CHANNEL_MINIMUM + 1) {
        unsigned int random_value = 0;
        if (getrandom(&random_value, sizeof random_value, 0) != (ssize_t)sizeof random_value)
            random_value = (unsigned int)getpid() * 2654435761u ^ (unsigned int)time(NULL);
        long span = ceiling - ADH_CHILD_CHANNEL_MINIMUM;
        int moved = fcntl(fd, F_DUPFD_CLOEXEC, (int)(ADH_CHILD_CHANNEL_MINIMUM + (long)(random_value % (unsigned long)span)));
        if (moved < 0) moved = fcntl(fd, F_DUPFD_CLOEXEC, ADH_CHILD_CHANNEL_MINIMUM);
        if (moved >= 0) {
            close(fd);
            return moved;
        }
    }
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

__attribute__((constructor)) static void adh_child_process_entry(void) {
    if (getenv(ADH_CHILD_CHANNEL_VARIABLE) == NULL) return;
    int channel = socket_variable(ADH_CHILD_CHANNEL_VARIABLE);
    int report_channel = socket_variable(ADH_CHILD_REAPER_VARIABLE);
    const char *role = getenv(ADH_CHILD_ROLE_VARIABLE);
    adh_child_main main_function = role != NULL ? role_main(role) : NULL;
    /* Not for the worker's code to see, nor for anything it starts. */
    unsetenv(ADH_CHILD_CHANNEL_VARIABLE);
    unsetenv(ADH_CHILD_REAPER_VARIABLE);
    unsetenv(ADH_CHILD_ROLE_VARIABLE);
    const char *parent_text = getenv(ADH_CHILD_PARENT_VARIABLE);
    pid_t parent = parent_text != NULL ? (pid_t)strtol(parent_text, NULL, 10) : 0;
    unsetenv(ADH_CHILD_PARENT_VARIABLE);
    if (channel < 0 || report_channel < 0)
        refuse("expected " ADH_CHILD_CHANNEL_VARIABLE " and " ADH_CHILD_REAPER_VARIABLE
               " to name the parent's sockets (set by the child-process layer only), found something else");
    if (main_function == NULL)
        refuse("expected " ADH_CHILD_ROLE_VARIABLE " to name a role whose main this executable links, found none");

    /* The run's secret: the parent's first frame, exactly ADH_CHILD_SECRET_SIZE bytes. */
    unsigned char header[4];
    static unsigned char secret[ADH_CHILD_SECRET_SIZE];
    if (read_exactly(channel, header, sizeof header) != 0
        || ((size_t)header[0] << 24 | (size_t)header[1] << 16 | (size_t)header[2] << 8 | header[3]) != sizeof secret
        || read_exactly(channel, secret, sizeof secret) != 0)
        refuse("expected the run's secret as the first frame on the channel, found none");
    channel = move_to_random_number(channel);
    (void)fcntl(report_channel, F_SETFD, FD_CLOEXEC);

    /* Orphans of the worker re-parent to the reaper, which outlives the worker and kills them. */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    pid_t reaper = getpid();
    pid_t worker = fork();
    if (worker < 0) refuse("fork failed");
    if (worker > 0) {
        /* The reaper writes only its report, on its own channel; the worker channel is the worker's. */
        close(channel);
        memset(secret, 0, sizeof secret);
        reap(worker, report_channel, parent);
    }
    /* Before anything else runs in the worker: its code never holds the reaper channel. */
    close(report_channel);
    /* The worker dies with the reaper (set by the reaper's only thread, so it holds). */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != reaper) _exit(2);
    _exit(main_function(channel, secret, sizeof secret));
}
