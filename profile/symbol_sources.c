/* SPDX-License-Identifier: Apache-2.0 */
/*
 * symbol_sources: the files perf reads an object's symbols from (see the
 * header).
 */
#include "symbol_sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void symbol_build_id_read(struct elf_file *ef, struct symbol_build_id *id)
{
    static const char *const names[] = {".note.gnu.build-id", ".notes", ".note"};
    id->len = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct elf_section *sec = elf_file_section(ef, names[i]);
        if (!sec)
            continue;
        char err[ELF_FILE_ERRLEN];
        uint64_t n;
        const uint8_t *bytes = elf_file_section_bytes(ef, sec, &n, err, sizeof err);
        struct dwu_identity found;
        if (bytes && dwu_identity_from_notes(bytes, (size_t)n, &found) == 0) {
            memcpy(id->bytes, found.bytes, found.len);
            id->len = found.len;
        }
        return;
    }
}

int symbol_build_id_same(const struct symbol_build_id *a, const struct symbol_build_id *b)
{
    const struct symbol_build_id *shorter = a->len <= b->len ? a : b, *longer = a->len <= b->len ? b : a;
    if (memcmp(shorter->bytes, longer->bytes, shorter->len) != 0)
        return 0;
    for (size_t i = shorter->len; i < longer->len; i++)
        if (longer->bytes[i])
            return 0;
    return 1;
}

int symbol_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

struct elf_section *symbol_section_by_index(struct elf_file *ef, size_t index)
{
    if (index == 0 || index > ef->nsections || ef->sections[index - 1].index != index)
        return NULL;
    return &ef->sections[index - 1];
}

/* The section named NAME of type TYPE, as perf's symsrc__init finds .symtab and .dynsym. */
static struct elf_section *table_section(struct elf_file *ef, const char *name, uint32_t type)
{
    struct elf_section *sec = elf_file_section(ef, name);
    return sec && sec->type == type ? sec : NULL;
}


void symbol_source_close(struct symbol_source *s)
{
    if (s->open)
        elf_file_close(&s->ef);
    s->open = 0;
}

int symbol_source_open(struct symbol_source *s, const char *path, const struct symbol_build_id *id)
{
    char err[ELF_FILE_ERRLEN];
    memset(s, 0, sizeof *s);
    if (strlen(path) >= sizeof s->path || elf_file_open(&s->ef, path, err, sizeof err) != 0)
        return -1;
    s->open = 1;
    strcpy(s->path, path);
    if (id->len) {
        struct symbol_build_id mine;
        symbol_build_id_read(&s->ef, &mine);
        if (!mine.len || !symbol_build_id_same(id, &mine)) {
            symbol_source_close(s);
            return -1;
        }
    }
    return 0;
}

void symbol_source_load(struct symbol_source *s)
{
    char err[ELF_FILE_ERRLEN];
    s->symtab = table_section(&s->ef, ".symtab", SHT_SYMTAB);
    s->dynsym = table_section(&s->ef, ".dynsym", SHT_DYNSYM);
    if ((s->symtab || s->dynsym) && elf_file_load_symbols(&s->ef, err, sizeof err) != 0) {
        s->symtab = s->dynsym = NULL;   /* unreadable tables: no symbols from them */
        return;
    }
    /* elf_file_load_symbols appends each table whole, in section order. */
    for (size_t i = 0; i < s->ef.nsymbols; i++) {
        const struct elf_symbol *sym = &s->ef.symbols[i];
        if (sym->dynamic) {
            if (!s->ndynamic++)
                s->dynamic_syms = sym;
        } else if (!s->nstatic++) {
            s->static_syms = sym;
        }
    }
}

static void hex(char *out, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", bytes[i]);
    out[2 * n] = '\0';
}

/* The candidate files, in perf's order (see the header). */
size_t symbol_sources_candidates(const char *path, struct elf_file *object, const struct symbol_build_id *id,
                         char (*paths)[4096], size_t max)
{
    size_t n = 0;
    struct elf_section *link = object ? elf_file_section(object, ".gnu_debuglink") : NULL;
    char err[ELF_FILE_ERRLEN];
    uint64_t size;
    const uint8_t *bytes = link ? elf_file_section_bytes(object, link, &size, err, sizeof err) : NULL;
    size_t len = bytes ? strnlen((const char *)bytes, size) : 0;
    if (len > 0 && len < 4000) {
        const char *slash = strrchr(path, '/');
        int dirlen = slash ? (int)(slash - path) : 0;
        static const char *const places[] = {"%.*s/%.*s", "%.*s/.debug/%.*s", DEBUG_ROOT "%.*s/%.*s"};
        snprintf(paths[n], sizeof paths[n], "%.*s", (int)len, (const char *)bytes);
        for (size_t i = 0; !symbol_regular_file(paths[n]) && i < sizeof places / sizeof places[0]; i++)
            snprintf(paths[n], sizeof paths[n], places[i], dirlen, path, (int)len, (const char *)bytes);
        if (symbol_regular_file(paths[n]))
            n++;
    }
    char idhex[2 * DWU_IDENTITY_MAX + 1];
    size_t idlen = id->len;
    hex(idhex, id->bytes, idlen);
    if (idlen >= 2) {
        const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
        char cache[4096];
        if (dir && *dir)
            snprintf(cache, sizeof cache, "%s", dir);
        else
            snprintf(cache, sizeof cache, "%s/.debug", home ? home : "");
        static const char *const kinds[] = {"elf", "debug"};
        for (size_t i = 0; i < 2 && n < max; i++)
            if (snprintf(paths[n], sizeof paths[n], "%s/.build-id/%.2s/%s/%s", cache, idhex, idhex + 2, kinds[i]) <
                (int)sizeof paths[n])
                n++;
    }
    if (path[0] == '/' && n < max && snprintf(paths[n], sizeof paths[n], DEBUG_ROOT "%s.debug", path) < 4096)
        n++;
    if (path[0] == '/' && n < max && snprintf(paths[n], sizeof paths[n], DEBUG_ROOT "%s", path) < 4096)
        n++;
    if (idlen >= 2 && n < max &&
        snprintf(paths[n], sizeof paths[n], DEBUG_ROOT "/.build-id/%.2s/%s.debug", idhex, idhex + 2) < 4096)
        n++;
    if (n < max && snprintf(paths[n], sizeof paths[n], "%s", path) < 4096)
        n++;
    return n;
}
