/* SPDX-License-Identifier: Apache-2.0 */
/*
 * debug_info: symbols and line rows of an object or of its debug file (see
 * the header).
 */
#include "debug_info.h"

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/sorted_search.h"
#include "sys/error.h"
#include "object/identity.h"

struct debug_line_row {
    uint64_t addr;
    uint32_t line;           /* 0: the end of a sequence */
    uint32_t file;           /* index in files */
};

#define DEBUG_ROOT "/usr/lib/debug"

static int same_identity(struct elf_file *a, struct elf_file *b)
{
    struct dwu_identity x, y;
    char err[ELF_FILE_ERRLEN];
    int hx = identity_of_file(a, &x, err, sizeof err) == 0 && x.kind == DWU_IDENTITY_BUILD_ID;
    int hy = identity_of_file(b, &y, err, sizeof err) == 0 && y.kind == DWU_IDENTITY_BUILD_ID;
    if (hx != hy)
        return 0;
    return !hx || (x.len == y.len && memcmp(x.bytes, y.bytes, x.len) == 0);
}

/* Open PATH as DI's debug file when it is OBJECT's. */
static int try_debug_file(struct debug_info *di, const char *path)
{
    char err[ELF_FILE_ERRLEN];
    if (strlen(path) >= sizeof di->debug_path || elf_file_open(&di->debug, path, err, sizeof err) != 0)
        return 0;
    if (!same_identity(di->object, &di->debug)) {
        elf_file_close(&di->debug);
        return 0;
    }
    strcpy(di->debug_path, path);
    di->have_debug = 1;
    return 1;
}

static void find_debug_file(struct debug_info *di)
{
    struct dwu_identity id;
    char err[ELF_FILE_ERRLEN], path[4096];
    if (identity_of_file(di->object, &id, err, sizeof err) == 0 && id.kind == DWU_IDENTITY_BUILD_ID &&
        id.len >= 2) {
        int n = snprintf(path, sizeof path, DEBUG_ROOT "/.build-id/%02x/", id.bytes[0]);
        for (unsigned i = 1; i < id.len && n > 0 && (size_t)n < sizeof path - 8; i++)
            n += snprintf(path + n, sizeof path - (size_t)n, "%02x", id.bytes[i]);
        snprintf(path + n, sizeof path - (size_t)n, ".debug");
        if (try_debug_file(di, path))
            return;
    }
    struct elf_section *link = elf_file_section(di->object, ".gnu_debuglink");
    uint64_t size;
    const uint8_t *bytes = link ? elf_file_section_bytes(di->object, link, &size, err, sizeof err) : NULL;
    if (!bytes || size < 5 || !memchr(bytes, 0, size - 4) || strchr((const char *)bytes, '/'))
        return;
    const char *name = (const char *)bytes, *slash = strrchr(di->object->path, '/');
    int dir = slash ? (int)(slash - di->object->path) : 1;
    const char *dirname = slash ? di->object->path : ".";
    static const char *const places[] = {"%.*s/%s", "%.*s/.debug/%s", DEBUG_ROOT "%.*s/%s"};
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        snprintf(path, sizeof path, places[i], dir, dirname, name);
        if (strcmp(path, di->object->path) != 0 && try_debug_file(di, path))
            return;
    }
}

