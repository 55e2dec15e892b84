/*
 * Unit tests of elf_rewrite, on programs compiled here (cc, c++) into a
 * temporary directory:
 *   - a PIE, a non-PIE executable and a shared library (linked, and
 *     dlopen'ed) get a new section; the copy runs, readelf shows the new
 *     LOAD and section without a warning, the program finds the section's
 *     bytes at the planned address through dl_iterate_phdr (so the loader
 *     used the new program header table), and every other byte is kept;
 *   - the copy grows by the new sections and headers only: no hole for a
 *     non-PIE executable or a library with a large .bss, nor for a PIE
 *     whose new sections fill the pages its .bss spans past the file, nor
 *     for one linked with 2 MiB pages (the new segment between its
 *     segments); for one with a 1 MiB .bss, just the hole that kernels
 *     before Linux 5.18 need; and the table of every file they may run or
 *     that reads its own (a static PIE, ld.so) lies where those kernels
 *     look for it (the first PT_LOAD's p_vaddr - p_offset + e_phoff);
 *   - a repaired ld.so runs a program and gives its own new program
 *     headers to dl_iterate_phdr; a non-PIE executable larger than its
 *     first segment's address is repaired twice;
 *   - a C++ exception thrown in a library and caught in the executable
 *     still works when .eh_frame_hdr is moved into the new segment and the
 *     old one is zeroed: libgcc finds FDEs through the new PT_GNU_EH_FRAME
 *     (retargeted, or added to a library that had none);
 *   - refusals (no section headers, truncated, not ELF, relocatable, output
 *     that is the input) return -1 with a reason and write nothing.
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

#include "object/elf_file.h"
#include "object/elf_rewrite.h"

#define PATTERN "dwcheck-elf-rewrite-pattern-0123456789"

#define TEST_DIR "/tmp/test_elf_rewrite.XXXXXX"
#include "tests/unit/test_shell.h"



/* Finds PATTERN (argv[3]) at address argv[2] of the object named argv[1]
 * ("" for the main program) in a PT_LOAD of the program headers the loader
 * gives: 0 when found, 3 when not mapped, 6 when other bytes are there. */
static const char check_c[] =
    "#define _GNU_SOURCE\n#include <link.h>\n#include <stdlib.h>\n#include <string.h>\n#include <dlfcn.h>\n"
    "int lib_value(void);\n"
    "static char **args; static int found = 3;\n"
    "static int visit(struct dl_phdr_info *info, size_t size, void *arg) {\n"
    "  (void)size; (void)arg;\n"
    "  if (*args[1] ? !strstr(info->dlpi_name, args[1]) : *info->dlpi_name != 0) return 0;\n"
    "  unsigned long a = strtoul(args[2], 0, 16); size_t n = strlen(args[3]);\n"
    "  for (int i = 0; i < info->dlpi_phnum; i++) {\n"
    "    const ElfW(Phdr) *p = &info->dlpi_phdr[i];\n"
    "    if (p->p_type == PT_LOAD && p->p_vaddr <= a && a + n <= p->p_vaddr + p->p_filesz)\n"
    "      found = memcmp((char *)info->dlpi_addr + a, args[3], n) ? 6 : 0;\n"
    "  }\n"
    "  return 1;\n"
    "}\n"
    "#ifdef BSS_SIZE\nstatic volatile char bss[BSS_SIZE];\n#endif\n"
    "#ifdef DATA_SIZE\nvolatile char data[DATA_SIZE] = {1};\n#endif\n"
    "int main(int argc, char **argv) {\n"
    "  if (argc != 4) return 2; args = argv;\n"
    "#ifdef BSS_SIZE\n  bss[BSS_SIZE - argc] = 1;\n#endif\n"
    "#ifdef USE_LIB\n  if (lib_value() != 42) return 5;\n#endif\n"
    "#ifdef USE_DLOPEN\n  void *h = dlopen(argv[1], RTLD_NOW); if (!h) return 4;\n"
    "  int (*f)(void) = (int (*)(void))dlsym(h, \"lib_value\"); if (!f || f() != 42) return 5;\n#endif\n"
    "  dl_iterate_phdr(visit, 0);\n  return found;\n}\n";

