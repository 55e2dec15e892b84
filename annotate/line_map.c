/*
 * line_map: .debug_line rows of one source file, with libdwarf.
 */
#include "line_map.h"

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "object/error.h"

static int by_addr(const void *a, const void *b)
{
    const struct line_row *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* The assembled source, and the last file name of the line table compared
 * with it (rows name the same few files over and over). */
struct source_match {
    const char *source, *resolved;   /* RESOLVED: its real path, or NULL */
    char last[PATH_MAX];
    int last_is_source;
};

/* Whether the line table's file name NAME is the source. */
static int same_file(struct source_match *sm, const char *name)
{
    if (strcmp(name, sm->source) == 0)
        return 1;
    if (strcmp(name, sm->last) == 0)
        return sm->last_is_source;
    char real[PATH_MAX];
    int same = sm->resolved && realpath(name, real) && strcmp(real, sm->resolved) == 0;
    if (strlen(name) < sizeof sm->last) {
        strcpy(sm->last, name);
        sm->last_is_source = same;
    }
    return same;
}

static int add_row(struct line_map *m, size_t *cap, uint64_t addr, uint32_t line)
{
    if (m->nrows == *cap) {
        size_t more = *cap ? 2 * *cap : 256;
        struct line_row *rows = realloc(m->rows, more * sizeof *rows);
        if (!rows)
            return -1;
        m->rows = rows;
        *cap = more;
    }
    m->rows[m->nrows] = (struct line_row){addr, line, (uint32_t)m->nrows};
    m->nrows++;
    return 0;
}

/* The rows of one compilation unit's line table. */
static int read_cu_lines(Dwarf_Debug dbg, Dwarf_Die cu, struct line_map *m, size_t *cap,
                         struct source_match *sm)
{
    Dwarf_Unsigned version;
    Dwarf_Small tables;
    Dwarf_Line_Context ctx;
    Dwarf_Error derr = NULL;
    if (dwarf_srclines_b(cu, &version, &tables, &ctx, &derr) != DW_DLV_OK) {
        if (derr)
            dwarf_dealloc(dbg, derr, DW_DLA_ERROR);
        return 0;   /* a unit without lines */
    }
    Dwarf_Line *lines;
    Dwarf_Signed count;
    int rc = 0;
    if (dwarf_srclines_from_linecontext(ctx, &lines, &count, &derr) == DW_DLV_OK) {
        for (Dwarf_Signed i = 0; i < count && rc == 0; i++) {
            Dwarf_Addr addr;
            Dwarf_Unsigned lineno;
            Dwarf_Bool end;
            char *name = NULL;
            if (dwarf_lineaddr(lines[i], &addr, &derr) != DW_DLV_OK ||
                dwarf_lineno(lines[i], &lineno, &derr) != DW_DLV_OK ||
                dwarf_lineendsequence(lines[i], &end, &derr) != DW_DLV_OK)
                continue;
            int ours = 0;
            if (!end && dwarf_linesrc(lines[i], &name, &derr) == DW_DLV_OK) {
                ours = same_file(sm, name);
                dwarf_dealloc(dbg, name, DW_DLA_STRING);
            }
            rc = add_row(m, cap, addr, ours && lineno <= UINT32_MAX ? (uint32_t)lineno : 0);
        }
    }
    dwarf_srclines_dealloc_b(ctx);
    return rc;
}

int line_map_read(struct line_map *m, struct elf_file *ef, const char *source, char *err,
                  size_t errlen)
{
    memset(m, 0, sizeof *m);
    Dwarf_Debug dbg = NULL;
    Dwarf_Error derr = NULL;
    int rc = dwarf_elf_init_b(ef->elf, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, &derr);
    if (rc == DW_DLV_NO_ENTRY)
        return 0;   /* no DWARF at all */
    if (rc != DW_DLV_OK) {
        error_set(err, errlen, "libdwarf cannot read the line table: %s", dwarf_errmsg(derr));
        return -1;
    }
    char real[PATH_MAX];
    struct source_match sm = {.source = source, .resolved = NULL};
    sm.resolved = realpath(source, real);
    size_t cap = 0;
    int failed = 0;
    for (;;) {
        Dwarf_Unsigned header_length, abbrev_offset, type_offset, next_cu;
        Dwarf_Half version, address_size, length_size, extension_size, cu_type;
        Dwarf_Sig8 signature;
        rc = dwarf_next_cu_header_d(dbg, 1, &header_length, &version, &abbrev_offset, &address_size,
                                    &length_size, &extension_size, &signature, &type_offset,
                                    &next_cu, &cu_type, &derr);
        if (rc != DW_DLV_OK)
            break;
        Dwarf_Die cu = NULL;
        if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &derr) != DW_DLV_OK)
            continue;
        failed = read_cu_lines(dbg, cu, m, &cap, &sm) != 0;
        dwarf_dealloc(dbg, cu, DW_DLA_DIE);
        if (failed)
            break;
    }
    if (derr)
        dwarf_dealloc(dbg, derr, DW_DLA_ERROR);
    dwarf_finish(dbg, &derr);
    if (failed) {
        line_map_release(m);
        return error_set(err, errlen, "out of memory");
    }
    if (m->nrows)
        qsort(m->rows, m->nrows, sizeof *m->rows, by_addr);
    return 0;
}

void line_map_release(struct line_map *m)
{
    free(m->rows);
    memset(m, 0, sizeof *m);
}

uint32_t line_map_line_at(const struct line_map *m, uint64_t addr)
{
    size_t lo = 0, hi = m->nrows;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->rows[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Rows at the same address: the last one is the line the bytes belong to. */
    return lo > 0 ? m->rows[lo - 1].line : 0;
}
