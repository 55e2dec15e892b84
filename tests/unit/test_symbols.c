/*
 * Unit tests of symbols, against perf itself.
 *
 * The group setup builds programs into a temporary directory, records each
 * with `perf record -N -e cpu-clock -F 5000 --call-graph dwarf` (c_ibt at
 * 10 kHz) and keeps what `perf script --no-inline -F ip,sym,symoff,dso`
 * prints:
 *   - c_pie: static functions, three names at one address (alias_target,
 *     alias_a, the weak __alias_b), qsort with a callback, snprintf,
 *     clock_gettime ([vdso] frames), calls through the PLT, a function split
 *     into a .cold part, assembly functions whose size covers global labels
 *     (asm_sized over asm_label, asm_outer over asm_in1..8: symbols that
 *     overlap, where perf names what the descent of its red-black tree meets
 *     first), one without a size (asm_nosize);
 *   - c_nopie (-no-pie: perf prints file offsets, not the addresses),
 *     c_lld (lld: p_vaddr differs from p_offset in a PIE too);
 *   - c_ibt (.plt.sec, which perf 6.1 has no symbols for), run with
 *     LD_BIND_NOT=1 so that calls go through the PLT's header, which lies
 *     inside _init stretched to the next symbol.  A sample lands there
 *     only by chance, so c_ibt_plt records the same program with a
 *     hardware breakpoint on the PLT's header instead of a clock (perf
 *     record -e mem:ADDR:x, ASLR off for the run so that ADDR is known):
 *     every 20th call through it is a sample;
 *   - c_stripped (no .symtab, no debug file: .dynsym and the PLT only),
 *     c_debuglink (stripped, its debug file found by .gnu_debuglink);
 *   - cxx_pie: C++ templates, lambdas, an anonymous namespace, exceptions
 *     (libstdc++ and libgcc_s frames), std::sort, -O2 .cold and .isra parts.
 * For every callchain line of an object file, the test converts perf's
 * printed address back to an address of the object, by the object's
 * program headers read here with libelf (not by symbol_table.c), and asks the
 * table for the printed address, the symbol and the offset: each must be
 * perf's.  Kernel lines are asked of the kallsyms table, [vdso] lines of
 * the vdso's.  The agreements are printed per object; all must agree, and
 * the cases above must have been met, among them lines where the tree's
 * descent names a symbol that a later-starting one overlaps (a lookup of
 * the last symbol starting at or before the address would differ).  A
 * mechanism removed from symbol_table.c fails here: demangling (the C++ and
 * libstdc++ lines), the address conversion (c_nopie, c_lld), the choice
 * among aliases (alias_target, libc's __GI___qsort_r), the tree (some 700
 * lines of the asm functions).
 *
 * Without perf, or where perf cannot record, that test is skipped; the
 * others (demangling, kallsyms' rules, bad input, a build-id mismatch)
 * always run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "profile/demangle.h"
#include "profile/symbol_store.h"
#include "profile/symbol_table.h"

/* Beside the test (the build's tests/): its store is a cache dwperf uses
 * only where no other user can write (runtime/trusted_path.h), not /tmp. */
#define TEST_DIR_BESIDE_SELF "symbols"
#include "tests/unit/test_shell.h"