static const char lib_c[] = "#ifdef BSS_SIZE\nvolatile char lib_bss[BSS_SIZE];\n#endif\n"
                            "int lib_value(void) { return 42; }\n";

static const char thrower_cc[] =
    "#include <stdexcept>\n"
    "extern \"C\" int lib_throw(int x) { if (x > 0) throw std::runtime_error(\"boom\"); return x; }\n";

/* Exit 42 when both exceptions are caught. */
static const char catcher_cc[] =
    "#include <stdexcept>\n"
    "extern \"C\" int lib_throw(int);\n"
    "static int __attribute__((noinline)) local_throw(int x) { if (x > 0) throw 7; return x; }\n"
    "int main(int argc, char **) {\n"
    "  int got = 0;\n"
    "  try { lib_throw(argc); } catch (const std::exception &) { got += 1; }\n"
    "  try { local_throw(argc); } catch (int v) { got += v == 7 ? 2 : 0; }\n"
    "  return got == 3 ? 42 : 1;\n}\n";

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    write_text(at("check.c"), check_c);
    write_text(at("lib.c"), lib_c);
    write_text(at("thrower.cc"), thrower_cc);
    write_text(at("catcher.cc"), catcher_cc);
    const char *d = dir;
    return run("cd %s && mkdir r && cc -O1 -fPIE -pie check.c -o pie -ldl && "
               "cc -O1 -fno-pie -no-pie check.c -o nopie -ldl && "
               "cc -O1 -fPIE -pie -DBSS_SIZE=16384 check.c -o pie_bss16k -ldl && "
               "cc -O1 -fPIE -pie -DBSS_SIZE=1048576 check.c -o pie_bss1m -ldl && "
               "cc -O1 -fno-pie -no-pie -DBSS_SIZE=1048576 check.c -o nopie_bss1m -ldl && "
               "cc -O1 -fno-pie -no-pie -DDATA_SIZE=5242880 check.c -o nopie_data5m -ldl && "
               "cc -O1 -fPIE -pie -Wl,-z,max-page-size=0x200000 -Wl,-z,noseparate-code check.c -o pie_2m -ldl && "
               "cc -O1 -static-pie -DBSS_SIZE=1048576 check.c -o spie_bss && "
               "cp /lib64/ld-linux-x86-64.so.2 ldso && "
               "cc -O1 -fno-pie -no-pie -Wl,-Ttext-segment=0x10000 -DBSS_SIZE=1048576 check.c -o nopie_low -ldl && "
               "cc -O1 -fPIC -shared -DBSS_SIZE=1048576 lib.c -o libbss.so && "
               "cc -O1 -fPIC -shared -Wl,-e,lib_value -DBSS_SIZE=1048576 lib.c -o libentry.so -Wl,--no-as-needed -lc && "
               "cc -O1 -fPIC -shared lib.c -o libt.so && "
               "cc -O1 -DUSE_LIB check.c -L. -lt -ldl -o linked && "
               "cc -O1 -DUSE_DLOPEN check.c -ldl -o dlo && "
               "c++ -O1 -fPIC -shared thrower.cc -o libthrow.so && "
               "c++ -O1 catcher.cc -L. -lthrow -o catcher && "
               "cc -c lib.c -o lib.o", d) == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    return run("rm -rf %s", dir) == 0 ? 0 : -1;
}

/* Whether readelf -lSW PATH warns of nothing and has a line holding A and B. */
static int readelf_line(const char *path, const char *a, const char *b)
{
    char cmd[1024], line[1024];
    snprintf(cmd, sizeof cmd, "readelf -lSW %s 2>&1", path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int found = 0, warned = 0;
    while (fgets(line, sizeof line, p)) {
        warned |= strstr(line, "Warning") || strstr(line, "Error");
        found |= strstr(line, a) && strstr(line, b);
    }
    pclose(p);
    return found && !warned;
}

static const char *hex(const char *fmt, uint64_t v)
{
    static char buf[4][32];
    static unsigned next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], fmt, (unsigned long long)v);
    return p;
}

