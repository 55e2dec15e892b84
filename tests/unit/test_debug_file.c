/*
 * Unit tests of debug_file, on files assembled and linked here into a
 * temporary directory:
 *   - gdb: a library whose .eh_frame is wrong for `leaf` (two pushes, no
 *     .cfi_def_cfa_offset) gets a debug file holding a right .debug_frame
 *     for it (taken from the same code assembled with right CFI into
 *     .debug_frame, linked at the same addresses), written where
 *     debug_file_build_id_path says; gdb, stopped in the callback `inner`,
 *     then walks inner, leaf, main; without the debug file, a ?? frame
 *     lies between leaf and main;
 *   - readelf: the debug file's sections (allocated ones NOBITS at their
 *     indices, the build-id note and the symbols kept, the new section
 *     appended), its note (-n), its .debug_frame (-wf), no warning; an
 *     input section of a new section's name renamed NAME.orig;
 *   - refusals (no build-id, no section headers, output that is the input,
 *     bad new sections) return -1 with a reason and write nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "object/debug_file.h"
#include "object/elf_file.h"

#define TEST_DIR "/tmp/test_debug_file.XXXXXX"
#include "tests/unit/test_shell.h"

/* leaf(f) calls f with rbx and rbp pushed.  WRONG_CFI says nothing of the
 * pushes (its CFA stays rsp+8), RIGHT_CFI follows them, into .debug_frame. */
#define LEAF_CODE(cfi_push1, cfi_push2, cfi_pop1, cfi_pop2)                                        \
    "\t.text\n\t.globl leaf\n\t.type leaf,@function\nleaf:\n\t.cfi_startproc\n"                    \
    "\tpushq %rbx\n" cfi_push1 "\tpushq %rbp\n" cfi_push2 "\tmovq %rdi,%rbx\n\tcall *%rbx\n"        \
    "\tpopq %rbp\n" cfi_pop1 "\tpopq %rbx\n" cfi_pop2 "\tret\n\t.cfi_endproc\n\t.size leaf,.-leaf\n" \
    "\t.section .note.GNU-stack,\"\",@progbits\n"
#define WRONG_CFI LEAF_CODE("", "", "", "")
#define RIGHT_CFI                                                                                  \
    "\t.cfi_sections .debug_frame\n"                                                               \
    LEAF_CODE("\t.cfi_def_cfa_offset 16\n\t.cfi_offset %rbx,-16\n",                                \
              "\t.cfi_def_cfa_offset 24\n\t.cfi_offset %rbp,-24\n", "\t.cfi_def_cfa_offset 16\n",  \
              "\t.cfi_def_cfa_offset 8\n")
#define MAIN_C                                                                                     \
    "void leaf(void (*)(void));\n"                                                                 \
    "__attribute__((noinline)) void inner(void) { __asm__ volatile(\"\"); }\n"                     \
    "int main(void) { leaf(inner); return 0; }\n"



static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    write_text(at("wrong.s"), WRONG_CFI);
    write_text(at("right.s"), RIGHT_CFI);
    write_text(at("main.c"), MAIN_C);
    const char *d = dir;
    /* -nostdlib: leaf is the first byte of .text (0x1000) in both libraries. */
    return run("cd %s && cc -shared -nostdlib wrong.s -Wl,--build-id -o libleaf.so && "
               "cc -shared -nostdlib right.s -Wl,--build-id=0x$(readelf -n libleaf.so | "
               "sed -n 's/.*Build ID: //p') -o right.so && "
               "cc -shared -nostdlib wrong.s -Wl,--build-id=none -o nobuildid.so && "
               "cc -O0 -g main.c -L. -lleaf -Wl,-rpath,%s -o main && "
               "test \"$(nm libleaf.so | grep ' leaf$')\" = \"$(nm right.so | grep ' leaf$')\"",
               d, d) == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    return run("rm -rf %s", dir) == 0 ? 0 : -1;
}

/* The bytes of section NAME of PATH, in a buffer the caller frees. */
static uint8_t *section_of(const char *path, const char *name, uint64_t *n)
{
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN] = "";
    if (elf_file_open(&ef, path, err, sizeof err) != 0)
        fail_msg("%s: %s", path, err);
    struct elf_section *s = elf_file_section(&ef, name);
    assert_non_null(s);
    const uint8_t *b = elf_file_section_bytes(&ef, s, n, err, sizeof err);
    assert_non_null(b);
    uint8_t *copy = malloc(*n + 1);
    assert_non_null(copy);
    memcpy(copy, b, *n);
    elf_file_close(&ef);
    return copy;
}

/* Write the debug file of IN with a .debug_frame of BYTES (none when
 * NULL) under the debug-file-directory DEBUG_DIR; its path in PATH. */
