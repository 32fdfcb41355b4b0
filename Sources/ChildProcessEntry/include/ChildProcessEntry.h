/*
 * ChildProcessEntry.h — the C half of the child-process layer (Swift API: the ChildProcess module).
 *
 * An executable that links ChildProcess becomes a child of that layer, with nothing else built:
 * the parent re-executes it (/proc/self/exe, or another executable that links the layer) with three
 * variables set — ADH_CHILD_CHANNEL and ADH_CHILD_REAPER (descriptor numbers) and ADH_CHILD_ROLE
 * (what the child is for). A constructor in this target sees them before `main`, removes them from
 * the environment, and turns the process into two:
 *
 *   the reaper   the process the parent started: a child subreaper (orphans of the worker re-parent
 *                to it), plain C, no Swift runtime in use. It waits for the worker, kills every
 *                process the worker left behind, and writes one report on its own channel (the
 *                reaper channel), which the worker closes before running anything: no code the
 *                worker runs can reach it. At SIGTERM (the parent's timeout) it kills the worker.
 *   the worker   a fork of the reaper that runs the role's main (weak symbols below) with the
 *                worker channel, then exits.
 *
 * The worker channel carries frames both ways: a 4-byte big-endian length, then that many bytes.
 * The parent's first frame is the run's secret (ADH_CHILD_SECRET_SIZE random bytes), read here
 * before the fork; the worker gets it in memory only. Every frame the worker sends starts with the
 * secret, so that a frame written by anything else in its process (a plugin writing to every
 * descriptor it finds) is told apart and reported. The channel is moved to a random descriptor
 * number at or above ADH_CHILD_CHANNEL_MINIMUM, close-on-exec.
 *
 * The reaper channel carries one frame, JSON: {"exit":N} or {"signal":N}, plus "leftovers" (how
 * many processes it killed) and "pids" (the first ADH_CHILD_LISTED_LEFTOVERS of them).
 */
#ifndef ADH_CHILD_PROCESS_ENTRY_H
#define ADH_CHILD_PROCESS_ENTRY_H

#include <stddef.h>
#include <sys/epoll.h>
#include <sys/types.h>

/** The worker channel's descriptor number in a freshly started child. */
#define ADH_CHILD_CHANNEL_VARIABLE "ADH_CHILD_CHANNEL"
/** The reaper channel's descriptor number in a freshly started child. */
#define ADH_CHILD_REAPER_VARIABLE "ADH_CHILD_REAPER"
/** The child's role: which main the worker runs ("conformance", "child-process-test", "plugin-scan"). */
#define ADH_CHILD_ROLE_VARIABLE "ADH_CHILD_ROLE"

/** The process id of the parent that started the child (the reaper checks it after setting its
 *  parent-death signal: a parent already gone never sends it). */
#define ADH_CHILD_PARENT_VARIABLE "ADH_CHILD_PARENT"

/** The size of the run's secret, in bytes. */
#define ADH_CHILD_SECRET_SIZE 16

/** The lowest descriptor number the worker channel is moved to (the exact number is random). */
#define ADH_CHILD_CHANNEL_MINIMUM 64

/** How many leftover process ids the reaper's report lists (it counts them all). */
#define ADH_CHILD_LISTED_LEFTOVERS 20

/** A role's main: runs in the worker with its channel and the run's secret; never returns. */
typedef int (*adh_child_main)(int channel, const unsigned char *secret, size_t secret_length);

/** 1 when `pid`, a child of the calling process, has ended; 0 while it runs; -1 on error. The child
 *  is not reaped (waitid WNOWAIT), so its process id and group id stay reserved until waitpid. */
int adh_child_has_ended(pid_t pid);

/** pipe2(fds, O_CLOEXEC): a pipe no process spawned meanwhile by another thread can inherit. */
int adh_child_pipe(int fds[2]);

/** socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC): a channel's two ends. */
int adh_child_socketpair(int fds[2]);

/* A parent's reader thread waits on an epoll set (epoll_event is packed: Swift uses these instead).
 * Each descriptor is registered with a tag, the reader learns which are ready by their tags. */

/** Adds `fd` to `poller` for readability, tagged `tag`; one-shot (armed) when `oneshot` is 1. */
static inline int adh_poller_add(int poller, int fd, unsigned tag, int oneshot) {
    struct epoll_event event = {.events = EPOLLIN | (oneshot ? EPOLLONESHOT : 0u), .data = {.u32 = tag}};
    return epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
}

/** Arms (`armed` 1) or disarms a one-shot `fd` of `poller`: a disarmed one wakes nobody. */
static inline int adh_poller_arm(int poller, int fd, unsigned tag, int armed) {
    struct epoll_event event = {.events = (armed ? EPOLLIN : 0u) | EPOLLONESHOT, .data = {.u32 = tag}};
    return epoll_ctl(poller, EPOLL_CTL_MOD, fd, &event);
}

/** Removes `fd` from `poller`. */
static inline int adh_poller_remove(int poller, int fd) {
    return epoll_ctl(poller, EPOLL_CTL_DEL, fd, NULL);
}

/** Waits at most `timeout` ms (-1: for ever) for `poller`; writes the tags of at most 8 ready
 *  descriptors to `tags` (room for `capacity`), returns how many, or -1 (errno). */
static inline int adh_poller_wait(int poller, unsigned *tags, int capacity, int timeout) {
    struct epoll_event events[8];
    int count = epoll_wait(poller, events, capacity < 8 ? capacity : 8, timeout);
    for (int index = 0; index < count; index++) tags[index] = events[index].data.u32;
    return count;
}

#endif