/* The file's bytes, in a buffer the caller frees. */
static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    uint8_t *b = malloc(*n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* Whether the section header table of the file B of N bytes is its last bytes. */
static int shdrs_last(const uint8_t *b, size_t n)
{
    return get_le(b + 40, 8) + 64 * get_le(b + 60, 2) == n;
}

/* OUT holds IN's bytes at their offsets, but for the header's e_phoff,
 * e_shoff, e_phnum and e_shnum, and when IN's section header table is its
 * last bytes (it stays in place), .shstrtab's sh_offset and sh_size; and
 * BYTES at OFFSET. */
static void assert_kept(const char *in, const char *out, const struct elf_new_section *s)
{
    size_t ni, no;
    uint8_t *a = slurp(in, &ni), *b = slurp(out, &no);
    assert_true(no > ni);
    uint64_t strtab = shdrs_last(a, ni) ? get_le(a + 40, 8) + 64 * get_le(a + 62, 2) : UINT64_MAX;
    for (size_t i = 0; i < ni; i++)
        if (!((i >= 32 && i < 48) || (i >= 56 && i < 58) || (i >= 60 && i < 62) ||
              (i >= strtab + 24 && i < strtab + 40)))
            assert_int_equal(a[i], b[i]);
    assert_true(s->offset + s->size <= no);
    assert_memory_equal(b + s->offset, s->bytes, s->size);
    free(a);
    free(b);
}

/* The little-endian field of BYTES bytes at OFF of the N bytes of B. */
static uint64_t field(const uint8_t *b, size_t n, uint64_t off, unsigned bytes)
{
    assert_true(off + bytes <= n);
    return get_le(b + off, bytes);
}

/* OUT grew by IN's N new sections S, its new program header table, the
 * copy of its section name table and section headers (all of them, or the
 * new ones when IN's table is its last bytes), HOLE and alignment only;
 * and when OUT is a program (PT_INTERP), its program header table lies
 * where kernels before Linux 5.18 look for it: at the first PT_LOAD's
 * p_vaddr - p_offset + e_phoff, which PT_PHDR names and the PT_LOAD holding
 * e_phoff maps.  Returns OUT's size. */
static size_t assert_growth(const char *in, const char *out, const struct elf_new_section *s, size_t n,
                            uint64_t hole)
{
    size_t ni, no;
    uint8_t *a = slurp(in, &ni), *b = slurp(out, &no);
    uint64_t phoff = field(b, no, 32, 8), phnum = field(b, no, 56, 2), shoff = field(b, no, 40, 8);
    uint64_t shnum = field(b, no, 60, 2), shstrndx = field(b, no, 62, 2);
    uint64_t parts = phnum * 56 + field(b, no, shoff + 64 * shstrndx + 32, 8) +
                     64 * (shdrs_last(a, ni) ? n : shnum);
    uint64_t slack = 4 * 8;
    for (size_t i = 0; i < n; i++)
        parts += s[i].size, slack += s[i].align;
    assert_true(no - ni >= parts + hole);
    if (no - ni - parts - hole >= slack)
        fail_msg("%s grew by %zu bytes: %llu of sections and headers, %llu of hole, %zu more", out, no - ni,
                 (unsigned long long)parts, (unsigned long long)hole, (size_t)(no - ni - parts - hole));
    /* ET_EXEC, PT_INTERP, or an entry point and no library needed
     * (readelf -d): the kernel may run it, or it may read its own headers
     * at its base + e_phoff (ld.so). */
    int runs = field(b, no, 16, 2) == ET_EXEC ||
               (field(b, no, 24, 8) != 0 && run("readelf -dW %s | grep -q NEEDED", out) != 0);
    int first = 1;
    uint64_t first_bias = 0, phdr_addr = 0, holder_addr = 0;
    for (uint64_t j = 0; j < phnum; j++) {
        uint64_t p = phoff + 56 * j, type = field(b, no, p, 4), off = field(b, no, p + 8, 8);
        uint64_t vaddr = field(b, no, p + 16, 8), filesz = field(b, no, p + 32, 8);
        runs |= type == PT_INTERP;
        if (type == PT_PHDR)
            phdr_addr = vaddr;
        if (type == PT_LOAD && first)
            first_bias = vaddr - off, first = 0;
        if (type == PT_LOAD && off <= phoff && phoff < off + filesz)
            holder_addr = vaddr + (phoff - off);
    }
    if (runs) {
        assert_int_equal(first_bias + phoff, holder_addr);
        if (phdr_addr)
            assert_int_equal(holder_addr, phdr_addr);
    }
    free(a);
    free(b);
    return no;
}

/* Add .dwcheck.test (PATTERN) and a 64 KiB .dwcheck.big to IN as OUT.
 * Returns the address of .dwcheck.test; the new segment in *SEG. */
static uint64_t add_pattern(const char *in, const char *out, struct elf_rewrite_segment *seg)
{
    static uint8_t big[65536];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i * 7);
    struct elf_new_section s[2] = {{.name = ".dwcheck.test", .size = strlen(PATTERN), .align = 16},
                                   {.name = ".dwcheck.big", .size = sizeof big, .align = 64}};
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN] = "";
    assert_int_equal(elf_file_open(&ef, in, err, sizeof err), 0);
    if (elf_rewrite_plan(&ef, s, 2, seg, err, sizeof err) != 0)
        fail_msg("plan: %s", err);
    assert_int_equal(seg->offset % 0x1000, seg->addr % 0x1000);   /* mappable */
    assert_int_equal(seg->offset % 8, 0);
    assert_int_equal(s[0].addr % 16, 0);
    assert_int_equal(s[1].addr % 64, 0);
    assert_true(s[0].addr >= seg->addr && s[1].addr + s[1].size == seg->addr + seg->size);
    s[0].bytes = (const uint8_t *)PATTERN;
    s[1].bytes = big;
    if (elf_rewrite_write(&ef, s, 2, out, err, sizeof err) != 0)
        fail_msg("write: %s", err);
    elf_file_close(&ef);
    assert_kept(in, out, &s[0]);
    assert_kept(in, out, &s[1]);
    assert_growth(in, out, s, 2, seg->hole);
    assert_true(readelf_line(out, "LOAD", hex("0x%016llx", seg->addr)));
    assert_true(readelf_line(out, ".dwcheck.test", hex("%016llx", s[0].addr)));
    assert_true(readelf_line(out, ".dwcheck.big", hex("%016llx", s[1].addr)));
    return s[0].addr;
}