static void write_debug_file(const char *in, const uint8_t *bytes, uint64_t n, const char *debug_dir,
                             char *path, size_t size)
{
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN] = "";
    struct debug_section s = {.name = ".debug_frame", .bytes = bytes, .size = n, .align = 8};
    assert_int_equal(elf_file_open(&ef, in, err, sizeof err), 0);
    if (debug_file_build_id_path(&ef, debug_dir, path, size, err, sizeof err) != 0)
        fail_msg("path: %s", err);
    if (debug_file_write(&ef, &s, bytes ? 1 : 0, path, err, sizeof err) != 0)
        fail_msg("write: %s", err);
    elf_file_close(&ef);
}

/* gdb's backtrace from inner, with the debug files under DEBUG_DIR. */
static char *backtrace_of(const char *debug_dir)
{
    return output_of("cd %s && gdb -nx -batch -ex 'set debuginfod enabled off' "
                     "-ex 'set debug-file-directory %s' -ex 'break inner' -ex run -ex bt ./main 2>&1",
                     dir, debug_dir);
}

/* Whether the line of frame #N in BT holds WHAT. */
static int frame_holds(const char *bt, int n, const char *what)
{
    char start[16];
    snprintf(start, sizeof start, "\n#%d ", n);
    const char *line = strstr(bt, start);
    if (!line)
        return 0;
    const char *end = strchr(line + 1, '\n');
    const char *hit = strstr(line, what);
    return hit && (!end || hit < end);
}

static void test_gdb_reads_the_debug_frame(void **state)
{
    (void)state;
    if (run("command -v gdb >/dev/null") != 0)
        skip();
    uint64_t n;
    uint8_t *frame = section_of(at("right.so"), ".debug_frame", &n);
    char path[1024];
    write_debug_file(at("libleaf.so"), frame, n, at("debug"), path, sizeof path);
    free(frame);
    char *id = output_of("readelf -n %s | sed -n 's/.*Build ID: //p' | tr -d '\\n'", at("libleaf.so"));
    char want[1024];
    snprintf(want, sizeof want, "%s/.build-id/%.2s/%s.debug", at("debug"), id, id + 2);
    assert_string_equal(path, want);
    free(id);

    char *bt = backtrace_of(at("debug"));
    if (!frame_holds(bt, 0, " inner ") || !frame_holds(bt, 1, " leaf ") || !frame_holds(bt, 2, " main "))
        fail_msg("with the debug file, gdb's backtrace is not inner, leaf, main:\n%s", bt);
    free(bt);
    /* The controls: the library's own .eh_frame leads gdb astray, without
     * a debug file and with one that has no .debug_frame. */
    bt = backtrace_of(at("nowhere"));
    if (!frame_holds(bt, 1, " leaf ") || !frame_holds(bt, 2, "?? "))
        fail_msg("without the debug file, gdb's backtrace has no ?? after leaf:\n%s", bt);
    free(bt);
    write_debug_file(at("libleaf.so"), NULL, 0, at("bare"), path, sizeof path);
    bt = backtrace_of(at("bare"));
    if (!frame_holds(bt, 1, " leaf ") || !frame_holds(bt, 2, "?? ") || strstr(bt, "warning"))
        fail_msg("with a debug file without .debug_frame, gdb's backtrace has no ?? after leaf:\n%s", bt);
    free(bt);
}

/* Whether readelf's OUTPUT has a line holding A, B and C. */
static int has_line(const char *output, const char *a, const char *b, const char *c)
{
    for (const char *line = output; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (memmem(line, len, a, strlen(a)) && memmem(line, len, b, strlen(b)) &&
            memmem(line, len, c, strlen(c)))
            return 1;
    }
    return 0;
}

static void assert_line(const char *output, const char *a, const char *b, const char *c)
{
    if (!has_line(output, a, b, c))
        fail_msg("no line with \"%s\", \"%s\", \"%s\" in:\n%s", a, b, c, output);
}

