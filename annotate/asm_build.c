/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asm_build: compiler runs in a temporary directory.
 */
#include "asm_build.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/command.h"
#include "object/elf_file.h"
#include "sys/error.h"
#include "sys/signals.h"

/* How long a kept diagnostic may be in ERR. */
#define DIAGNOSTIC_TAIL 2000

int asm_build_needs_cpp(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && (strcmp(dot, ".S") == 0 || strcmp(dot, ".sx") == 0);
}

int asm_build_init(struct asm_build *b, const char *source, char *const *flags, size_t nflags,
                   char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->flags = flags;
    b->nflags = nflags;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    char *copy = strdup(source);
    size_t dirlen = strlen(tmp) + 32;
    b->dir = malloc(dirlen);
    if (!copy || !b->dir || !(b->cc = command_cc(&b->ncc))) {
        free(copy);
        asm_build_release(b);
        return error_set(err, errlen, "out of memory");
    }
    b->source_dir = strdup(dirname(copy));
    free(copy);
    snprintf(b->dir, dirlen, "%s/dwsynth-annotate-XXXXXX", tmp);
    /* Made and registered with the signals blocked: an interruption between
     * the two would leave the directory. */
    sigset_t saved;
    signals_block(NULL, &saved);
    int e = 0;
    if (!b->source_dir)
        e = ENOMEM;
    else if (!mkdtemp(b->dir))
        e = errno;
    else if (signals_register(b->dir, 1) != 0) {
        e = ENOMEM;
        rmdir(b->dir);
    }
    signals_restore(&saved);
    if (e) {
        free(b->dir);
        b->dir = NULL;
        asm_build_release(b);
        return error_set(err, errlen, "cannot make a temporary directory in %s: %s", tmp, strerror(e));
    }
    return 0;
}

void asm_build_release(struct asm_build *b)
{
    for (size_t i = 0; i < b->nmade; i++) {
        unlink(b->made[i]);
        signals_unregister(b->made[i]);
        free(b->made[i]);
    }
    if (b->dir) {
        rmdir(b->dir);
        signals_unregister(b->dir);
    }
    command_words_free(b->cc);
    free(b->made);
    free(b->dir);
    free(b->source_dir);
    memset(b, 0, sizeof *b);
}

const char *asm_build_file(struct asm_build *b, const char *name)
{
    size_t dirlen = strlen(b->dir);
    for (size_t i = 0; i < b->nmade; i++)
        if (strcmp(b->made[i] + dirlen + 1, name) == 0)
            return b->made[i];
    char **more = realloc(b->made, (b->nmade + 1) * sizeof *more);
    if (!more)
        return NULL;
    b->made = more;
    size_t len = strlen(b->dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path)
        return NULL;
    snprintf(path, len, "%s/%s", b->dir, name);
    if (signals_register(path, 0) != 0) {
        free(path);
        return NULL;
    }
    b->made[b->nmade++] = path;
    return path;
}

/* The last DIAGNOSTIC_TAIL bytes of the file LOG, into ERR after PREFIX. */
static void read_log(const char *log, const char *prefix, char *err, size_t errlen)
{
    char text[DIAGNOSTIC_TAIL + 1] = "";
    FILE *f = fopen(log, "r");
    if (f) {
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        if (size > DIAGNOSTIC_TAIL)
            fseek(f, size - DIAGNOSTIC_TAIL, SEEK_SET);
        else
            rewind(f);
        size_t n = fread(text, 1, DIAGNOSTIC_TAIL, f);
        text[n] = '\0';
        fclose(f);
    }
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == '\n')
        text[--n] = '\0';
    error_set(err, errlen, "%s%s%s", prefix, n ? ":\n" : "", text);
}

/* Run ARGV, the step of WHO (`the assembler`); its stderr goes to LOG (or
 * stays ours when LOG is NULL).  Returns the build status; the reason in ERR
 * (WHAT when the compiler reports errors). */
static enum build_status run(char *const *argv, const char *log, const char *who, const char *what,
                             char *err, size_t errlen)
{
    struct command_result res;
    if (command_run(argv, 1, log, &res) == 0)
        return BUILD_OK;
    if (res.end == COMMAND_NOT_RUN) {
        error_set(err, errlen, "cannot run %s", argv[0]);
        return BUILD_FAILED;
    }
    if (res.end != COMMAND_EXITED) {
        char why[256];
        error_set(err, errlen, "%s", command_failure(&res, who, why, sizeof why));
        return BUILD_STOPPED;
    }
    if (log)
        read_log(log, what, err, errlen);
    else
        error_set(err, errlen, "%s", what);
    return BUILD_REJECTED;
}

/* argv: $CC, EXTRA..., the user's flags, a copy's include flags, then TAIL...
 * *OWNED receives the one string allocated here (free it with argv). */
static char **command(struct asm_build *b, unsigned how, const char *const *extra,
                      const char *const *tail, char **owned)
{
    size_t n = b->ncc + b->nflags + 8;
    for (const char *const *p = extra; *p; p++)
        n++;
    for (const char *const *p = tail; *p; p++)
        n++;
    char **argv = calloc(n, sizeof *argv);
    static char iquote[] = "-iquote";
    *owned = NULL;
    if (!argv)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < b->ncc; i++)
        argv[k++] = b->cc[i];
    for (const char *const *p = extra; *p; p++)
        argv[k++] = (char *)*p;
    for (size_t i = 0; i < b->nflags; i++)
        argv[k++] = b->flags[i];
    if (how & BUILD_COPY) {
        size_t len = strlen(b->source_dir) + 8;
        if (!(*owned = malloc(len))) {
            free(argv);
            return NULL;
        }
        snprintf(*owned, len, "-Wa,-I%s", b->source_dir);
        argv[k++] = iquote;
        argv[k++] = b->source_dir;
        argv[k++] = *owned;
    }
    for (const char *const *p = tail; *p; p++)
        argv[k++] = (char *)*p;
    argv[k] = NULL;
    return argv;
}

