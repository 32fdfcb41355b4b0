/* dladdr1 and RTLD_DL_SYMENT are GNU extensions. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>

#include "HostDynamicLinker.h"

int adh_host_symbol_type(const void *address) {
    Dl_info info;
    const ElfW(Sym) *symbol = NULL;
    if (dladdr1(address, &info, (void **)&symbol, RTLD_DL_SYMENT) == 0 || symbol == NULL) return -1;
    return ELF64_ST_TYPE(symbol->st_info);
}

const char *adh_host_library_path(void *handle) {
    struct link_map *map = NULL;
    if (handle == NULL || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == NULL) return NULL;
    return map->l_name;
}
