/*
 * RedirectsStdout — a plugin that points the process's standard output and error at /dev/null
 * in `create` (dup2 onto descriptors 1 and 2), as a library that "silences" a noisy dependency
 * might: the host's report must not go with them.
 *
 * `didBecomeActive` logs a line and writes "RedirectsStdout: written to descriptor 1" on
 * descriptor 1 (now /dev/null). Everything else about it is valid.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */

#include <fcntl.h>
#include <unistd.h>

#include "adh_fixture.h"

static void did_become_active(const adh_subscriber *self) {
    const adh_host *host = adh_fixture_host(self);
    static const char line[] = "still heard after redirecting descriptors 1 and 2";
    host->log(host, ADH_LOG_INFO, (adh_string){ line, sizeof line - 1 });
    static const char text[] = "RedirectsStdout: written to descriptor 1\n";
    ssize_t ignored = write(1, text, sizeof text - 1);
    (void)ignored;
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "RedirectsStdout", host);
    if (subscriber == NULL) return NULL;
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
        close(null);
    }
    subscriber->did_become_active = did_become_active;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.redirects-stdout", "RedirectsStdout", create);
ADH_FIXTURE_ENTRY(descriptor)