static int by_value(const void *a, const void *b)
{
    const struct elf_symbol *x = *(const struct elf_symbol *const *)a, *y = *(const struct elf_symbol *const *)b;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* The function symbols of EF with a size, appended to DI's list. */
static int add_functions(struct debug_info *di, struct elf_file *ef)
{
    char err[ELF_FILE_ERRLEN];
    if (elf_file_load_symbols(ef, err, sizeof err) != 0)
        return 0;   /* unreadable symbols: no names from them */
    const struct elf_symbol **more = realloc(di->functions, (di->nfunctions + ef->nsymbols + 1) * sizeof *more);
    if (!more)
        return -1;
    di->functions = more;
    for (size_t i = 0; i < ef->nsymbols; i++) {
        const struct elf_symbol *s = &ef->symbols[i];
        if (s->type == STT_FUNC && s->size > 0 && s->name && s->name[0])
            di->functions[di->nfunctions++] = s;
    }
    return 0;
}

int debug_info_open(struct debug_info *di, struct elf_file *object)
{
    memset(di, 0, sizeof *di);
    di->object = object;
    find_debug_file(di);
    if ((di->have_debug && add_functions(di, &di->debug) != 0) || add_functions(di, object) != 0) {
        debug_info_close(di);
        return -1;
    }
    /* Stable: for one address, the debug file's name (listed first) wins. */
    if (di->nfunctions)
        qsort(di->functions, di->nfunctions, sizeof *di->functions, by_value);
    return 0;
}

static void units_close(struct debug_info *di);

void debug_info_close(struct debug_info *di)
{
    units_close(di);
    if (di->have_debug)
        elf_file_close(&di->debug);
    for (size_t i = 0; i < di->nfiles; i++)
        free(di->files[i]);
    free(di->files);
    free(di->file_slots);
    free(di->rows);
    free(di->functions);
    memset(di, 0, sizeof *di);
}

static uint64_t function_value_key(const void *functions, size_t i)
{
    return ((const struct elf_symbol *const *)functions)[i]->value;
}

static uint64_t row_addr_key(const void *rows, size_t i)
{
    return ((const struct debug_line_row *)rows)[i].addr;
}

const char *debug_info_function(const struct debug_info *di, uint64_t addr, uint64_t *start)
{
    /* the last symbol starting at or before addr */
    size_t lo = sorted_count_at_most(di->functions, di->nfunctions, function_value_key, addr);
    for (size_t i = lo; i-- > 0 && lo - i <= 16;) {
        const struct elf_symbol *s = di->functions[i];
        if (addr - s->value < s->size) {
            *start = s->value;
            return s->name;
        }
    }
    return NULL;
}

void debug_info_name(const struct debug_info *di, uint64_t addr, uint64_t *start, char *buf, size_t size)
{
    uint64_t at = *start ? *start : addr, symbol_start;
    const char *name = debug_info_function(di, addr, &symbol_start);
    struct elf_section *sec;
    if (name) {
        snprintf(buf, size, "%s", name);
        *start = symbol_start;
    } else if ((sec = elf_file_section_at(di->object, at))) {
        snprintf(buf, size, "%s+0x%llx", sec->name, (unsigned long long)(at - sec->addr));
        *start = at;
    } else {
        snprintf(buf, size, "0x%llx", (unsigned long long)at);
        *start = at;
    }
}

/* ---- lines ---------------------------------------------------------------- */

static size_t name_hash(const char *s)
{
    size_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

/* Put file I in the hash table (which has room). */
static void file_slot_put(struct debug_info *di, size_t i)
{
    size_t k = name_hash(di->files[i]) & (di->nfile_slots - 1);
    while (di->file_slots[k])
        k = (k + 1) & (di->nfile_slots - 1);
    di->file_slots[k] = (uint32_t)i + 1;
}

/* The index of file NAME in DI's list, added when new. */
static int file_index(struct debug_info *di, const char *name, uint32_t *index)
{
    if (di->nfile_slots) {
        for (size_t k = name_hash(name) & (di->nfile_slots - 1); di->file_slots[k]; k = (k + 1) & (di->nfile_slots - 1))
            if (strcmp(di->files[di->file_slots[k] - 1], name) == 0) {
                *index = di->file_slots[k] - 1;
                return 0;
            }
    }
    if (2 * (di->nfiles + 1) > di->nfile_slots) {   /* at most half full */
        size_t n = di->nfile_slots ? 2 * di->nfile_slots : 64;
        uint32_t *slots = calloc(n, sizeof *slots);
        if (!slots)
            return -1;
        free(di->file_slots);
        di->file_slots = slots;
        di->nfile_slots = n;
        for (size_t i = 0; i < di->nfiles; i++)
            file_slot_put(di, i);
    }
    char **more = realloc(di->files, (di->nfiles + 1) * sizeof *more);
    char *copy = strdup(name);
    if (!more || !copy) {
        free(copy);
        if (more)
            di->files = more;
        return -1;
    }
    di->files = more;
    di->files[di->nfiles] = copy;
    file_slot_put(di, di->nfiles);
    *index = (uint32_t)di->nfiles++;
    return 0;
}

static int add_row(struct debug_info *di, uint64_t addr, uint32_t line, uint32_t file)
{
    if (di->nrows == DEBUG_INFO_MAX_ROWS)
        return -1;
    if (di->nrows == di->rows_cap) {
        size_t more = di->rows_cap ? 2 * di->rows_cap : 1024;
        struct debug_line_row *rows = realloc(di->rows, more * sizeof *rows);
        if (!rows)
            return -1;
        di->rows = rows;
        di->rows_cap = more;
    }
    di->rows[di->nrows++] = (struct debug_line_row){addr, line, file};
    return 0;
}

/* The rows of one compilation unit's line table, to FN. */
static int cu_rows(Dwarf_Debug dbg, Dwarf_Die cu, debug_line_fn fn, void *arg)
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
            if (!end && dwarf_linesrc(lines[i], &name, &derr) != DW_DLV_OK)
                name = NULL;
            rc = fn(arg, addr, end || lineno > UINT32_MAX ? 0 : (uint32_t)lineno, end ? NULL : name);
            if (name)
                dwarf_dealloc(dbg, name, DW_DLA_STRING);
        }
    }
    dwarf_srclines_dealloc_b(ctx);
    return rc;
}

