/*
 * ConformanceChildEntry.h — how an executable becomes a conformance-kit child, with nothing else
 * built: any executable that links SubscriberConformance (apphost, the package's own tests, a plugin
 * author's `swift test`) re-executes itself (/proc/self/exe) with ADH_CONFORMANCE_CHILD set to the
 * number of a private channel descriptor. A constructor in this target sees the variable before
 * `main` and turns the process into two:
 *
 *   the reaper   the process the kit started: a child subreaper (orphans of the check re-parent to
 *                it), plain C, no Swift runtime in use. It waits for the worker, then kills every
 *                process the worker left behind, and writes one "ended" message on the channel.
 *   the worker   a fork of the reaper that runs the check (Swift, `adh_conformance_child_main`) and
 *                writes its messages (hello, progress, verdict) on the channel, then exits.
 *
 * Messages on the channel are frames: a 4-byte big-endian length, then that many bytes of JSON.
 * The reaper's frame: {"kind":"ended","exit":N} or {"kind":"ended","signal":N}, plus
 * "leftovers": the number of processes it killed, and "pids": the first of them.
 */
#ifndef ADH_CONFORMANCE_CHILD_ENTRY_H
#define ADH_CONFORMANCE_CHILD_ENTRY_H

#include <sys/types.h>

/** The environment variable that marks a conformance child; its value is the channel's descriptor. */
#define ADH_CONFORMANCE_CHILD_VARIABLE "ADH_CONFORMANCE_CHILD"

/** How many leftover process ids the reaper's "ended" frame lists (it counts them all). */
#define ADH_CONFORMANCE_LISTED_LEFTOVERS 20

/** 1 when `pid`, a child of the calling process, has ended; 0 while it runs; -1 on error. The child
 *  is not reaped (waitid WNOWAIT), so its process id and group id stay reserved until waitpid. */
int adh_child_has_ended(pid_t pid);

/** pipe2(fds, O_CLOEXEC): a pipe no process spawned meanwhile by another thread can inherit. */
int adh_child_pipe(int fds[2]);

/** socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC): the private channel's two ends. */
int adh_child_socketpair(int fds[2]);

#endif
