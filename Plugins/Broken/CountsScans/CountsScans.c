/*
 * CountsScans — a valid plugin whose entry symbol appends one line to the file named by the
 * environment variable ADH_SCAN_MARKER, when set: each line is one process that ran its code.
 * It proves that `apphost list` starts no child for a file the scan cache already knows
 * (CLIScanCacheTests).
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "adh_fixture.h"

static const adh_subscriber *create(const char *name, const adh_host *host) {
    return adh_fixture_create(name, "CountsScans", host);
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.fixture.counts-scans", "CountsScans", create);

ADH_FIXTURE_EXPORT const adh_plugin_descriptor *adh_plugin_entry(void) {
    const char *marker = getenv("ADH_SCAN_MARKER");
    if (marker != NULL) {
        int fd = open(marker, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd >= 0) {
            ssize_t written = write(fd, "inspected\n", 10);
            (void)written;
            close(fd);
        }
    }
    return &descriptor;
}