/* An executable: the copy runs and sees its new bytes; a copy of the copy
 * too.  The first copy's new segment in *SEG. */
static void check_executable(const char *name, struct elf_rewrite_segment *seg_out)
{
    struct elf_rewrite_segment seg;
    char in[512], out[512], out2[512], base[64];
    snprintf(in, sizeof in, "%s", at(name));
    snprintf(base, sizeof base, "%s.out", name);
    snprintf(out, sizeof out, "%s", at(base));
    snprintf(base, sizeof base, "%s.out2", name);
    snprintf(out2, sizeof out2, "%s", at(base));
    uint64_t addr = add_pattern(in, out, &seg);
    assert_int_equal(run("%s '' %llx %s", out, (unsigned long long)addr, PATTERN), 0);
    assert_int_equal(run("%s '' %llx %s", in, (unsigned long long)addr, PATTERN), 3);   /* not there before */
    struct elf_rewrite_segment seg2;
    uint64_t addr2 = add_pattern(out, out2, &seg2);
    assert_true(seg2.addr >= seg.addr + seg.size || seg2.addr + seg2.size <= seg.addr);
    assert_int_equal(run("%s '' %llx %s", out2, (unsigned long long)addr2, PATTERN), 0);
    assert_int_equal(run("%s '' %llx %s", out2, (unsigned long long)addr, PATTERN), 0);
    *seg_out = seg;
}