#define C_SOURCE                                                                                    \
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n"              \
    "volatile long sink;\n"                                                                          \
    "__attribute__((noinline)) long alias_target(long x) { long s = 0; for (int i = 0; i < 30000; i++)" \
    " s += (x ^ i) * 3; return s; }\n"                                                               \
    "long alias_a(long) __attribute__((alias(\"alias_target\")));\n"                                 \
    "long __alias_b(long) __attribute__((weak, alias(\"alias_target\")));\n"                         \
    "__attribute__((noinline)) static long spin_static(volatile long n) { long s = 1;"               \
    " for (long i = 0; i < n; i++) s = s * 7 + i; return s; }\n"                                     \
    "static int cmp(const void *a, const void *b) { long x = *(const long *)a, y = *(const long *)b;" \
    " return (x > y) - (x < y); }\n"                                                                 \
    "__attribute__((noinline)) static void sorter(void) { static long v[2048];"                      \
    " for (int i = 0; i < 2048; i++) v[i] = (i * 7919) % 2048; qsort(v, 2048, sizeof v[0], cmp);"   \
    " sink += v[5]; }\n"                                                                             \
    "__attribute__((noinline)) static void printer(void) { char buf[64]; for (int i = 0; i < 50; i++)" \
    " { snprintf(buf, sizeof buf, \"%d %f\", i, i * 1.5); sink += (long)strlen(buf); } }\n"          \
    "__attribute__((noinline)) static long call_plt(const char *s, long n) { long k = 0;"            \
    " for (long i = 0; i < n; i++) k += (long)strlen(s + (i & 1)); return k; }\n"                    \
    "__attribute__((noinline, cold)) long rare(long x) { long s = 0; for (long i = 0; i < 20000; i++)" \
    " s += i ^ x; return s; }\n"                                                                     \
    "__attribute__((noinline)) long hot_with_cold(long x) { if (__builtin_expect(x & 1, 0))"         \
    " { sink += rare(x); return rare(x + 1); } return x; }\n"                                        \
    "long asm_sized(long), asm_nosize(long);\n"                                                      \
    "__asm__(\".text\\n.globl asm_sized\\n.type asm_sized,@function\\nasm_sized:\\n"                  \
    " mov %rdi,%rcx\\n1: dec %rcx\\n jnz 1b\\n.globl asm_label\\nasm_label:\\n mov %rdi,%rcx\\n"      \
    "2: dec %rcx\\n jnz 2b\\n mov %rdi,%rax\\n ret\\n.size asm_sized,.-asm_sized\\n"                  \
    ".globl asm_nosize\\n.type asm_nosize,@function\\nasm_nosize:\\n mov %rdi,%rcx\\n3: dec %rcx\\n" \
    " jnz 3b\\n mov %rdi,%rax\\n ret\\n\");\n"                                                        \
    "#define LOOP(n) \" mov %rdi,%rcx\\n\" #n \": dec %rcx\\n jnz \" #n \"b\\n\"\n"                         \
    "#define LABEL(n) \".globl asm_in\" #n \"\\nasm_in\" #n \":\\n\"\n"                                  \
    "long asm_outer(long);\n"                                                                        \
    "__asm__(\".globl asm_outer\\n.type asm_outer,@function\\nasm_outer:\\n\" LOOP(1) LABEL(1) LOOP(2)"   \
    " LABEL(2) LOOP(3) LABEL(3) LOOP(4) LABEL(4) LOOP(5) LABEL(5) LOOP(6) LABEL(6) LOOP(7) LABEL(7)"   \
    " LOOP(8) LABEL(8) LOOP(9) \" mov %rdi,%rax\\n ret\\n.size asm_outer,.-asm_outer\\n\");\n"          \
    "int main(int argc, char **argv)\n{\n"                                                           \
    "    if (argc > 1) { for (int r = 0; r < atoi(argv[1]); r++) sink += call_plt(\"ab\", 1000);"    \
    " return 0; }\n"                                                                                 \
    "    struct timespec ts;\n"                                                                    \
    "    for (int r = 0; r < 1000; r++) {\n"                                                         \
    "        for (int i = 0; i < 300; i++) { clock_gettime(CLOCK_MONOTONIC, &ts); sink += ts.tv_nsec; }\n"\
    "        sink += alias_a(r + argc) + spin_static(3000);\n"                                       \
    "        sorter();\n        printer();\n        sink += call_plt(\"ab\", 100000);\n"             \
    "        sink += hot_with_cold(r);\n        sink += asm_sized(200000) + asm_nosize(200000);\n"        \
    "        sink += asm_outer(50000);\n"   \
    "    }\n    printf(\"%ld\\n\", (long)sink);\n    return 0;\n}\n"

#define CXX_SOURCE                                                                                  \
    "#include <algorithm>\n#include <cstdio>\n#include <functional>\n#include <stdexcept>\n"         \
    "#include <string>\n#include <vector>\n"                                                         \
    "namespace ns { template <typename T> struct Box { T v;\n"                                       \
    "  __attribute__((noinline)) T twice(T x) const { volatile T s = 0;"                              \
    " for (int i = 0; i < 50000; i++) s = s + x * i; return s; }\n"                                   \
    "  __attribute__((noinline)) T operator()(T x) { return twice(x) + v; } }; }\n"                  \
    "namespace { __attribute__((noinline)) long hidden(long n) { long s = 0;"                        \
    " for (long i = 0; i < n; i++) s += i * i % 7; return s; } }\n"                                  \
    "__attribute__((noinline)) static long work(int n) { std::vector<int> v(n);"                     \
    " for (int i = 0; i < n; i++) v[i] = (i * 7919) % n;"                                            \
    " std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; }); return v[0]; }\n"           \
    "__attribute__((noinline)) int thrower(int i) { if (i % 3 == 0)"                                 \
    " throw std::runtime_error(std::to_string(i)); return i; }\n"                                    \
    "int main() { long t = 0; ns::Box<int> b{1}; ns::Box<double> d{2};\n"                            \
    "  std::function<long(long)> f = [&](long n) { return hidden(n) + b.v; };\n"                     \
    "  for (int r = 0; r < 800; r++) { t += work(20000); t += b(r); t += (long)d(r); t += f(20000);\n" \
    "    for (int i = 0; i < 300; i++) try { t += thrower(i); } catch (std::exception &e)"          \
    " { t += (long)e.what()[0]; } }\n"                                                               \
    "  printf(\"%ld\\n\", t); return 0; }\n"

/* The programs recorded: name, the shell command that runs it, the sampling
 * frequency (0: at a breakpoint on c_ibt's PLT header, see plt_breakpoint). */
struct program {
    const char *name;
    const char *run;   /* %s: the directory */
    unsigned hz;
};

static const struct program programs[] = {
    {"c_pie", "%s/c_pie", 5000},
    {"c_nopie", "%s/c_nopie", 5000},
    {"c_lld", "%s/c_lld", 5000},
    {"c_ibt", "env LD_BIND_NOT=1 %s/c_ibt 6000", 5000},
    {"c_ibt_plt", "setarch -R env LD_BIND_NOT=1 %s/c_ibt 1", 0},
    {"c_stripped", "%s/c_stripped", 5000},
    {"c_debuglink", "%s/c_debuglink", 5000},
    {"cxx_pie", "%s/cxx_pie", 5000},
};
#define NPROGRAMS (sizeof programs / sizeof programs[0])

static int built[NPROGRAMS];       /* built and recorded */
static int can_record;

/* perf record's events for c_ibt_plt, in EVENTS: an execution breakpoint on
 * c_ibt's PLT header where a run with ASLR off (setarch -R) maps it, taken
 * from the program's own AT_PHDR in such a run (LD_SHOW_AUXV) less its
 * e_phoff, plus the .plt section's address.  0, or -1 when it cannot be
 * told. */
static int plt_breakpoint(char *events, size_t size)
{
    char *text = output_of("cd %s && phdr=$(setarch -R env LD_SHOW_AUXV=1 ./c_ibt 0 | awk '$1 == \"AT_PHDR:\" "
                           "{ print $2 }') && phoff=$(readelf -h c_ibt | awk '/Start of program headers/ "
                           "{ print $5 }') && plt=$(readelf -SW c_ibt | sed -n 's/.* \\.plt  *PROGBITS  *"
                           "\\([0-9a-f]*\\) .*/\\1/p') && [ -n \"$phdr\" ] && [ -n \"$plt\" ] && "
                           "printf '%%x' $((phdr - phoff + 0x$plt))", dir);
    uint64_t addr = strtoull(text, NULL, 16);
    free(text);
    if (!addr)
        return -1;
    snprintf(events, size, "-e mem:0x%" PRIx64 ":x -c 20", addr);
    return 0;
}

static int group_setup(void **state)
{
    (void)state;
    if (make_dir_beside_self() != 0)
        return -1;
    FILE *f = fopen(at("p.c"), "w");
    FILE *g = fopen(at("p.cc"), "w");
    if (!f || !g)
        return -1;
    fputs(C_SOURCE, f);
    fputs(CXX_SOURCE, g);
    fclose(f);
    fclose(g);
    const char *d = dir;
    static const char *const builds[NPROGRAMS] = {
        "cc -O2 -g -fno-builtin p.c -o c_pie",
        "cc -O2 -g -fno-builtin -no-pie p.c -o c_nopie",
        "cc -O2 -g -fno-builtin -fuse-ld=lld p.c -o c_lld",
        "cc -O2 -g -fno-builtin -fcf-protection=full -Wl,-z,ibtplt p.c -o c_ibt",
        "test -x c_ibt",
        "strip -o c_stripped c_pie",
        "objcopy --only-keep-debug c_pie c_debuglink.debug && strip -o c_debuglink c_pie && "
        "objcopy --add-gnu-debuglink=c_debuglink.debug c_debuglink",
        "c++ -O2 -g p.cc -o cxx_pie",
    };
    /* --no-buildid-cache: nothing of the test is left in ~/.debug; perf
     * script then reads the programs where they are. */
    can_record = run("cd %s && perf record -q -N -e cpu-clock -o probe.data -- true >/dev/null 2>&1", d) == 0;
    for (size_t i = 0; i < NPROGRAMS; i++) {
        if (run("cd %s && %s >/dev/null 2>&1", d, builds[i]) != 0) {
            fprintf(stderr, "test_symbols: could not build %s\n", programs[i].name);
            continue;
        }
        if (!can_record)
            continue;
        char cmd[1024], events[128];
        snprintf(cmd, sizeof cmd, programs[i].run, d);
        snprintf(events, sizeof events, "-e cpu-clock -F %u", programs[i].hz);
        if (!programs[i].hz && plt_breakpoint(events, sizeof events) != 0) {
            fprintf(stderr, "test_symbols: where c_ibt's PLT header is mapped cannot be told\n");
            continue;
        }
        built[i] = run("cd %s && perf record -q -N %s --call-graph dwarf -o %s.data -- %s "
                       ">/dev/null 2>&1 && perf script -i %s.data --no-inline -F ip,sym,symoff,dso "
                       ">%s.script 2>/dev/null",
                       d, events, programs[i].name, cmd, programs[i].name, programs[i].name) == 0;
        if (!built[i])
            fprintf(stderr, "test_symbols: perf record %s of %s failed\n", events, programs[i].name);
    }
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    return run("rm -rf %s", dir) == 0 ? 0 : -1;
}

/* ---- demangling ---------------------------------------------------------------------------- */

static void expect_demangled(const char *mangled, const char *want)
{
    char *got = demangle_symbol(mangled);
    if (!want) {
        if (got)
            fail_msg("%s: demangled to \"%s\", perf leaves it", mangled, got);
        return;
    }
    if (!got || strcmp(got, want) != 0)
        fail_msg("%s: \"%s\", perf prints \"%s\"", mangled, got ? got : "(not demangled)", want);
    free(got);
}

/* What perf 6.1 prints for these (libiberty's cplus_demangle(name, 0)). */
static void test_demangle(void **state)
{
    (void)state;
    expect_demangled("main", NULL);
    expect_demangled("_ZL4worki", "work");
    expect_demangled("_ZL4worki.cold", "work");
    expect_demangled("_ZN2ns3BoxIiE5twiceEi.constprop.0", "ns::Box<int>::twice");
    expect_demangled("_ZNK2ns3BoxIiE5twiceEi", "ns::Box<int>::twice");
    expect_demangled("_ZSt16__introsort_loopIN9__gnu_cxx17__normal_iteratorIPiSt6vectorIiSaIiEEEElNS0_5__ops"
                     "15_Iter_comp_iterIZL4workiEUliiE_EEEvT_SB_T0_T1_",
                     "std::__introsort_loop<__gnu_cxx::__normal_iterator<int*, std::vector<int, "
                     "std::allocator<int> > >, long, __gnu_cxx::__ops::_Iter_comp_iter<work(int)::"
                     "{lambda(int, int)#1}> >");
    expect_demangled("_ZZ4mainENKUllE_clEl", "main::{lambda(long)#1}::operator()");
    expect_demangled("_ZNSo3putEc@@GLIBCXX_3.4", "std::ostream::put");
    expect_demangled("_ZN12_GLOBAL__N_16hiddenEl", "(anonymous namespace)::hidden");
    expect_demangled("_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc",
                     "std::operator<< <std::char_traits<char> >");
    expect_demangled("_ZN2ns5tfptrIfEEPFvT_ES1_", "ns::tfptr<float>");
    expect_demangled("_ZNK2ns1WIiEcvSt6vectorIiSaIiEEEv", "ns::W<int>::operator std::vector<int, "
                                                            "std::allocator<int> >");
    expect_demangled("_ZTV3Foo", "vtable for Foo");
    expect_demangled("_ZThn8_N3Foo3barEv", "non-virtual thunk to Foo::bar()");
    expect_demangled("_ZThn8_N3Foo3barEv@@V1", NULL);
    expect_demangled("_Z", NULL);
    expect_demangled("_Znotmangled", NULL);
}

/* ---- kallsyms ------------------------------------------------------------------------------ */

static void expect_lookup(const struct symbol_table *t, uint64_t addr, const char *name, uint64_t offset)
{
    const char *got = NULL;
    uint64_t off = 0;
    int r = symbol_table_lookup(t, addr, &got, &off);
    if (!name) {
        if (r == 0)
            fail_msg("%#" PRIx64 ": %s+%#" PRIx64 ", perf finds nothing", addr, got, off);
        return;
    }
    if (r != 0 || strcmp(got, name) != 0 || off != offset)
        fail_msg("%#" PRIx64 ": %s+%#" PRIx64 ", perf finds %s+%#" PRIx64, addr, r ? "(nothing)" : got, off,
                 name, offset);
}

/* perf's rules on a file in /proc/kallsyms's format. */
static void test_kallsyms_rules(void **state)
{
    (void)state;
    write_text(at("kallsyms"),
               "ffffffff81000000 T _stext\n"
               "ffffffff81000000 T _text\n"                    /* all have no size: the last alias of an */
               "ffffffff81000010 W a_weak\n"
               "ffffffff81000010 t a_local\n"                  /* address gets a length, and wins */
               "ffffffff81000040 r rodata_thing\n"             /* read-only data: not read */
               "ffffffff81000080 D data_thing\n"
               "ffffffff81000100 T $arm_mapping\n"             /* '$' names: not read */
               "ffffffff81000200 T last_core\n"                /* before a module: to the page after */
               "ffffffffc0001000 t mod_func\t[mymod]\n"
               "ffffffffc0001100 t mod_last\t[mymod]\n"
               "not a line\n"
               "ffffffffc0002000\n");
    struct symbol_table *t = symbol_table_open_kallsyms_file(at("kallsyms"));
    assert_non_null(t);
    expect_lookup(t, 0xffffffff81000004, "_text", 4);
    expect_lookup(t, 0xffffffff81000050, "a_local", 0x40);
    expect_lookup(t, 0xffffffff81000000, "_text", 0);
    expect_lookup(t, 0xffffffff810000f0, "data_thing", 0x70);
    expect_lookup(t, 0xffffffff81000150, "data_thing", 0xd0);
    expect_lookup(t, 0xffffffff81001fff, "last_core", 0x1dff);
    expect_lookup(t, 0xffffffff81002000, NULL, 0);
    expect_lookup(t, 0xffffffffc0001004, "mod_func", 4);
    expect_lookup(t, 0xffffffffc0002fff, "mod_last", 0x1eff);   /* the last: to the page after its own */
    expect_lookup(t, 0xffffffffc0003000, NULL, 0);
    expect_lookup(t, 0xffffffff80000000, NULL, 0);
    assert_int_equal(symbol_table_printed_address(t, 0xffffffff81000004), 0xffffffff81000004);
    symbol_table_free(t);
}

/* ---- bad input ----------------------------------------------------------------------------- */

static void expect_empty(struct symbol_table *t, const char *what)
{
    if (!t)
        fail_msg("%s: no table", what);
    const char *name;
    uint64_t off;
    if (symbol_table_count(t) != 0 || symbol_table_lookup(t, 0x1000, &name, &off) == 0)
        fail_msg("%s: symbols from bad input", what);
    symbol_table_free(t);
}

/* Set the 8-byte field at FIELD of the section headers of .symtab, .dynsym
 * and .rela.plt of PATH (an ELF64 file) to VALUE (sh_link is 4 bytes). */
static void damage_tables(const char *path, unsigned field, uint64_t value)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    unsigned char eh[64], sh[64];
    assert_int_equal(fread(eh, 1, 64, f), 64);
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&shoff, eh + 40, 8);
    memcpy(&shentsize, eh + 58, 2);
    memcpy(&shnum, eh + 60, 2);
    for (unsigned i = 0; i < shnum; i++) {
        assert_int_equal(fseek(f, (long)(shoff + (uint64_t)i * shentsize), SEEK_SET), 0);
        assert_int_equal(fread(sh, 1, 64, f), 64);
        uint32_t type;
        memcpy(&type, sh + 4, 4);
        if (type != SHT_SYMTAB && type != SHT_DYNSYM && type != SHT_RELA)
            continue;
        memcpy(sh + field, &value, field == 40 ? 4 : 8);
        assert_int_equal(fseek(f, (long)(shoff + (uint64_t)i * shentsize), SEEK_SET), 0);
        assert_int_equal(fwrite(sh, 1, 64, f), 64);
    }
    assert_int_equal(fclose(f), 0);
}

static void test_bad_input(void **state)
{
    (void)state;
    assert_int_equal(run("cd %s && mkdir -p adir && rm -f fifo && mkfifo fifo && : > empty && "
                         "echo text > text && printf '\\177ELF\\002\\001\\001' > short && "
                         "cp /bin/true truecopy && head -c 3000 truecopy > truncated && "
                         "cp truecopy badshdr && printf '\\377\\377\\377\\377' | "
                         "dd of=badshdr bs=1 seek=40 conv=notrunc 2>/dev/null && "
                         "cp truecopy badshnum && printf '\\377\\177' | "
                         "dd of=badshnum bs=1 seek=60 conv=notrunc 2>/dev/null",
                         dir),
                     0);
    static const char *const bad[] = {"adir", "fifo", "empty", "text", "short", "truncated", "badshdr",
                                      "badshnum", "missing"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        expect_empty(symbol_table_open(at(bad[i]), NULL, 0), bad[i]);
        expect_empty(symbol_table_open_kallsyms_file(at(bad[i])), bad[i]);
    }
    /* Section headers that lie: the symbol tables' and the PLT relocations'
     * offsets, sizes, links and entry sizes.  Whatever is read, nothing crashes. */
    static const struct { const char *name; unsigned field; uint64_t value; } damage[] = {
        {"offset", 24, 0x7fffffffffffull}, {"size", 32, 0x7fffffffffffull}, {"link", 40, 0xffff},
        {"entsize", 56, 0}, {"entsize1", 56, 1}};
    for (size_t i = 0; i < sizeof damage / sizeof damage[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "damaged_%s", damage[i].name);
        assert_int_equal(run("cp %s/c_pie %s/%s", dir, dir, name), 0);
        damage_tables(at(name), damage[i].field, damage[i].value);
        struct symbol_table *t = symbol_table_open(at(name), NULL, 0);
        assert_non_null(t);
        const char *sym;
        uint64_t off;
        for (uint64_t a = 0; a < 0x3000; a += 7)
            symbol_table_lookup(t, a, &sym, &off);
        symbol_table_free(t);
    }
    /* A file with the wrong build-id is not read (perf rejects a mismatch). */
    static const uint8_t wrong[20] = {1, 2, 3};
    expect_empty(symbol_table_open("/bin/true", wrong, sizeof wrong), "wrong build-id");
    symbol_table_free(NULL);
}

/* ---- the cache: tables stored and read back ---------------------------------------------- */

/* Every lookup of A's answered the same by B, over [LO, HI) at STRIDE. */
static long same_lookups(const struct symbol_table *a, const struct symbol_table *b, uint64_t lo, uint64_t hi,
                         uint64_t stride)
{
    long named = 0;
    for (uint64_t x = lo; x < hi; x += stride) {
        const char *na = NULL, *nb = NULL;
        uint64_t oa = 0, ob = 0;
        int ra = symbol_table_lookup(a, x, &na, &oa), rb = symbol_table_lookup(b, x, &nb, &ob);
        assert_int_equal(ra, rb);
        assert_int_equal(symbol_table_printed_address(a, x), symbol_table_printed_address(b, x));
        if (ra == 0) {
            assert_string_equal(na, nb);
            assert_int_equal(oa, ob);
            named++;
        }
    }
    return named;
}

static void test_store(void **state)
{
    (void)state;
    /* libc's table (from its debug file when there is one) and a kernel
     * table in /proc/kallsyms's format, stored and read back: the same
     * answer at every address looked at. */
    struct symbol_table *libc = symbol_table_open("/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, 0);
    assert_non_null(libc);
    assert_int_equal(symbol_store_write(libc, at("libc.sym")), 0);
    struct symbol_table *back = symbol_store_read(at("libc.sym"));
    assert_non_null(back);
    assert_int_equal(symbol_table_count(back) > 0, 1);
    assert_string_equal(symbol_table_source(back), symbol_table_source(libc));
    long named = same_lookups(libc, back, 0, 0x200000, 3);
    assert_true(named > 100000);
    FILE *f = fopen(at("kallsyms"), "w");
    fputs("ffffffff81000000 T _stext\nffffffff81000000 T startup_64\nffffffff81000100 t local_fn\n"
          "ffffffff81000200 W weak_fn\nffffffffc0000000 t mod_fn\t[mod]\n", f);
    fclose(f);
    struct symbol_table *k = symbol_table_open_kallsyms_file(at("kallsyms"));
    assert_int_equal(symbol_store_write(k, at("k.sym")), 0);
    struct symbol_table *kb = symbol_store_read(at("k.sym"));
    assert_non_null(kb);
    assert_true(same_lookups(k, kb, 0xffffffff80fff000ull, 0xffffffff81002000ull, 1) > 0);
    assert_true(same_lookups(k, kb, 0xffffffffc0000000ull - 16, 0xffffffffc0001100ull, 1) > 0);
    /* Damaged files are not tables: cut at many lengths, counts changed. */
    assert_int_equal(run("cd %s && for n in 0 1 7 8 40 41 100 1000 10000; do head -c $n k.sym > cut$n.sym; done && "
                         "cp k.sym count.sym && printf '\\377\\377\\377\\377\\377\\377\\377\\177' | "
                         "dd of=count.sym bs=1 seek=8 conv=notrunc 2>/dev/null && "
                         "cp k.sym names.sym && printf '\\001' | dd of=names.sym bs=1 seek=24 conv=notrunc 2>/dev/null",
                         dir),
                     0);
    static const char *const bad[] = {"cut0.sym", "cut1.sym", "cut7.sym", "cut8.sym", "cut40.sym", "cut41.sym",
                                      "cut100.sym", "count.sym", "names.sym", "missing.sym", "kallsyms"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (symbol_store_read(at(bad[i])) != NULL)
            fail_msg("%s read as a table", bad[i]);
    /* An object's table kept by build-id: the second open reads the stored
     * table (the same answers); a change to a file its symbols may come
     * from (here the object itself, touched) stores it again. */
    struct symbol_table *first = symbol_store_object(at("store"), "/usr/lib/x86_64-linux-gnu/libc.so.6",
                                                     NULL, 0);   /* no build-id: not kept */
    assert_int_equal(run("ls %s/store 2>/dev/null | wc -l | grep -qx 0", dir), 0);
    symbol_table_free(first);
    char *hex = output_of("readelf -n /bin/true | awk '/Build ID/ { print $3 }'");
    uint8_t id[20];
    size_t idlen = 0;
    for (unsigned byte; idlen < sizeof id && sscanf(hex + 2 * idlen, "%2x", &byte) == 1; idlen++)
        id[idlen] = (uint8_t)byte;
    free(hex);
    assert_int_equal(idlen, 20);
    assert_int_equal(run("cp /bin/true %s/obj", dir), 0);
    first = symbol_store_object(at("store"), at("obj"), id, idlen);
    assert_int_equal(run("ls %s/store/symbols-*.sym | wc -l | grep -qx 1", dir), 0);
    struct symbol_table *again = symbol_store_object(at("store"), at("obj"), id, idlen);
    assert_non_null(first);
    assert_non_null(again);
    assert_true(symbol_table_count(first) > 0);
    assert_int_equal(symbol_table_count(first), symbol_table_count(again));
    assert_true(same_lookups(first, again, 0, 0x10000, 1) > 0);
    assert_int_equal(run("touch -d '2001-01-01' %s/obj", dir), 0);
    symbol_table_free(symbol_store_object(at("store"), at("obj"), id, idlen));
    assert_int_equal(run("ls %s/store/symbols-*.sym | wc -l | grep -qx 2", dir), 0);
    symbol_table_free(first);
    symbol_table_free(again);
    symbol_table_free(libc);
    symbol_table_free(back);
    symbol_table_free(k);
    symbol_table_free(kb);
}

/* ---- against perf script ------------------------------------------------------------------- */

/* An object's own address for the file offset perf printed, by its
 * program headers; 0 when no PT_LOAD holds it. */
static int own_address(const char *path, uint64_t printed, uint64_t *own)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return 0;
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    size_t n = 0;
    int found = 0;
    if (e && elf_getphdrnum(e, &n) == 0) {
        for (size_t i = 0; i < n; i++) {
            GElf_Phdr p;
            if (gelf_getphdr(e, (int)i, &p) && p.p_type == PT_LOAD && printed >= p.p_offset &&
                printed - p.p_offset < (p.p_filesz + 0xfff) / 0x1000 * 0x1000) {
                *own = printed - p.p_offset + p.p_vaddr;
                found = 1;
            }
        }
    }
    if (e)
        elf_end(e);
    close(fd);
    return found;
}

/* A symbol table per object path seen. */
struct opened {
    char path[1024];
    struct symbol_table *table;
    unsigned agree, total;
    uint64_t *starts;   /* its .symtab's named, defined symbols' values, sorted */
    size_t nstarts;
    int unreadable;     /* perf names a file that cannot be opened here */
};

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Read PATH's .symtab values into O (none when it has no .symtab); a file
 * that cannot be opened is marked unreadable. */
static void read_starts(struct opened *o)
{
    int fd = open(o->path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        o->unreadable = 1;
        fprintf(stderr, "test_symbols: perf names %s, which cannot be opened here: %s\n", o->path, strerror(errno));
        return;
    }
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *scn = NULL;
    while (e && (scn = elf_nextscn(e, scn)) != NULL) {
        GElf_Shdr sh;
        Elf_Data *d;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
            continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        assert_non_null(o->starts = calloc(n + 1, sizeof *o->starts));
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            if (gelf_getsym(d, (int)i, &sym) && sym.st_name && sym.st_shndx != SHN_UNDEF &&
                sym.st_shndx < SHN_LORESERVE && GELF_ST_TYPE(sym.st_info) <= STT_FUNC)
                o->starts[o->nstarts++] = sym.st_value;
        }
        qsort(o->starts, o->nstarts, sizeof *o->starts, by_value);
    }
    if (e)
        elf_end(e);
    close(fd);
}

/* Whether a symbol of O's .symtab starts in (FROM, TO]: then a lookup that
 * took the last symbol starting at or before TO would not name the one
 * starting at FROM. */
static int symbol_between(const struct opened *o, uint64_t from, uint64_t to)
{
    for (size_t i = 0; i < o->nstarts; i++)
        if (o->starts[i] > from && o->starts[i] <= to)
            return 1;
    return 0;
}

struct tally {
    struct opened objects[64];
    size_t nobjects;
    struct symbol_table *kernel, *vdso;
    unsigned kernel_agree, kernel_total, vdso_agree, vdso_total, skipped, differ;
    unsigned unreadable;   /* lines in files perf names that cannot be opened here */
    unsigned descents;   /* lines where perf's tree names an earlier, overlapping symbol */
    unsigned seen[32];   /* lines agreed on of each wanted name */
};

static struct opened *object_of(struct tally *t, const char *path)
{
    for (size_t i = 0; i < t->nobjects; i++)
        if (strcmp(t->objects[i].path, path) == 0)
            return &t->objects[i];
    assert_true(t->nobjects < sizeof t->objects / sizeof t->objects[0]);
    struct opened *o = &t->objects[t->nobjects++];
    snprintf(o->path, sizeof o->path, "%s", path);
    o->table = symbol_table_open(path, NULL, 0);
    assert_non_null(o->table);
    read_starts(o);
    return o;
}

/* The names whose lines show the cases the programs are there for. */
static const char *const wanted[] = {
    "alias_target",                                   /* three names at one address */
    "__GI___qsort_r",                                 /* libc's aliases */
    "cmp", "asm_sized", "asm_label", "asm_nosize", "asm_outer", "hot_with_cold.cold",
    "_init",                                          /* the PLT's header */
    "strlen@plt",
    "__vdso_clock_gettime",
    "(anonymous namespace)::hidden", "ns::Box<int>::twice", "_Unwind_RaiseException", "__cxa_throw",
};
#define NWANTED (sizeof wanted / sizeof wanted[0])

static void note_seen(struct tally *t, const char *name)
{
    for (size_t i = 0; i < NWANTED; i++)
        if (strcmp(name, wanted[i]) == 0)
            t->seen[i]++;
}

/* Whether TABLE names own address OWN as perf did: PRINTED, then SYMBOL
 * ("name+0xoff" or "[unknown]"); a difference is reported.  *NAME and *OFF
 * receive the symbol found. */
static int same_as_perf(struct tally *t, const struct symbol_table *table, uint64_t own, uint64_t printed,
                        const char *symbol, const char *dso, const char **name, uint64_t *off)
{
    char mine[8192];
    uint64_t again = symbol_table_printed_address(table, own);
    if (symbol_table_lookup(table, own, name, off) == 0) {
        snprintf(mine, sizeof mine, "%s+0x%" PRIx64, *name, *off);
    } else {
        *name = NULL;
        snprintf(mine, sizeof mine, "[unknown]");
    }
    if (again == printed && strcmp(mine, symbol) == 0)
        return 1;
    if (t->differ++ < 20)
        fprintf(stderr, "test_symbols: perf: %" PRIx64 " %s (%s)\n              here: %" PRIx64 " %s\n", printed,
                symbol, dso, again, mine);
    return 0;
}

/* One callchain line of perf script: "ADDR SYMBOL+0xOFF (DSO)" or "ADDR [unknown] (DSO)". */
static void check_line(struct tally *t, char *line)
{
    char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t len = strlen(p);
    char *end;
    uint64_t printed = strtoull(p, &end, 16);
    if (len == 0 || end == p || *end != ' ' || p[len - 1] != ')')
        return;
    int depth = 0;   /* the DSO: the parenthesised group at the end */
    char *open = NULL;
    for (char *q = p + len - 1; q > end && !open; q--)
        if ((depth += *q == ')' ? 1 : *q == '(' ? -1 : 0) == 0)
            open = q;
    if (!open || open[-1] != ' ')
        return;
    open[-1] = '\0';
    p[len - 1] = '\0';
    const char *dso = open + 1, *symbol = end + 1, *name;
    uint64_t off;
    /* The kernel's and the vdso's own addresses are the ones perf prints. */
    if (strcmp(dso, "[kernel.kallsyms]") == 0) {
        t->kernel_total++;
        t->kernel_agree += same_as_perf(t, t->kernel, printed, printed, symbol, dso, &name, &off);
        return;
    }
    if (strcmp(dso, "[vdso]") == 0) {
        t->vdso_total++;
        if (same_as_perf(t, t->vdso, printed, printed, symbol, dso, &name, &off)) {
            t->vdso_agree++;
            note_seen(t, name);
        }
        return;
    }
    if (dso[0] != '/') {
        t->skipped++;   /* [unknown]: in no mapping */
        return;
    }
    struct opened *o = object_of(t, dso);
    if (o->unreadable) {
        t->unreadable++;
        return;
    }
    o->total++;
    uint64_t own;
    if (!own_address(dso, printed, &own)) {
        if (t->differ++ < 20)
            fprintf(stderr, "test_symbols: %" PRIx64 " is in no PT_LOAD of %s\n", printed, dso);
        return;
    }
    if (!same_as_perf(t, o->table, own, printed, symbol, dso, &name, &off))
        return;
    o->agree++;
    if (name && symbol_between(o, own - off, own))
        t->descents++;
    if (name)
        note_seen(t, name);
}

static void test_against_perf_script(void **state)
{
    (void)state;
    if (!can_record)
        skip();
    struct tally *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->kernel = symbol_table_open_kallsyms();
    t->vdso = symbol_table_open_vdso();
    assert_non_null(t->kernel);
    assert_non_null(t->vdso);
    size_t recorded = 0;
    for (size_t i = 0; i < NPROGRAMS; i++) {
        if (!built[i])
            continue;
        recorded++;
        char path[64];
        snprintf(path, sizeof path, "%.50s.script", programs[i].name);
        FILE *f = fopen(at(path), "r");
        assert_non_null(f);
        char line[16384];
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            check_line(t, line);
        }
        fclose(f);
    }
    unsigned agree = t->kernel_agree + t->vdso_agree, total = t->kernel_total + t->vdso_total;
    for (size_t i = 0; i < t->nobjects; i++) {
        struct opened *o = &t->objects[i];
        printf("test_symbols: %6u of %6u lines agree: %s (symbols from %s)\n", o->agree, o->total, o->path,
               symbol_table_source(o->table)[0] ? symbol_table_source(o->table) : "nowhere");
        agree += o->agree;
        total += o->total;
        symbol_table_free(o->table);
        free(o->starts);
    }
    printf("test_symbols: %6u of %6u lines agree: [kernel.kallsyms]\n", t->kernel_agree, t->kernel_total);
    printf("test_symbols: %6u of %6u lines agree: [vdso]\n", t->vdso_agree, t->vdso_total);
    printf("test_symbols: %6u of %6u lines agree in all, %u lines of [unknown] (in no mapping) and %u in files "
           "that cannot be opened not compared\n", agree, total, t->skipped, t->unreadable);
    printf("test_symbols: lines of");
    for (size_t i = 0; i < NWANTED; i++)
        printf(" %s %u%s", wanted[i], t->seen[i], i + 1 < NWANTED ? "," : "\n");
    printf("test_symbols: %u lines name a symbol that another, starting later, overlaps at the address "
           "(perf's tree descent, not the last start)\n", t->descents);
    symbol_table_free(t->kernel);
    symbol_table_free(t->vdso);
    int all = total > 0 && agree == total;
    unsigned unreadable = t->unreadable;
    /* The cases the programs make often enough never to miss (strlen@plt
     * and asm_label are met by chance, or by a tree that puts them first). */
    const char *missing = t->descents ? NULL : "a symbol found by perf's tree over a later one";
    for (size_t i = 0; i < NWANTED; i++)
        if (!t->seen[i] && strcmp(wanted[i], "strlen@plt") != 0 && strcmp(wanted[i], "asm_label") != 0)
            missing = wanted[i];
    free(t);
    if (recorded < NPROGRAMS)
        fail_msg("only %zu of %zu programs built and recorded", recorded, NPROGRAMS);
    if (!all)
        fail_msg("%u of %u callchain lines differ from perf script", total - agree, total);
    if (unreadable > total / 100)
        fail_msg("%u lines in files that cannot be opened, against %u compared", unreadable, total);
    if (missing)
        fail_msg("no line of %s: the programs did not meet a case they are there for", missing);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demangle),
        cmocka_unit_test(test_kallsyms_rules),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_store),
        cmocka_unit_test(test_against_perf_script),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
/* SPDX-License-Identifier: Apache-2.0 */