/* libdwarf's handle on EF into *DBG: 1; 0 when EF has no DWARF; -1 with a
 * reason in ERR. */
static int dwarf_open(struct elf_file *ef, Dwarf_Debug *dbg, char *err, size_t errlen)
{
    Dwarf_Error derr = NULL;
    *dbg = NULL;
    int rc = dwarf_elf_init_b(ef->elf, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, dbg, &derr);
    if (rc == DW_DLV_OK)
        return 1;
    if (rc != DW_DLV_NO_ENTRY)
        error_set(err, errlen, "libdwarf cannot read the line table: %s", derr ? dwarf_errmsg(derr) : "?");
    if (derr)
        dwarf_dealloc_error(NULL, derr);
    return rc == DW_DLV_NO_ENTRY ? 0 : -1;
}

int debug_line_rows(struct elf_file *ef, debug_line_fn fn, void *arg, char *err, size_t errlen)
{
    Dwarf_Debug dbg;
    Dwarf_Error derr = NULL;
    int rc = dwarf_open(ef, &dbg, err, errlen);
    if (rc <= 0)
        return rc;   /* no DWARF at all: no rows */
    rc = 0;
    while (rc == 0) {
        Dwarf_Unsigned header_length, abbrev_offset, type_offset, next_cu;
        Dwarf_Half version, address_size, length_size, extension_size, cu_type;
        Dwarf_Sig8 signature;
        if (dwarf_next_cu_header_d(dbg, 1, &header_length, &version, &abbrev_offset, &address_size,
                                   &length_size, &extension_size, &signature, &type_offset, &next_cu,
                                   &cu_type, &derr) != DW_DLV_OK)
            break;
        Dwarf_Die cu = NULL;
        if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &derr) != DW_DLV_OK)
            continue;
        rc = cu_rows(dbg, cu, fn, arg);
        dwarf_dealloc(dbg, cu, DW_DLA_DIE);
    }
    if (derr)
        dwarf_dealloc(dbg, derr, DW_DLA_ERROR);
    dwarf_finish(dbg, &derr);
    return rc;
}

static int collect_row(void *arg, uint64_t addr, uint32_t line, const char *file)
{
    struct debug_info *di = arg;
    uint32_t index = 0;
    if (file && file_index(di, file, &index) != 0)
        return -1;
    return add_row(di, addr, line, index);
}

