# dwcheck — one non-recursive Makefile.
#
#   make                 build every front end into build/bin/
#   make check           build and run all tests (unit, golden, bad input, oracle sample)
#   make check-full      the readelf oracle on every system binary
#   make bench           benchmarks, printed as ratios against references run alongside
#   make fuzz            build and run the libFuzzer target over the CFI reader (FUZZ_SECONDS)
#   make install PREFIX=/usr/local
#   make SAN=1 ...       the same with -fsanitize=address,undefined (into build-san/)
#   make run             the README's main job: dwcheck audits the system's core libraries

.DEFAULT_GOAL := all
CC ?= cc
PREFIX ?= /usr/local
SAN ?=
BUILD ?= $(if $(SAN),build-san,build)

# Missing Debian packages are installed before anything is built.
DEPS_STAMP := $(BUILD)/.deps-ok
$(DEPS_STAMP):
	@./install-deps
	@mkdir -p $(@D) && touch $@

PKGS := libelf capstone
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
DWARF_LIBS := -ldwarf -lelf -lz

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT ?= -O2 -g
SANITIZERS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_FLAGS := $(if $(SAN),$(SANITIZERS))
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) $(SAN_FLAGS) -I. -Iinclude $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL := $(SAN_FLAGS) $(LDFLAGS)

# ---- the library: object loading and DWARF semantics --------------------------
LIB_SRCS := \
	object/error.c \
	object/elf_file.c \
	semantics/dwarf_expr.c \
	semantics/unwind_table.c \
	semantics/cfa_program.c \
	semantics/cfi_reader.c \
	semantics/cfi_eval.c \
	semantics/fde_lookup.c \
	semantics/lsda.c \
	semantics/table_print.c \
	synth/x86_decode.c \
	synth/abstract_state.c \
	synth/functions.c \
	synth/synthesize.c \
	synth/program.c \
	verify/rule_eval.c \
	verify/audit_file.c \
	verify/agreement.c \
	verify/check.c \
	report/text_report.c \
	report/sarif_report.c \
	report/html_report.c \
	tools/cli.c

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
LIB := $(BUILD)/libdwcheck.a

TOOLS := dwtable dwsynth dwcheck
TOOL_BINS := $(TOOLS:%=$(BUILD)/bin/%)

UNIT_TESTS := test_byte_reader test_dwarf_expr test_cfa_program test_unwind_table \
	test_abstract_state test_cfi_reader
UNIT_BINS := $(UNIT_TESTS:%=$(BUILD)/tests/%)

.PHONY: all check check-unit check-golden check-bad check-oracle check-synth check-dwcheck check-full bench fuzz \
        install clean run deps
all: $(TOOL_BINS)

deps: $(DEPS_STAMP)

$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -lcmocka -o $@

.SECONDARY:

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---- the corpus: every frame shape, gcc and clang, -O0..-Os, +/- frame pointer ---
include corpus/corpus.mk

# ---- tests ---------------------------------------------------------------------
check: check-unit check-golden check-bad check-oracle check-synth check-dwcheck

check-unit: $(UNIT_BINS)
	@tests/run-unit.sh $(UNIT_BINS)

check-golden: $(TOOL_BINS)
	@tests/golden/run.sh $(BUILD)

$(BUILD)/tests/mutate_cfi: tests/bad/mutate_cfi.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(PKG_LIBS) -o $@

check-bad: $(TOOL_BINS) $(BUILD)/tests/mutate_cfi
	@tests/bad/run.sh $(BUILD)

# A bounded sample of system binaries inside `make check`; all of them in check-full.
ORACLE_SAMPLE ?= 60
check-oracle: $(TOOL_BINS)
	@tests/oracle/run.sh $(BUILD) --sample $(ORACLE_SAMPLE)

check-synth: $(TOOL_BINS) corpus
	@tests/synth/run.sh $(BUILD)

$(BUILD)/tests/inject_fault: tests/check/inject_fault.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(PKG_LIBS) -o $@

check-dwcheck: $(TOOL_BINS) corpus $(BUILD)/tests/inject_fault
	@tests/check/run.sh $(BUILD)

check-full: $(TOOL_BINS)
	@tests/oracle/run.sh $(BUILD) --all

# ---- benchmarks ----------------------------------------------------------------
$(BUILD)/bench/decode_reference: $(BUILD)/obj/bench/decode_reference.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -o $@

bench: $(TOOL_BINS) $(BUILD)/bench/decode_reference
	@bench/dwtable_vs_readelf.sh $(BUILD)
	@bench/dwsynth_vs_decode.sh $(BUILD)

# ---- fuzzing (clang + libFuzzer) -----------------------------------------------
# fuzz_cfi_reader: ELF + .eh_frame/.debug_frame bytes through the semantics path;
# fuzz_synth: machine code through decoding and synthesis.  FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := fuzz_cfi_reader fuzz_synth
FUZZ_BINS := $(FUZZ_TARGETS:%=build-fuzz/%)
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -I. -Iinclude $(PKG_CFLAGS) \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
build-fuzz/%: fuzz/%.c $(LIB_SRCS) $(wildcard semantics/*.h object/*.h synth/*.h) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $< $(LIB_SRCS) $(DWARF_LIBS) $(PKG_LIBS) -o $@

fuzz: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p build-fuzz/corpus-$$t; \
	    echo "== $$t ($(FUZZ_SECONDS) s)"; \
	    build-fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
	        build-fuzz/corpus-$$t fuzz/seeds/$$t || exit 1; \
	done

# ---- install, demo, clean ------------------------------------------------------
install: $(TOOL_BINS)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(TOOL_BINS) $(DESTDIR)$(PREFIX)/bin/

# The README's first command: audit the system's core libraries (dwcheck's
# built-in default); findings are the output, so they do not fail the target.
run: $(TOOL_BINS)
	@$(BUILD)/bin/dwcheck --fail-on=never --html=$(BUILD)/audit
	@echo "HTML report: $(BUILD)/audit/index.html"

clean:
	rm -rf build build-san build-fuzz