/* The highest end of IN's PT_LOADs, rounded up to a page, less the first
 * one's p_vaddr - p_offset: the least offset at which kernels before 5.18
 * find a program header table past them. */
static uint64_t past_loads(const char *in)
{
    size_t n;
    uint8_t *b = slurp(in, &n);
    uint64_t phoff = field(b, n, 32, 8), end = 0, bias = UINT64_MAX;
    for (uint64_t j = 0; j < field(b, n, 56, 2); j++) {
        uint64_t p = phoff + 56 * j;
        if (field(b, n, p, 4) != PT_LOAD)
            continue;
        uint64_t vaddr = field(b, n, p + 16, 8), memsz = field(b, n, p + 40, 8);
        if (bias == UINT64_MAX)
            bias = vaddr - field(b, n, p + 8, 8);
        if (vaddr + memsz > end)
            end = vaddr + memsz;
    }
    free(b);
    return (end + 0xfff) / 0x1000 * 0x1000 - bias;
}

static void test_pie(void **state)
{
    (void)state;
    struct elf_rewrite_segment seg;
    check_executable("pie", &seg);
    assert_int_equal(seg.hole, 0);
    /* Its .bss spans pages past the file, which its new sections fill. */
    check_executable("pie_bss16k", &seg);
    assert_true(past_loads(at("pie_bss16k")) > seg.offset);
    assert_int_equal(seg.hole, 0);
    /* They fill only part of 1 MiB: the hole is what old kernels need. */
    check_executable("pie_bss1m", &seg);
    assert_true(seg.hole > 0);
    size_t n;
    free(slurp(at("pie_bss1m.out"), &n));
    assert_int_equal(n, past_loads(at("pie_bss1m")) + seg.phnum * 56);
}

/* A PIE linked with 2 MiB pages: the new segment between its segments. */
static void test_pie_2m(void **state)
{
    (void)state;
    struct elf_rewrite_segment seg;
    check_executable("pie_2m", &seg);
    assert_true(past_loads(at("pie_2m")) > seg.offset);
    assert_int_equal(seg.hole, 0);
}

/* A static PIE (run by the kernel without PT_INTERP), and ld.so, which
 * reads its own program headers at its base + e_phoff. */
static void test_static_pie_and_ld_so(void **state)
{
    (void)state;
    struct elf_rewrite_segment seg;
    check_executable("spie_bss", &seg);
    uint64_t addr = add_pattern(at("ldso"), at("ldso.out"), &seg);
    assert_int_equal(run("%s %s ldso.out %llx %s", at("ldso.out"), at("pie"), (unsigned long long)addr, PATTERN), 0);
    assert_int_equal(run("%s %s ldso %llx %s", at("ldso"), at("pie"), (unsigned long long)addr, PATTERN), 3);
}

static void test_non_pie(void **state)
{
    (void)state;
    struct elf_rewrite_segment seg;
    check_executable("nopie", &seg);
    assert_int_equal(seg.hole, 0);
    /* Its new first segment's offset is past its address: a copy's copy. */
    check_executable("nopie_data5m", &seg);
    assert_int_equal(seg.hole, 0);
    check_executable("nopie_bss1m", &seg);
    assert_int_equal(seg.hole, 0);
    /* No room below its segments: above them, as a PIE. */
    check_executable("nopie_low", &seg);
    assert_true(seg.hole > 0);
}