static enum build_status compile(struct asm_build *b, const char *const *extra, const char *src,
                                 const char *out, unsigned how, const char *who, const char *what,
                                 char *err, size_t errlen)
{
    const char *tail[] = {"-o", out, src, NULL};
    char *owned;
    char **argv = command(b, how, extra, tail, &owned);
    const char *log = how & BUILD_QUIET ? asm_build_file(b, "compiler.log") : NULL;
    enum build_status st = BUILD_FAILED;
    if (!argv || ((how & BUILD_QUIET) && !log))
        error_set(err, errlen, "out of memory");
    else
        st = run(argv, log, who, what, err, errlen);
    free(owned);
    free(argv);
    return st;
}

enum build_status asm_build_assemble(struct asm_build *b, const char *src, const char *obj,
                                     unsigned how, char *err, size_t errlen)
{
    const char *extra[] = {"-g", "-c", NULL};
    return compile(b, extra, src, obj, how, "the assembler", "the assembler rejects the source", err,
                   errlen);
}

enum build_status asm_build_preprocess(struct asm_build *b, const char *src, const char *out,
                                       unsigned how, char *err, size_t errlen)
{
    const char *extra[] = {"-E", NULL};
    return compile(b, extra, src, out, how, "the preprocessor", "the preprocessor rejects the source",
                   err, errlen);
}

/* Whether NAME can be written between double quotes as it is: printable
 * ASCII without a quote or a backslash (the assembler's escapes). */
static int plain_name(const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\')
            return 0;
    return 1;
}

/* Write a stub function (a `ret`) for every symbol OBJ calls or uses but
 * does not define, to STUBS; *COUNT receives their number.  Symbols typed
 * as data or TLS get none (a function would not link in their place).
 * Returns 0, or -1. */
static int write_stubs(const char *obj, const char *stubs, size_t *count)
{
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN];
    *count = 0;
    if (elf_file_open_object(&ef, obj, err, sizeof err) != 0)
        return -1;
    FILE *f = elf_file_load_symbols(&ef, err, sizeof err) == 0 ? fopen(stubs, "w") : NULL;
    if (f) {
        fputs("\t.text\n", f);
        for (size_t i = 0; i < ef.nsymbols; i++) {
            const struct elf_symbol *sym = &ef.symbols[i];
            if (sym->shndx != SHN_UNDEF || !sym->name[0] || !plain_name(sym->name) ||
                (sym->type != STT_NOTYPE && sym->type != STT_FUNC) ||
                (sym->bind != STB_GLOBAL && sym->bind != STB_WEAK) ||
                strcmp(sym->name, "_GLOBAL_OFFSET_TABLE_") == 0)
                continue;
            fprintf(f, "\t.globl \"%s\"\n\t.type \"%s\", @function\n\"%s\":\n\tret\n"
                    "\t.size \"%s\", 1\n", sym->name, sym->name, sym->name, sym->name);
            ++*count;
        }
    }
    elf_file_close(&ef);
    return f && fclose(f) == 0 ? 0 : -1;
}

/* $CC's words, then PARTS (NULL-terminated): a new argv (the strings
 * borrowed), or NULL when out of memory. */
static char **cc_then(const struct asm_build *b, const char *const *parts)
{
    size_t n = 0;
    while (parts[n])
        n++;
    char **argv = calloc(b->ncc + n + 1, sizeof *argv);
    if (!argv)
        return NULL;
    for (size_t i = 0; i < b->ncc; i++)
        argv[i] = b->cc[i];
    for (size_t i = 0; i < n; i++)
        argv[b->ncc + i] = (char *)parts[i];
    return argv;
}

static enum build_status link_objects(struct asm_build *b, const char *obj, const char *stubs,
                                      const char *exe, char *err, size_t errlen)
{
    const char *parts[] = {"-nostdlib", "-no-pie", "-Wl,-e,0", "-Wl,--unresolved-symbols=ignore-all",
                           "-Wl,--build-id=none", "-o", exe, obj, stubs, NULL};
    const char *log = asm_build_file(b, "linker.log");
    char **argv = log ? cc_then(b, parts) : NULL;
    if (!argv) {
        error_set(err, errlen, "out of memory");
        return BUILD_FAILED;
    }
    enum build_status st = run(argv, log, "the linker", "cannot link the object for analysis", err,
                               errlen);
    free(argv);
    return st;
}

enum build_status asm_build_link(struct asm_build *b, const char *obj, const char *exe, char *err,
                                 size_t errlen)
{
    const char *stubs_s = asm_build_file(b, "stubs.s"), *stubs_o = asm_build_file(b, "stubs.o"),
               *log = asm_build_file(b, "stubs.log");
    size_t count;
    if (stubs_s && stubs_o && log && write_stubs(obj, stubs_s, &count) == 0 && count > 0) {
        const char *parts[] = {"-c", "-o", stubs_o, stubs_s, NULL};
        char **argv = cc_then(b, parts);
        int ok = argv && run(argv, log, "the assembler", "", err, errlen) == BUILD_OK &&
                 link_objects(b, obj, stubs_o, exe, err, errlen) == BUILD_OK;
        free(argv);
        if (ok)
            return BUILD_OK;
    }
    /* No stubs, or they do not link: every unresolved address is 0. */
    return link_objects(b, obj, NULL, exe, err, errlen);
}
