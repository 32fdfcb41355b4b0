/*
 * BadExtensionVTable — a deliberately broken plugin: its subscriber's `get_extension` hands out a
 * scene vtable (`adh.scene/1`) at an address the host must not read as one. Everything else about it
 * is valid (it responds to didBecomeActive).
 *
 * Options: {"vtable": "<how>"}, read at create:
 *
 *   misaligned  (the default) one byte past a real vtable: not aligned for its pointers
 *   unreadable  an aligned address in a page mapped without access (PROT_NONE)
 *   truncated   an aligned vtable whose struct_size lies in a readable page and whose covered fields
 *               run on into a page without access
 *   everyID     a real, aligned scene vtable, handed out for every id (an author's `return &vtable;`
 *               without comparing the id): the host would call it as a notification center's
 *   itself      the subscriber struct itself handed out as the scene vtable (`return self;`)
 *
 * The host must refuse the subscriber with one line naming the plugin, the subscriber, the extension
 * id, what it expected and what it found, never trap reading it.
 */
#define _POSIX_C_SOURCE 200809L /* mmap's MAP_ANONYMOUS is not C99 */
#define _DEFAULT_SOURCE

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "adh_fixture.h"

/* A real, zeroed scene vtable with its struct_size set, 8-aligned, with room for the misaligned copy. */
static union {
    adh_scene_delegate vtable;
    unsigned char bytes[sizeof(adh_scene_delegate) + 16];
} storage;

/* What get_extension hands out for adh.scene/1, chosen at create. */
static const void *scene_vtable;
/* Whether it hands the same vtable out for every id ("everyID"). */
static int every_id;

static const void *get_extension(const adh_subscriber *self, const char *id) {
    (void)self;
    if (every_id) return scene_vtable;
    if (id != NULL && strcmp(id, ADH_EXT_SCENE) == 0) return scene_vtable;
    return NULL;
}

/* Two pages: the first readable, the second without access. NULL when mmap fails. */
static unsigned char *two_pages(long page) {
    void *pages = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) return NULL;
    if (mprotect((unsigned char *)pages + page, (size_t)page, PROT_NONE) != 0) return NULL;
    return pages;
}

static void choose_vtable(const adh_host *host) {
    adh_string options = adh_fixture_options(host);
    long page = sysconf(_SC_PAGESIZE);
    storage.vtable.struct_size = sizeof(adh_scene_delegate);
    every_id = 0; /* per create: one image serves every test of a process */
    /* The defect, misaligned: one byte past the real vtable (its bytes there read as garbage). */
    scene_vtable = storage.bytes + 1;
    if (adh_fixture_find_end(options, "\"unreadable\"") != 0) {
        unsigned char *pages = two_pages(page);
        if (pages != NULL) scene_vtable = pages + page; /* aligned, no access */
    } else if (adh_fixture_find_end(options, "\"everyID\"") != 0) {
        scene_vtable = &storage.vtable;
        every_id = 1;
    } else if (adh_fixture_find_end(options, "\"truncated\"") != 0) {
        unsigned char *pages = two_pages(page);
        if (pages != NULL) {
            /* struct_size in the last 8 bytes of the readable page; the fields it covers beyond. */
            uint32_t size = sizeof(adh_scene_delegate);
            unsigned char *at = pages + page - 8;
            memcpy(at, &size, sizeof size);
            scene_vtable = at;
        }
    }
}

static const adh_subscriber *create(const char *name, const adh_host *host) {
    adh_subscriber *subscriber = adh_fixture_create(name, "BadExtensionVTable", host);
    if (subscriber == NULL) return NULL;
    choose_vtable(host);
    if (adh_fixture_find_end(adh_fixture_options(host), "\"itself\"") != 0) scene_vtable = subscriber;
    subscriber->did_become_active = adh_fixture_harmless_event;
    subscriber->get_extension = get_extension;
    return subscriber;
}

ADH_FIXTURE_DESCRIPTOR(descriptor, "dev.appdelegatehost.broken.bad-extension-vtable", "BadExtensionVTable", create);
ADH_FIXTURE_ENTRY(descriptor)