/* A library, loaded as a program's dependency and by dlopen. */
static void test_shared_library(void **state)
{
    (void)state;
    struct elf_rewrite_segment seg;
    uint64_t addr = add_pattern(at("libt.so"), at("r/libt.so"), &seg);
    unsigned long long a = (unsigned long long)addr;
    assert_int_equal(run("LD_LIBRARY_PATH=%s %s libt.so %llx %s", at("r"), at("linked"), a, PATTERN), 0);
    assert_int_equal(run("%s %s %llx %s", at("dlo"), at("r/libt.so"), a, PATTERN), 0);
    assert_int_equal(run("LD_LIBRARY_PATH=%s %s libt.so %llx %s", dir, at("linked"), a, PATTERN), 3);
    /* A 1 MiB .bss past the file: no hole; nor with an entry point (some
     * linkers give one to libraries), as it needs libc. */
    addr = add_pattern(at("libbss.so"), at("r/libbss.so"), &seg);
    assert_int_equal(seg.hole, 0);
    assert_int_equal(run("%s %s %llx %s", at("dlo"), at("r/libbss.so"), (unsigned long long)addr, PATTERN), 0);
    addr = add_pattern(at("libentry.so"), at("r/libentry.so"), &seg);
    assert_int_equal(seg.hole, 0);
    assert_int_equal(run("%s %s %llx %s", at("dlo"), at("r/libentry.so"), (unsigned long long)addr, PATTERN), 0);
}

static void put32(uint8_t *p, int32_t v)
{
    memcpy(p, &v, 4);
}

static int32_t get32(const uint8_t *p)
{
    int32_t v;
    memcpy(&v, p, 4);
    return v;
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

/* Zero the version byte of the section NAME of PATH: libgcc then finds no
 * FDE through it. */
static void spoil_header(const char *path, const char *name)
{
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN];
    assert_int_equal(elf_file_open(&ef, path, err, sizeof err), 0);
    struct elf_section *s = elf_file_section(&ef, name);
    assert_non_null(s);
    long off = (long)s->offset;
    elf_file_close(&ef);
    patch(path, off, 0, 1);
}

/* IN's .eh_frame_hdr, moved into a new segment of OUT: its pc-relative
 * eh_frame_ptr and its table of datarel entries adjusted to the move. */
static void move_eh_frame_hdr(const char *in, const char *out)
{
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN] = "";
    uint64_t n;
    assert_int_equal(elf_file_open(&ef, in, err, sizeof err), 0);
    struct elf_section *old = elf_file_section(&ef, ".eh_frame_hdr");
    assert_non_null(old);
    const uint8_t *bytes = elf_file_section_bytes(&ef, old, &n, err, sizeof err);
    assert_non_null(bytes);
    assert_true(n >= 12 && bytes[0] == 1 && bytes[1] == 0x1b && bytes[2] == 0x03 && bytes[3] == 0x3b);
    uint8_t *hdr = malloc(n);
    assert_non_null(hdr);
    memcpy(hdr, bytes, n);
    struct elf_new_section s = {.name = ".eh_frame_hdr", .size = n, .align = 4, .bytes = hdr};
    struct elf_rewrite_segment seg;
    if (elf_rewrite_plan(&ef, &s, 1, &seg, err, sizeof err) != 0)
        fail_msg("plan: %s", err);
    uint64_t eh_frame = old->addr + 4 + (uint64_t)(int64_t)get32(hdr + 4);
    put32(hdr + 4, (int32_t)(eh_frame - (s.addr + 4)));
    uint32_t count = (uint32_t)get32(hdr + 8);
    assert_true(12 + 8 * (uint64_t)count <= n);
    for (uint32_t i = 0; i < 2 * count; i++)
        put32(hdr + 12 + 4 * i, (int32_t)(get32(hdr + 12 + 4 * i) + (int64_t)(old->addr - s.addr)));
    if (elf_rewrite_write(&ef, &s, 1, out, err, sizeof err) != 0)
        fail_msg("write: %s", err);
    uint64_t old_addr = old->addr;
    elf_file_close(&ef);
    free(hdr);
    assert_true(readelf_line(out, "GNU_EH_FRAME", hex("0x%016llx", s.addr)));
    assert_true(readelf_line(out, " .eh_frame_hdr ", hex("%016llx", s.addr)));
    assert_true(readelf_line(out, " .eh_frame_hdr.orig ", hex("%016llx", old_addr)));
    spoil_header(out, ".eh_frame_hdr.orig");
}

