/*
 * ClosesStdioCopies — a constructor that closes every descriptor from 3 up that is the same file as
 * standard output or error, as a library that "closes the duplicates of the terminal it inherited"
 * might, while the library is being loaded. In apphost those are its own copies of standard output
 * and error, through which it writes the report: it must make them again, and nothing it opens
 * while loading may take their numbers. Unlike ClosesDescriptors it leaves every other descriptor
 * (libdispatch's among them) alone, so the host's run is not cut short by something else.
 * Its one subscriber answers didBecomeActive and is otherwise fine.
 */
#define _POSIX_C_SOURCE 200809L

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adh_fixture.h"

__attribute__((constructor)) static void close_copies_of_standard_output(void) {
    struct stat out, err, info;
    int have_out = fstat(1, &out) == 0, have_err = fstat(2, &err) == 0;
    struct rlimit limit;
    int top = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 65536 ? (int)limit.rlim_cur : 65536;
    for (int fd = 3; fd < top; fd++) {
        if (fstat(fd, &info) != 0) continue;
        if ((have_out && info.st_dev == out.st_dev && info.st_ino == out.st_ino)
            || (have_err && info.st_dev == err.st_dev && info.st_ino == err.st_ino)) close(fd);
    }
}

static void did_become_active(const adh_subscriber *self) {
    (void)self;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "ClosesStdioCopies", host);
    if (subscriber != NULL) subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.closes-stdio-copies", "ClosesStdioCopies", create);
ADH_FIXTURE_ENTRY(descriptor)
