/*
 * HostDynamicLinker — the questions the host asks the dynamic linker that Swift's Glibc module
 * does not expose (dladdr1 and dlinfo need _GNU_SOURCE). Internal to SubscriberHost; plugins never see it.
 */
#ifndef ADH_HOST_DYNAMIC_LINKER_H
#define ADH_HOST_DYNAMIC_LINKER_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The ELF symbol type (STT_FUNC, STT_OBJECT, …: ELF64_ST_TYPE of the symbol's st_info) of the
 * exported symbol at `address` (as returned by dlsym), or -1 when the dynamic linker knows no
 * symbol there. Reads the loaded object's symbol table only: nothing at `address` is touched.
 * [any-thread]
 */
int adh_host_symbol_type(const void *address);

/**
 * The path the dynamic linker loaded the object of `handle` (a dlopen handle) from, NULL if it cannot
 * tell. Owned by the dynamic linker, valid while the object stays loaded. [any-thread]
 */
const char *adh_host_library_path(void *handle);

#ifdef __cplusplus
}
#endif

#endif /* ADH_HOST_DYNAMIC_LINKER_H */