static void test_eh_frame_hdr_executable(void **state)
{
    (void)state;
    const char *lib = dir;
    assert_int_equal(run("LD_LIBRARY_PATH=%s %s", lib, at("catcher")), 42);
    /* The control: with its header spoilt, the program cannot catch. */
    assert_int_equal(run("cp %s %s", at("catcher"), at("catcher.spoilt")), 0);
    spoil_header(at("catcher.spoilt"), ".eh_frame_hdr");
    assert_int_not_equal(run("LD_LIBRARY_PATH=%s %s 2>/dev/null", lib, at("catcher.spoilt")), 42);
    move_eh_frame_hdr(at("catcher"), at("catcher.out"));
    assert_int_equal(run("LD_LIBRARY_PATH=%s %s", lib, at("catcher.out")), 42);
}

static void test_eh_frame_hdr_library(void **state)
{
    (void)state;
    assert_int_equal(run("mkdir %s && cp %s %s", at("spoilt"), at("libthrow.so"), at("spoilt")), 0);
    spoil_header(at("spoilt/libthrow.so"), ".eh_frame_hdr");
    assert_int_not_equal(run("LD_LIBRARY_PATH=%s %s 2>/dev/null", at("spoilt"), at("catcher")), 42);
    move_eh_frame_hdr(at("libthrow.so"), at("r/libthrow.so"));
    assert_int_equal(run("LD_LIBRARY_PATH=%s %s", at("r"), at("catcher")), 42);
}

/* The offset in PATH of its first program header of TYPE; its index in *INDEX. */
static long phdr_at(const char *path, uint32_t type, size_t *index)
{
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN];
    assert_int_equal(elf_file_open(&ef, path, err, sizeof err), 0);
    long offset = -1;
    for (size_t i = ef.nphdrs; i-- > 0;)
        if (ef.phdrs[i].p_type == type) {
            offset = (long)(ef.ehdr.e_phoff + i * sizeof(Elf64_Phdr));
            *index = i;
        }
    elf_file_close(&ef);
    assert_true(offset > 0);
    return offset;
}

/* A library without PT_GNU_EH_FRAME gets one for its new .eh_frame_hdr. */
static void test_eh_frame_hdr_added(void **state)
{
    (void)state;
    assert_int_equal(run("mkdir %s %s && cp %s %s", at("nohdr"), at("nohdr.out"), at("libthrow.so"),
                         at("nohdr")), 0);
    size_t i;
    patch(at("nohdr/libthrow.so"), phdr_at(at("nohdr/libthrow.so"), PT_GNU_EH_FRAME, &i), PT_NULL, 4);
    assert_int_not_equal(run("LD_LIBRARY_PATH=%s %s 2>/dev/null", at("nohdr"), at("catcher")), 42);
    move_eh_frame_hdr(at("nohdr/libthrow.so"), at("nohdr.out/libthrow.so"));
    assert_int_equal(run("LD_LIBRARY_PATH=%s %s", at("nohdr.out"), at("catcher")), 42);
}

/* Open IN (as an object when AS_OBJECT), plan and write OUT: -1 with a
 * reason holding WHY, and no new OUT nor temporary file. */
