/*
 * HostDynamicLinker — the one question the host asks the dynamic linker that Swift's Glibc module
 * does not expose (dladdr1 needs _GNU_SOURCE). Internal to SubscriberHost; plugins never see it.
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

#ifdef __cplusplus
}
#endif

#endif /* ADH_HOST_DYNAMIC_LINKER_H */