static void test_readelf_sees_the_sections(void **state)
{
    (void)state;
    uint64_t n;
    uint8_t *frame = section_of(at("right.so"), ".debug_frame", &n);
    char path[1024];
    write_debug_file(at("libleaf.so"), frame, n, at("readelf"), path, sizeof path);
    char *s = output_of("readelf -SlW %s 2>&1", path);
    assert_null(strstr(s, "Warning"));
    assert_non_null(strstr(s, "There are no program headers in this file."));
    assert_line(s, "] .note.gnu.build-id", "NOTE", "  A ");
    assert_line(s, "] .text ", "NOBITS", " AX ");
    assert_line(s, "] .eh_frame ", "NOBITS", "  A ");
    assert_line(s, "] .dynamic ", "NOBITS", " WA ");
    assert_line(s, "] .symtab ", "SYMTAB", " 0000000000000000 ");
    assert_line(s, "] .shstrtab ", "STRTAB", " 0000000000000000 ");
    assert_line(s, "] .debug_frame ", "PROGBITS", " 0000000000000000 ");
    free(s);
    s = output_of("readelf -n %s 2>&1", path);
    assert_line(s, "GNU", "NT_GNU_BUILD_ID", "");
    assert_non_null(strstr(s, "Build ID: "));
    free(s);
    s = output_of("readelf -wf %s 2>&1", path);
    assert_null(strstr(s, "Warning"));
    assert_line(s, "FDE", "pc=0000000000001000..000000000000100a", "");
    assert_line(s, "DW_CFA_def_cfa_offset: 24", "", "");
    free(s);
    s = output_of("nm %s 2>&1", path);   /* the symbols are kept */
    assert_line(s, " T leaf", "", "");
    free(s);
    uint64_t m;
    uint8_t *back = section_of(path, ".debug_frame", &m);
    assert_int_equal(m, n);
    assert_memory_equal(back, frame, n);
    free(back);

    /* right.so has a .debug_frame already: it becomes .debug_frame.orig. */
    static const uint8_t other[12] = {0};
    write_debug_file(at("right.so"), other, sizeof other, at("orig"), path, sizeof path);
    s = output_of("readelf -SW %s 2>&1", path);
    assert_line(s, "] .debug_frame.orig ", "PROGBITS", "");
    assert_line(s, "] .debug_frame ", "PROGBITS", " 00000c ");
    free(s);
    back = section_of(path, ".debug_frame.orig", &m);
    assert_int_equal(m, n);
    assert_memory_equal(back, frame, n);
    free(back);
    free(frame);
}

/* Overwrite SIZE bytes at OFFSET of PATH with the little-endian V. */
static void patch(const char *path, long offset, uint64_t v, size_t size)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    assert_int_equal(fwrite(&v, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* Open IN, then compute its debug file's path (WANT_PATH) or write the
 * debug file of IN with S to OUT: -1 with a reason holding WHY, and no
 * OUT, temporary file or directory made. */
static void assert_refused(const char *in, const char *out, const struct debug_section *s, size_t n,
                           int want_path, const char *why)
{
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN] = "", path[512] = "";
    int existed = access(out, F_OK) == 0;
    assert_int_equal(elf_file_open(&ef, in, err, sizeof err), 0);
    int rc = want_path ? debug_file_build_id_path(&ef, at("refused"), path, sizeof path, err, sizeof err)
                       : debug_file_write(&ef, s, n, out, err, sizeof err);
    elf_file_close(&ef);
    assert_int_equal(rc, -1);
    if (!strstr(err, why))
        fail_msg("reason \"%s\" does not say \"%s\"", err, why);
    assert_int_equal(run("ls -a %s | grep -q tmp-", dir), 1);
    assert_int_not_equal(access(at("refused"), F_OK), 0);
    if (!existed)
        assert_int_not_equal(access(out, F_OK), 0);
}

static void test_refusals(void **state)
{
    (void)state;
    const char *out = at("refused/x.debug");
    struct debug_section s = {.name = ".debug_frame", .bytes = (const uint8_t *)"abcd", .size = 4,
                              .align = 4};
    assert_refused(at("nobuildid.so"), out, &s, 1, 1, "no build-id: gdb could not match a debug file");

    assert_int_equal(run("cp %s %s", at("libleaf.so"), at("noshdr.so")), 0);
    patch(at("noshdr.so"), 40, 0, 8);         /* e_shoff */
    patch(at("noshdr.so"), 60, 0, 4);         /* e_shnum, e_shstrndx */
    assert_refused(at("noshdr.so"), out, &s, 1, 0, "no section headers");

    struct stat before, after;
    assert_int_equal(stat(at("libleaf.so"), &before), 0);
    assert_refused(at("libleaf.so"), at("libleaf.so"), &s, 1, 0, "the output is the input");
    assert_int_equal(run("ln -s libleaf.so %s", at("leaf.link")), 0);
    assert_refused(at("libleaf.so"), at("leaf.link"), &s, 1, 0, "the output is the input");
    assert_int_equal(stat(at("libleaf.so"), &after), 0);
    assert_int_equal(before.st_mtime, after.st_mtime);
    assert_int_equal(before.st_size, after.st_size);

    struct debug_section bad[2] = {s, s};
    assert_refused(at("libleaf.so"), out, bad, 2, 0, "two new sections named .debug_frame");
    bad[0].align = 3;
    assert_refused(at("libleaf.so"), out, bad, 1, 0, "alignment 0x3");
    bad[0] = s, bad[0].bytes = NULL;
    assert_refused(at("libleaf.so"), out, bad, 1, 0, "has no bytes");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gdb_reads_the_debug_frame),
        cmocka_unit_test(test_readelf_sees_the_sections),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests_name("test_debug_file", tests, group_setup, group_teardown);
}
/* SPDX-License-Identifier: Apache-2.0 */