static void assert_refused(const char *in, const char *out, int as_object, const char *why)
{
    struct elf_new_section s = {.name = ".dwcheck.test", .size = 4, .align = 4,
                                .bytes = (const uint8_t *)"abcd"};
    struct elf_file ef;
    char err[ELF_FILE_ERRLEN] = "";
    int existed = access(out, F_OK) == 0;
    int rc = as_object ? elf_file_open_object(&ef, in, err, sizeof err) : elf_file_open(&ef, in, err, sizeof err);
    if (rc == 0) {
        rc = elf_rewrite_plan(&ef, &s, 1, NULL, err, sizeof err);
        if (rc == 0)
            rc = elf_rewrite_write(&ef, &s, 1, out, err, sizeof err);
        elf_file_close(&ef);
    }
    assert_int_equal(rc, -1);
    if (!strstr(err, why))
        fail_msg("reason \"%s\" does not say \"%s\"", err, why);
    assert_int_equal(run("ls %s | grep -q tmp-", dir), 1);
    if (!existed)
        assert_int_not_equal(access(out, F_OK), 0);
}

static void test_refusals(void **state)
{
    (void)state;
    const char *out = at("refused.out");
    assert_int_equal(run("cp %s %s", at("pie"), at("noshdr")), 0);
    patch(at("noshdr"), 40, 0, 8);         /* e_shoff */
    patch(at("noshdr"), 60, 0, 4);         /* e_shnum, e_shstrndx */
    assert_refused(at("noshdr"), out, 0, "no section headers");

    assert_int_equal(run("head -c 3000 %s > %s", at("pie"), at("truncated")), 0);
    assert_refused(at("truncated"), out, 0, "truncated");
    /* The section headers whole, a segment past the end: for this module to see. */
    assert_int_equal(run("cp %s %s", at("pie"), at("longseg")), 0);
    size_t load;
    long load_at = phdr_at(at("longseg"), PT_LOAD, &load);
    patch(at("longseg"), load_at + 32, 1u << 30, 8);   /* p_filesz */
    patch(at("longseg"), load_at + 40, 1u << 30, 8);   /* p_memsz */
    char why[64];
    snprintf(why, sizeof why, "segment %zu lies past the end", load);
    assert_refused(at("longseg"), out, 0, why);

    /* Its first two PT_LOADs swapped: out of address order. */
    assert_int_equal(run("cp %s %s", at("nopie"), at("unsorted")), 0);
    size_t first;
    long first_at = phdr_at(at("unsorted"), PT_LOAD, &first);
    uint8_t entries[2 * sizeof(Elf64_Phdr)];
    FILE *f = fopen(at("unsorted"), "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, first_at, SEEK_SET), 0);
    assert_int_equal(fread(entries, 1, sizeof entries, f), sizeof entries);
    assert_int_equal(fseek(f, first_at, SEEK_SET), 0);
    assert_int_equal(fwrite(entries + sizeof(Elf64_Phdr), 1, sizeof(Elf64_Phdr), f), sizeof(Elf64_Phdr));
    assert_int_equal(fwrite(entries, 1, sizeof(Elf64_Phdr), f), sizeof(Elf64_Phdr));
    assert_int_equal(fclose(f), 0);
    assert_refused(at("unsorted"), out, 0, "sorts them by address");

    write_text(at("text"), "not an ELF file at all\n");
    assert_refused(at("text"), out, 0, "not an ELF file");
    assert_refused(at("lib.o"), out, 1, "ET_EXEC, ET_DYN");

    size_t n0, n1;
    uint8_t *before = slurp(at("pie"), &n0);
    assert_refused(at("pie"), at("pie"), 0, "the output is the input");
    assert_int_equal(run("ln -s pie %s", at("pie.link")), 0);
    assert_refused(at("pie"), at("pie.link"), 0, "the output is the input");
    uint8_t *after = slurp(at("pie"), &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pie),
        cmocka_unit_test(test_non_pie),
        cmocka_unit_test(test_pie_2m),
        cmocka_unit_test(test_static_pie_and_ld_so),
        cmocka_unit_test(test_shared_library),
        cmocka_unit_test(test_eh_frame_hdr_executable),
        cmocka_unit_test(test_eh_frame_hdr_library),
        cmocka_unit_test(test_eh_frame_hdr_added),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests_name("test_elf_rewrite", tests, group_setup, group_teardown);
}
/* SPDX-License-Identifier: Apache-2.0 */