static int by_row_addr(const void *a, const void *b)
{
    const struct debug_line_row *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    /* A sequence's end before the next sequence's first row there. */
    return (y->line == 0) - (x->line == 0);
}

static void units_close(struct debug_info *di)
{
    Dwarf_Error derr = NULL;
    if (di->dwarf)
        dwarf_finish((Dwarf_Debug)di->dwarf, &derr);   /* (and its ranges) */
    di->dwarf = di->aranges = NULL;
}

/* Every unit's rows, in place of those read one by one. */
static void read_lines(struct debug_info *di)
{
    char err[ELF_FILE_ERRLEN];
    units_close(di);
    di->lines_read = 1;
    di->nrows = 0;
    /* Out of memory or past the bound: the rows so far serve. */
    debug_line_rows(di->have_debug ? &di->debug : di->object, collect_row, di, err, sizeof err);
    if (di->nrows)
        qsort(di->rows, di->nrows, sizeof *di->rows, by_row_addr);
}

/* The rows of the unit that holds ADDR, unless read already; every unit's
 * when the ranges do not say which, or after enough units one by one. */
static void read_unit_of(struct debug_info *di, uint64_t addr)
{
    Dwarf_Error derr = NULL;
    if (!di->dwarf) {
        Dwarf_Debug dbg;
        Dwarf_Arange *aranges = NULL;
        Dwarf_Signed n = 0;
        char err[ELF_FILE_ERRLEN];
        if (dwarf_open(di->have_debug ? &di->debug : di->object, &dbg, err, sizeof err) <= 0) {
            di->lines_read = 1;   /* no DWARF, or unreadable: no lines */
            return;
        }
        di->dwarf = dbg;
        if (dwarf_get_aranges(dbg, &aranges, &n, &derr) != DW_DLV_OK) {
            read_lines(di);
            return;
        }
        di->aranges = aranges;
        di->naranges = n;
    }
    Dwarf_Debug dbg = di->dwarf;
    Dwarf_Arange range;
    Dwarf_Off unit;
    Dwarf_Die die = NULL;
    if (dwarf_get_arange(di->aranges, (Dwarf_Unsigned)di->naranges, addr, &range, &derr) != DW_DLV_OK ||
        dwarf_get_cu_die_offset(range, &unit, &derr) != DW_DLV_OK) {
        read_lines(di);   /* a unit without ranges, perhaps */
        return;
    }
    for (size_t k = 0; k < di->nunits_read; k++)
        if (di->units_read[k] == unit)
            return;
    if (di->nunits_read == DEBUG_INFO_UNITS_ONE_BY_ONE ||
        dwarf_offdie_b(dbg, unit, 1, &die, &derr) != DW_DLV_OK) {
        read_lines(di);
        return;
    }
    di->units_read[di->nunits_read++] = unit;
    cu_rows(dbg, die, collect_row, di);
    dwarf_dealloc(dbg, die, DW_DLA_DIE);
    if (di->nrows)
        qsort(di->rows, di->nrows, sizeof *di->rows, by_row_addr);
}

int debug_info_line(struct debug_info *di, uint64_t addr, char *buf, size_t size)
{
    if (!di->lines_read)
        read_unit_of(di, addr);
    /* the last row at or before addr */
    size_t lo = sorted_count_at_most(di->rows, di->nrows, row_addr_key, addr);
    if (lo == 0 || di->rows[lo - 1].line == 0 || di->rows[lo - 1].file >= di->nfiles)
        return -1;
    const char *file = di->files[di->rows[lo - 1].file];
    while (file[0] == '.' && file[1] == '/')
        file += 2;
    char line[16];
    int n = snprintf(line, sizeof line, ":%u", di->rows[lo - 1].line);
    size_t len = strlen(file), room = size > (size_t)n + 4 ? size - (size_t)n - 1 : 0;
    if (len > room && room > 3)   /* the end of the path: the file's name */
        snprintf(buf, size, "...%s%s", file + len - (room - 3), line);
    else
        snprintf(buf, size, "%s%s", file, line);
    return 0;
}
