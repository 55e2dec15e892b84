# SPDX-License-Identifier: Apache-2.0
# dwcheck — one non-recursive Makefile.
#
#   make                 build every front end into build/bin/
#   make check           build and run all tests (unit, golden, bad input, oracle sample, the
#                        runtime in signal handlers and threads, trust, baselines), every suite even when
#                        one fails, then a line per suite and the total (tests/run-suites.sh)
#   make check-full      the readelf oracle on every system binary, the CFI encoder's
#                        round trip (decode(encode(H)) == H) over every FDE of them, and
#                        the runtime's signal and thread harness for minutes, then check-package
#   make bench           benchmarks, printed as ratios against references run alongside
#   make fuzz            libFuzzer over the section parser, the CFI reader and synthesis (FUZZ_SECONDS), and
#                        FUZZ_MUTANTS mutated binaries through every front end (check-mutants)
#   make deps            install the Debian packages that are missing (./install-deps, apt-get);
#                        the only target that does: a build that lacks some names them and stops
#   make install PREFIX=/usr/local   tools, and the dwunwind runtime (header, libraries, dwunwind.pc,
#                        the drop-in libunwind in LIBDIR/dwunwind), and the manual pages (man/)
#   make uninstall       removes what make install installed (same PREFIX and DESTDIR)
#   make check-package   Debian packages from debian/ built in a fresh clone, installed, removed
#   make SAN=1 ...       the same with -fsanitize=address,undefined (into build-san/)
#   make run             the README's main job: dwcheck audits the system's core libraries

.DEFAULT_GOAL := all
VERSION := $(shell sed -n 's/^#define DWCHECK_VERSION "\(.*\)"/\1/p' tools/cli.h)
CC ?= cc
CXX ?= c++
PREFIX ?= /usr/local
SAN ?=
BUILD ?= $(if $(SAN),build-san,build)

# The tests and benchmarks load the eh_elfs they build from $(BUILD).  Under a
# sticky directory writable by others (a clone in /tmp), the runtime's rule
# (runtime/trusted_path.h: OpenSSH's StrictModes) refuses them unless
# DWUNWIND_TRUST_STICKY=1 admits such a directory: set here for that clone
# only.  tests/trust checks the rule with and without it.
STICKY_ABOVE := $(shell tests/sticky_above.sh $(BUILD))
ifneq ($(STICKY_ABOVE),)
export DWUNWIND_TRUST_STICKY := 1
endif
# Their temporaries (mktemp, mkdtemp) go to $(BUILD)/tmp, the user's own
# (0700), not to /tmp: an eh_elf or a cache made there passes the same rule
# as the build's.
ifneq ($(filter check% bench%,$(MAKECMDGOALS)),)
export TMPDIR := $(abspath $(BUILD))/tmp
$(shell mkdir -p $(TMPDIR) && chmod 700 $(TMPDIR))
endif

# Only `make deps` installs Debian packages (./install-deps, apt-get); a
# build on a machine that lacks some stops and names them.  With deps among
# the goals (`make deps run`, `make deps check`), everything else waits for
# it: DEPS_FIRST is then an order-only prerequisite of every compile.
INSTALL_DEPS ?= ./install-deps
PKG_CONFIG ?= pkg-config
DEPS_FIRST := $(filter deps,$(MAKECMDGOALS))
deps:
	@$(INSTALL_DEPS)

# The packages' flags, asked of pkg-config once: $(BUILD)/config.mk, a
# makefile that make writes (after deps, when that is a goal) and then
# reads.  Written only if every package the build needs is installed
# (install-deps --check --build asks dpkg, installs nothing).
PKGS := libelf capstone z3 json-c libarchive
CONFIG_MK := $(BUILD)/config.mk
$(CONFIG_MK): Makefile install-deps | $(DEPS_FIRST)
	@missing=$$($(INSTALL_DEPS) --check --build 2>&1) || \
	    { echo "dwcheck: cannot build, $$missing" >&2; echo "run: make deps" >&2; exit 1; }
	@cflags=$$($(PKG_CONFIG) --cflags $(PKGS)) && libs=$$($(PKG_CONFIG) --libs $(PKGS)) || \
	    { echo "$(PKG_CONFIG) finds no $(PKGS); run: make deps" >&2; exit 1; }; \
	mkdir -p $(@D) && printf 'PKG_CFLAGS := %s\nPKG_LIBS := %s\n' "$$cflags" "$$libs" > $@
# Not read for goals that build nothing (clean, uninstall).
ifneq ($(if $(MAKECMDGOALS),$(filter-out clean uninstall,$(MAKECMDGOALS)),all),)
include $(CONFIG_MK)
endif
DWARF_LIBS := -ldwarf -lelf -lz
# profile/symbol_table demangles C++ names as perf does, with libstdc++'s __cxa_demangle.
DWARF_LIBS += -lstdc++

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT ?= -O2 -g
SANITIZERS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_FLAGS := $(if $(SAN),$(SANITIZERS))
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) $(SAN_FLAGS) -I. -Iinclude -I$(BUILD)/gen $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL := $(SAN_FLAGS) $(LDFLAGS)

# ---- the libraries: one archive per stage, linked in layer order ---------------
# The folders are the pipeline (docs/architecture.md): a stage reads only the
# stages above it.  Each is an archive, build/stage/libSTAGE.a, and programs link them
# in the reverse of STAGES (a stage before those it reads).  Each archive is
# also linked whole against the stages above it and the system libraries
# alone (layers.ok, before any program): a dependency that runs back up, or
# sideways to a later stage, is an undefined symbol there and fails the build.
# The front ends' own modules (tools/) are the last stage.
STAGES := sys object semantics synth verify execute report repair annotate compile profile tools
sys_SRCS := \
	sys/error.c \
	sys/signals.c \
	sys/command.c \
	sys/output_file.c
object_SRCS := \
	object/elf_file.c \
	object/code_bounds.c \
	object/elf_rewrite.c \
	object/elf_layout.c \
	object/debug_file.c \
	object/identity.c \
	object/debug_info.c \
	object/object_layout.c \
	runtime/trusted_path.c
semantics_SRCS := \
	semantics/dwarf_expr.c \
	semantics/expr_machine.c \
	semantics/unwind_table.c \
	semantics/cfa_program.c \
	semantics/eh_frame_parse.c \
	semantics/cfi_reader.c \
	semantics/cfi_eval.c \
	semantics/fde_lookup.c \
	semantics/lsda.c \
	semantics/sframe_parse.c \
	semantics/write/cfi_encode.c \
	semantics/write/eh_frame_write.c \
	semantics/write/debug_frame_write.c \
	semantics/write/sframe_write.c \
	semantics/print/cfi_text.c \
	semantics/print/table_print.c \
	semantics/print/sframe_print.c
synth_SRCS := \
	synth/x86_decode.c \
	synth/x86_unknown.c \
	synth/abstract_state.c \
	synth/function_index.c \
	synth/function_code.c \
	synth/landing_pads.c \
	synth/jump_tables.c \
	synth/cfg.c \
	synth/dataflow.c \
	synth/loop_entry.c \
	synth/emit_row.c \
	synth/emit_table.c \
	synth/synthesize.c \
	synth/program.c
verify_SRCS := \
	verify/rules/counterexample.c \
	verify/rules/slot_truth.c \
	verify/rules/linear_expr.c \
	verify/rules/expression_kind.c \
	verify/rules/frame_exit.c \
	verify/rules/own_cfa.c \
	verify/rules/prover.c \
	verify/rules/rule_eval.c \
	verify/sframe/sframe_tables.c verify/sframe/sframe_check.c \
	verify/audit/fde_coverage.c \
	verify/audit/explain.c \
	verify/audit/audit_input.c \
	verify/audit/no_unwind.c \
	verify/audit/agreement.c \
	verify/audit/finding.c \
	verify/audit/finding_identity.c \
	verify/audit/excerpt.c \
	verify/audit/rule_words.c \
	verify/audit/fix.c \
	verify/audit/check.c \
	verify/validated_table.c
execute_SRCS := \
	execute/run_result.c \
	execute/shadow_stack.c \
	execute/row_check.c \
	execute/live_objects.c \
	execute/frame_watch.c \
	execute/audit_select.c \
	execute/breakpoints.c \
	execute/function_select.c \
	execute/selective.c \
	execute/tracer.c \
	execute/static_join.c
report_SRCS := \
	report/run_words.c \
	report/execution_report.c \
	report/run_sarif.c \
	report/run_html.c \
	report/run_explain.c \
	report/json_string.c \
	report/explain_report.c \
	report/table_json.c \
	report/json_report.c \
	report/text_report.c \
	report/sarif_report.c \
	report/html_text.c \
	report/html_window.c \
	report/html_report.c \
	report/json_record.c
repair_SRCS := \
	repair/eh_frame_build.c repair/sframe_build.c \
	repair/repair_report.c \
	repair/repair_file.c
annotate_SRCS := \
	annotate/asm_source.c \
	annotate/asm_build.c \
	annotate/line_map.c \
	annotate/cfi_plan.c \
	annotate/source_rewrite.c \
	annotate/annotate.c
compile_SRCS := \
	compile/eh_elf_gen.c \
	compile/cc_build.c
profile_SRCS := \
	profile/perf_data.c profile/perf_order.c profile/perf_meta.c profile/perf_records.c \
	profile/demangle.c \
	profile/symbol_sources.c \
	profile/symbol_tree.c \
	profile/symbol_table.c \
	profile/symbol_store.c \
	profile/cache_dir.c \
	profile/vdso.c \
	profile/processes.c \
	profile/sample_unwind.c \
	profile/script_output.c \
	profile/compile_queue.c
tools_SRCS := \
	tools/cli.c \
	tools/worker_pool.c \
	tools/run_report.c \
	tools/result_cache.c \
	tools/shard.c \
	tools/merge.c \
	tools/baseline.c \
	tools/inputs.c \
	tools/deb_input.c \
	tools/dwsynth_repair.c

LIB_SRCS := $(foreach s,$(STAGES),$($(s)_SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
STAGE_LIB = $(BUILD)/stage/lib$(1).a
# What programs link: every stage's archive, in link order.
LIB := $(foreach s,$(call reverse,$(STAGES)),$(call STAGE_LIB,$(s)))
LAYERS_OK := $(BUILD)/stage/layers.ok
# Inside the folders, no module reads, through its includes, a module that
# reads it (mk/module_cycles.sh: a module is NAME.c and NAME.h): modules.ok,
# checked before anything is compiled, fails on a cycle and names its files.
PRODUCT_FOLDERS := $(STAGES) runtime compat
MODULES_OK := $(BUILD)/stage/modules.ok

TOOLS := dwtable dwsynth dwcheck dwcompile dwperf
TOOL_BINS := $(TOOLS:%=$(BUILD)/bin/%)

# ---- the runtime: libdwunwind (libc and libdl only) ----------------------------
RUNTIME_SRCS := runtime/objects.c runtime/startup_objects.c runtime/stack_bounds.c runtime/eh_elf_file.c runtime/eh_elf_find.c runtime/dwarf_fallback.c runtime/row_memo.c \
	runtime/unwind.c runtime/object_file.c runtime/space.c runtime/trusted_path.c \
	semantics/cfa_program.c semantics/dwarf_expr.c semantics/expr_machine.c semantics/eh_frame_parse.c semantics/unwind_table.c
RUNTIME_OBJS := $(RUNTIME_SRCS:%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/runtime/capture.o
# The shared library is libdwunwind.so.MAJOR.MINOR.PATCH (VERSION), with
# SONAME libdwunwind.so.MAJOR, and two links: libdwunwind.so.MAJOR, which
# programs load, and libdwunwind.so, which -ldwunwind links against.  Its
# ABI is dwunwind.h's API as runtime/dwunwind.map exports it (NEWS says
# what may change before 1.0).
RUNTIME_A := $(BUILD)/lib/libdwunwind.a
SO_MAJOR := $(firstword $(subst ., ,$(VERSION)))
RUNTIME_SONAME := libdwunwind.so.$(SO_MAJOR)
RUNTIME_SO_FILE := libdwunwind.so.$(VERSION)
RUNTIME_SO := $(BUILD)/lib/libdwunwind.so

# ---- the drop-in libunwind (compat/): libunwind 1.6's API over the runtime ------
# libunwind.so.8 (the local API, SONAME libunwind.so.8: the runtime's objects
# and compat/'s) and libunwind-x86_64.so.8 (the names of programs built
# without UNW_LOCAL_ONLY; their remote API handed to Debian's library,
# LIBUNWIND_REMOTE), in build/lib/dwunwind/ and, installed, in
# $(COMPATDIR): a program built with -lunwind runs on them with
# LD_LIBRARY_PATH=$(COMPATDIR).  libc only, as the runtime (-z defs:
# nothing left undefined); libunwind-x86_64.so.8 finds libunwind.so.8 next
# to it (RUNPATH $$ORIGIN).
COMPAT_SRCS := compat/libunwind.c compat/unw_cursor.c compat/unw_rows.c compat/unw_proc_info.c compat/unw_symbols.c \
	compat/unw_reg_states.c compat/unwind_abi.c compat/throw_memo.c compat/registered_frames.c
COMPAT_OBJS := $(COMPAT_SRCS:%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/compat/unw_context.o
COMPAT_SO := $(BUILD)/lib/dwunwind/libunwind.so.8
COMPAT_GENERIC_SO := $(BUILD)/lib/dwunwind/libunwind-x86_64.so.8
LIBUNWIND_REMOTE ?= /usr/lib/x86_64-linux-gnu/libunwind-x86_64.so.8
COMPAT_LDFLAGS := $(if $(SAN),,-Wl,-z,defs)

UNIT_TESTS := test_byte_reader test_dwarf_expr test_cfa_program test_eh_frame_parse test_unwind_table \
	test_abstract_state test_dataflow test_emit_row test_cfi_reader test_x86_unknown test_finding \
	test_worker_pool test_slot_truth test_cfi_encode test_eh_frame_write test_elf_rewrite test_debug_frame_write test_debug_file \
	test_perf_data test_sframe_parse test_symbols test_sframe_write test_prover test_eh_elf_gen test_x86_decode \
	test_jump_tables test_landing_pads test_check test_kit
UNIT_BINS := $(UNIT_TESTS:%=$(BUILD)/tests/%)

.PHONY: all check check-modules check-signals check-profile check-sframe check-repair check-bugs check-fuzz check-prove check-setup check-unit check-golden check-bad check-oracle check-synth check-dwcheck check-unwind check-annotate check-readme check-full bench fuzz \
        check-mutants fuzz-mutants mutants-tools install install-tools install-runtime uninstall clean run deps
all: $(TOOL_BINS) $(LAYERS_OK) $(RUNTIME_A) $(RUNTIME_SO) $(COMPAT_SO) $(COMPAT_GENERIC_SO)

$(BUILD)/obj/%.o: %.c | $(DEPS_FIRST) $(MODULES_OK)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

# The public header, as a C string for the generated eh_elf code.
$(BUILD)/gen/dwunwind_h.inc: runtime/dwunwind.h
	@mkdir -p $(@D)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/obj/compile/eh_elf_gen.o: $(BUILD)/gen/dwunwind_h.inc

$(BUILD)/pic/%.o: %.c | $(DEPS_FIRST) $(MODULES_OK)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(HOT_LOOP_FLAGS) $(OBJ_DEFS) -fPIC -MMD -MP -c $< -o $@
# The walk's loop, aligned whatever code the library is linked after: where
# it falls across fetch blocks moves a frame's cost by 15% (6.0 against
# 7.1 ns in make bench's deep chain).
$(BUILD)/pic/runtime/unwind.o: HOT_LOOP_FLAGS := -falign-functions=64 -falign-loops=32
$(BUILD)/pic/%.o: %.S | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) $(SAN_FLAGS) -I. -MMD -MP -c $< -o $@
$(RUNTIME_A): $(RUNTIME_OBJS)
	@mkdir -p $(@D) && rm -f $@
	ar rcs $@ $^
# One rule makes the file and its links (the Makefile names the version).
$(RUNTIME_SO): $(RUNTIME_OBJS) runtime/dwunwind.map Makefile
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) -shared -Wl,-soname,$(RUNTIME_SONAME) -Wl,--version-script=runtime/dwunwind.map \
	    $(RUNTIME_OBJS) -ldl -lpthread -o $(@D)/$(RUNTIME_SO_FILE)
	ln -sfn $(RUNTIME_SO_FILE) $(@D)/$(RUNTIME_SONAME)
	ln -sfn $(RUNTIME_SONAME) $@

# It exports libgcc's _Unwind_* interface too (compat/unwind_abi.c), with
# libgcc_s's symbol versions (the map), so that a C++ program run with it
# in LD_PRELOAD throws through the runtime; libunwind's names stay
# unversioned, as Debian's: exported by their visibility (compat/ is
# built with hidden visibility, the runtime's names kept local).
$(COMPAT_OBJS): OBJ_DEFS := -fvisibility=hidden
$(COMPAT_OBJS): Makefile
$(COMPAT_SO): $(COMPAT_OBJS) $(RUNTIME_A) compat/libunwind.map Makefile
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) -shared -Wl,-soname,libunwind.so.8 -Wl,--version-script=compat/libunwind.map \
	    $(COMPAT_LDFLAGS) $(COMPAT_OBJS) -Wl,--whole-archive $(RUNTIME_A) -Wl,--no-whole-archive \
	    -Wl,--exclude-libs,ALL -ldl -lpthread -o $@
$(BUILD)/pic/compat/libunwind_generic.o: OBJ_DEFS := -DLU_REMOTE_LIBRARY='"$(LIBUNWIND_REMOTE)"'
$(COMPAT_GENERIC_SO): $(BUILD)/pic/compat/libunwind_generic.o $(COMPAT_SO) compat/libunwind-x86_64.map Makefile
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) -shared -Wl,-soname,libunwind-x86_64.so.8 -Wl,-rpath,'$$ORIGIN' \
	    -Wl,--version-script=compat/libunwind-x86_64.map $(COMPAT_LDFLAGS) $< $(COMPAT_SO) -ldl -lpthread -o $@

define stage_archive
$(call STAGE_LIB,$(1)): $$($(1)_SRCS:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $$(@D) && rm -f $$@
	ar rcs $$@ $$^
endef
$(foreach s,$(STAGES),$(eval $(call stage_archive,$(s))))

$(MODULES_OK): mk/module_cycles.sh $(wildcard $(foreach f,$(PRODUCT_FOLDERS),$(f)/*.[chS] $(f)/*/*.[chS]))
	@mkdir -p $(@D)
	@mk/module_cycles.sh $(PRODUCT_FOLDERS) >&2 || \
	    { echo "the build stops: modules above read each other; break each cycle with a header" \
	        "of types only, a callback, or the dependency turned around (docs/architecture.md)" >&2; exit 1; }
	@touch $@

# Each stage whole, then the stages above it (nearest first), then the system.
$(LAYERS_OK): $(LIB) $(RUNTIME_A) $(MODULES_OK)
	@printf 'int main(void) { return 0; }\n' > $(BUILD)/stage/main.c
	@$(CC) -c $(BUILD)/stage/main.c -o $(BUILD)/stage/main.o
	@above=; for s in $(STAGES); do \
	    $(CC) $(LDFLAGS_ALL) $(BUILD)/stage/main.o -Wl,--whole-archive $(BUILD)/stage/lib$$s.a \
	        -Wl,--no-whole-archive $$above $(RUNTIME_A) $(DWARF_LIBS) $(PKG_LIBS) -ldl -lpthread -o $(BUILD)/stage/layer-check \
	        2> $(BUILD)/stage/layer-check.log || { \
	        echo "$$s/ uses a stage it may not read (the order is $(STAGES)):" >&2; \
	        { grep -o "undefined reference to .*" $(BUILD)/stage/layer-check.log || \
	          cat $(BUILD)/stage/layer-check.log; } | sort -u >&2; exit 1; }; \
	    above="$(BUILD)/stage/lib$$s.a $$above"; \
	done
	@rm -f $(BUILD)/stage/layer-check
	@touch $@

$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $(LIB) $(LAYERS_OK)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -o $@

# dwperf unwinds with the runtime (address spaces), linked in statically.
$(BUILD)/bin/dwperf: $(BUILD)/obj/tools/dwperf.o $(LIB) $(LAYERS_OK) $(RUNTIME_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(LIB) $(RUNTIME_A) $(DWARF_LIBS) $(PKG_LIBS) -ldl -lpthread -o $@

# Every cmocka binary links tests/unit/line_buffered.c (its messages stay in order).
UNIT_MAIN := $(BUILD)/obj/tests/unit/line_buffered.o
$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(UNIT_MAIN) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(UNIT_MAIN) $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -lcmocka -o $@

.SECONDARY:

-include $(shell find $(BUILD)/obj $(BUILD)/pic $(BUILD)/bench -name '*.d' 2>/dev/null)

# ---- the corpus: every frame shape, gcc and clang, -O0..-Os, +/- frame pointer ---
include corpus/corpus.mk

# ---- tests ---------------------------------------------------------------------
# The suites run one after another, every one even when one fails
# (tests/run-suites.sh): a line per suite, then the whole run's.
CHECK_SUITES := check-setup check-modules check-unit check-golden check-bad check-oracle check-synth check-dwcheck check-run check-unwind \
	check-annotate check-repair check-readme check-prove check-bugs check-mutants check-fuzz check-merge \
	check-profile check-sframe check-trust check-signals check-libunwind check-unwind-abi check-register-frame check-man check-baseline check-license
# The test packages too (install-deps --check): `make deps check` on a fresh machine.
check: | $(DEPS_FIRST)
	@missing=$$($(INSTALL_DEPS) --check 2>&1) || \
	    { echo "make check: $$missing" >&2; echo "run: make deps" >&2; exit 1; }
	@$(if $(STICKY_ABOVE),echo "make check: $(BUILD) is under the sticky directory $(firstword $(STICKY_ABOVE)): DWUNWIND_TRUST_STICKY=1")
	@MAKE='$(MAKE)' BUILD='$(BUILD)' tests/run-suites.sh $(CHECK_SUITES)

# The first `make` on a machine without the packages (stand-ins for apt and pkg-config).
check-setup:
	@tests/setup/run.sh

# The build's checks of modules: each export named by its module
# (mk/name_prefixes.sh), which fails here on a name that breaks the rule;
# then no module cycle, both checks shown to find what they look for.
check-modules:
	@mk/name_prefixes.sh $(PRODUCT_FOLDERS) kit
	@tests/modules/run.sh $(BUILD)

check-unit: $(UNIT_BINS)
	@tests/run-unit.sh $(UNIT_BINS)

check-golden: $(TOOL_BINS)
	@tests/golden/run.sh $(BUILD)

$(BUILD)/tests/mutate_cfi: tests/bad/mutate_cfi.c | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(PKG_LIBS) -o $@

$(BUILD)/tests/mutate_headers: tests/bad/mutate_headers.c | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(PKG_LIBS) -o $@

check-bad: $(TOOL_BINS) $(BUILD)/tests/mutate_cfi $(BUILD)/tests/mutate_headers
	@tests/bad/run.sh $(BUILD)
	@SAN="$(SAN)" tests/bad/bounds.sh $(BUILD)
	@tests/bad/outputs.sh $(BUILD)

# Mutants of real binaries (headers, .eh_frame, .eh_frame_hdr, .plt*, symbols)
# through every front end under ASan+UBSan, 20 s and 2 GiB a run: see
# fuzz/mutants.sh.  Only a sanitizer build can tell, so the tools are always
# a SAN build's: build-san, made here if needed, or $(BUILD) under SAN=1.
# `make check` runs MUTANTS of them, `make SAN=1 check` the next MUTANTS (CI
# runs both: together they add up), and `make fuzz` FUZZ_MUTANTS.
MUTANTS ?= 300
MUTANTS_FROM ?= $(if $(SAN),$(MUTANTS),0)
FUZZ_MUTANTS ?= 3000
MUTANTS_BUILD := $(if $(SAN),$(BUILD),build-san)
$(BUILD)/tests/mutate_elf: fuzz/mutate_elf.c | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< -o $@
mutants-tools: $(TOOL_BINS) $(BUILD)/tests/mutate_elf
check-mutants: $(if $(SAN),mutants-tools)
	$(if $(SAN),,@$(MAKE) --no-print-directory SAN=1 BUILD=$(MUTANTS_BUILD) mutants-tools)
	@fuzz/mutants.sh $(MUTANTS_BUILD) --count $(MUTANTS) --from $(MUTANTS_FROM)
fuzz-mutants: $(if $(SAN),mutants-tools)
	$(if $(SAN),,@$(MAKE) --no-print-directory SAN=1 BUILD=$(MUTANTS_BUILD) mutants-tools)
	@fuzz/mutants.sh $(MUTANTS_BUILD) --count $(FUZZ_MUTANTS) --from 0

# A bounded sample of system binaries inside `make check`; all of them in check-full.
ORACLE_SAMPLE ?= 60
check-oracle: $(TOOL_BINS) $(BUILD)/tests/frame_parse_libdwarf
	@tests/oracle/run.sh $(BUILD) --sample $(ORACLE_SAMPLE)

# The section parser against libdwarf, file by file (tests/oracle/run.sh runs it).
$(BUILD)/tests/frame_parse_libdwarf: tests/oracle/frame_parse_libdwarf.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -o $@

# Expression rules of known truth that sampling cannot decide: z3's verdicts
# and counterexamples, checked by an evaluator of the test's own.
check-prove: $(TOOL_BINS) corpus
	@tests/prove/run.sh $(BUILD)

# Table bugs of Debian's libraries that dwcheck finds, shown by a debugger and
# by libgcc's unwinder from inside the faulty ranges (docs/bugs).
check-bugs:
	@sh docs/bugs/run-all.sh > $(BUILD)/bugs.log 2>&1; rc=$$?; \
	    sed -n '/^=== summary/,$$p' $(BUILD)/bugs.log; \
	    [ $$rc -eq 0 ] || { cat $(BUILD)/bugs.log; exit 1; }

check-synth: $(TOOL_BINS) corpus
	@tests/synth/run.sh $(BUILD)

$(BUILD)/tests/inject_fault: tests/check/inject_fault.c | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(PKG_LIBS) -o $@

# What the front ends ask of the system, changed or watched (a machine with
# more cores, the files opened: tests/check/front_ends.sh).  Preloaded into
# sanitized tools too, so built without the sanitizers.
$(BUILD)/tests/preload.so: tests/check/preload.c | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 $(WARN) -fPIC -shared $< -ldl -o $@

check-dwcheck: $(TOOL_BINS) corpus $(BUILD)/tests/inject_fault $(BUILD)/tests/preload.so
	@tests/check/run.sh $(BUILD)
	@tests/check/fixes.sh $(BUILD)
	@tests/check/front_ends.sh $(BUILD)
	@tests/check/inputs.sh $(BUILD)

# The licence: LICENSE, and an SPDX line in every source file.
# dwcheck --run: hand-written assembly whose wrong CFI only a run can refute
# (a dynamic stack adjustment, a signal handler), its right twin and
# ordinary programs (threads, longjmp, signals, fork, exec) clean, their
# output and exit status their own (tests/run).
.PHONY: check-run
check-run: $(TOOL_BINS)
	@tests/run/run.sh $(BUILD)

check-license:
	@tests/license/run.sh

# Baselines and SARIF for code scanning, on a project with CFI bugs (tests/baseline).
check-baseline: $(TOOL_BINS)
	@tests/baseline/run.sh $(BUILD)

# Unwinding: dwunwind (eh_elfs and the DWARF fallback) against libgcc and libunwind.
# libunwind exports libgcc's _Unwind_* names too: libgcc_s comes first, so that
# C++ exceptions keep libgcc's unwinder, as in any program not built for libunwind.
LIBGCC_FIRST := -Wl,--push-state,--no-as-needed -lgcc_s -Wl,--pop-state
$(BUILD)/tests/check_unwind: tests/unwind/check_unwind.c tests/unwind/frames.c tests/unwind/frames.h \
		tests/unwind/libgcc_walk.c tests/unwind/libgcc_walk.h $(RUNTIME_A)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) $(SAN_FLAGS) -I. tests/unwind/check_unwind.c tests/unwind/frames.c \
	    tests/unwind/libgcc_walk.c \
	    $(RUNTIME_A) $(LIBGCC_FIRST) -lunwind -ldl -lpthread -o $@

$(BUILD)/tests/check_space: tests/unwind/check_space.c tests/unwind/frames.c tests/unwind/frames.h $(RUNTIME_A)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) $(SAN_FLAGS) -I. tests/unwind/check_space.c tests/unwind/frames.c \
	    $(RUNTIME_A) -ldl -lpthread -o $@

# unwind.c built in again with its test hook (the archive's copy is then
# not linked): a handler made to interrupt a walk where it holds its cache.
$(BUILD)/tests/nested_walk: tests/unwind/nested_walk.c runtime/unwind.c tests/unwind/libgcc_walk.c $(RUNTIME_A)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) $(SAN_FLAGS) -I. -DDWU_TEST_NESTED_WALK tests/unwind/nested_walk.c \
	    runtime/unwind.c tests/unwind/libgcc_walk.c $(RUNTIME_A) $(LIBGCC_FIRST) -ldl -lpthread -o $@

$(BUILD)/tests/fabricated_stacks: tests/unwind/fabricated_stacks.c $(RUNTIME_A)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) $(SAN_FLAGS) -I. $< $(RUNTIME_A) -ldl -lpthread -o $@

# The C generator's unit test runs what it generates against the runtime's interpreter.
$(BUILD)/tests/test_eh_elf_gen: $(BUILD)/obj/tests/unit/test_eh_elf_gen.o $(UNIT_MAIN) $(BUILD)/pic/runtime/dwarf_fallback.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(UNIT_MAIN) $(BUILD)/pic/runtime/dwarf_fallback.o $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -lcmocka -ldl -o $@

$(BUILD)/tests/eh_elf_equiv: tests/unwind/eh_elf_equiv.c tests/unwind/synthetic_memory.h $(BUILD)/pic/runtime/dwarf_fallback.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(BUILD)/pic/runtime/dwarf_fallback.o $(LIB) $(DWARF_LIBS) -ldl -o $@

$(BUILD)/tests/eh_elf_check: tests/unwind/eh_elf_check.c $(BUILD)/pic/runtime/eh_elf_file.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(BUILD)/pic/runtime/eh_elf_file.o -ldl -o $@

# Without the sanitizers, also make bench's sampled stacks, briefly (run.sh, 7.).
check-unwind: $(TOOL_BINS) $(BUILD)/tests/check_unwind $(BUILD)/tests/check_space $(BUILD)/tests/eh_elf_equiv $(BUILD)/tests/eh_elf_check \
		$(BUILD)/tests/fabricated_stacks $(BUILD)/tests/nested_walk corpus \
		$(if $(SAN),,$(BUILD)/bench/unwind_bench)
	@SAN_FLAGS="$(SAN_FLAGS)" tests/unwind/run.sh $(BUILD)

# The runtime where unwinders are used (tests/unwind/harness.sh): signal
# handlers during dlopen/dlclose churn, malloc and stdio, the first call in a
# handler, handlers interrupting a walk; an object loaded at an unloaded
# one's address; 16 threads walking while others load and unload
# libraries, against libgcc, and the same under ThreadSanitizer
# (tests/unwind/tsan.sh).  Short here; check-full runs it for minutes.
# Not under the sanitizers, whose runtime is not async-signal-safe.
check-signals: $(TOOL_BINS) $(RUNTIME_A)
	$(if $(SAN),@echo "signals: skipped under the sanitizers (their runtime is not async-signal-safe)",\
	    @BUILD=$(BUILD) tests/unwind/harness.sh $(BUILD)/tests/harness && tests/unwind/tsan.sh $(BUILD)/tests/harness)

# The drop-in libunwind (compat/) against Debian's libunwind: programs
# written against its API print the same with either (tests/libunwind).
.PHONY: check-libunwind
check-libunwind: $(TOOL_BINS) $(RUNTIME_A) $(COMPAT_SO) $(COMPAT_GENERIC_SO)
	@SAN_FLAGS="$(SAN_FLAGS)" COMPAT_SRCS="$(COMPAT_SRCS)" tests/libunwind/run.sh $(BUILD)

# libgcc's _Unwind_* interface in the drop-in: C++ programs run with it in
# LD_PRELOAD throw, clean up and backtrace as with libgcc_s, and through a
# library without tables once its --repair eh_elf is there (tests/unwind_abi).
.PHONY: check-unwind-abi
check-unwind-abi: $(TOOL_BINS) $(RUNTIME_A) $(COMPAT_SO)
	@SAN_FLAGS="$(SAN_FLAGS)" COMPAT_SRCS="$(COMPAT_SRCS)" tests/unwind_abi/run.sh $(BUILD)

# libgcc's __register_frame family in the drop-in: code made at run time,
# its .eh_frame registered, unwinds with it preloaded as with libgcc_s
# (tests/register_frame).
.PHONY: check-register-frame
check-register-frame: $(RUNTIME_A) $(COMPAT_SO)
	@SAN_FLAGS="$(SAN_FLAGS)" COMPAT_SRCS="$(COMPAT_SRCS)" tests/register_frame/run.sh $(BUILD)

# Annotation: planning units, then dwsynth annotate on hand-written assembly
# (exceptions, gdb and dwcheck on the result).
$(BUILD)/tests/test_annotate: $(BUILD)/obj/tests/annotate/test_annotate.o $(UNIT_MAIN) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(UNIT_MAIN) $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -lcmocka -o $@

check-annotate: $(TOOL_BINS) $(BUILD)/tests/test_annotate
	@tests/run-unit.sh $(BUILD)/tests/test_annotate
	@tests/annotate/run.sh $(BUILD)

# dwsynth repair judged by libgcc, gdb and dwcheck on the copies it writes.
check-repair: $(TOOL_BINS) $(RUNTIME_A) $(BUILD)/tests/eh_elf_equiv corpus
	@SAN_FLAGS="$(SAN_FLAGS)" tests/repair/run.sh $(BUILD)

# The console examples of README.md and docs/*.md, run and compared with what they show.
check-readme: $(TOOL_BINS)
	@tests/readme/run.sh $(BUILD)

# The manual pages: every long option of each tool's --help in its page,
# the sections, and no warning when man or groff renders them.
.PHONY: check-man check-license check-baseline
check-man: $(TOOL_BINS)
	@tests/man/run.sh $(BUILD)

# Beyond one machine: JSON lines read back, cache entries and shards (cmocka),
# then two shards under GNU parallel merged against one run, --cache (a
# second run audits nothing, a damaged entry is audited again), --merge's
# handling of malformed lines.
$(BUILD)/tests/test_merge_units: $(BUILD)/obj/tests/merge/test_merge_units.o $(UNIT_MAIN) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(UNIT_MAIN) $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -lcmocka -o $@

check-merge: $(TOOL_BINS) $(BUILD)/tests/test_merge_units
	@tests/run-unit.sh $(BUILD)/tests/test_merge_units
	@tests/merge/run.sh $(BUILD)

# dwperf against perf script on recordings made here (tests/profile).
check-profile: $(TOOL_BINS) corpus
	@tests/profile/run.sh $(BUILD)

# SFrame: the reader against readelf --sframe and libsframe (tests/sframe).
check-sframe: $(TOOL_BINS)
	@tests/sframe/run.sh $(BUILD)

# Trust: no eh_elf, cache entry or symbol table another user could have
# written is used (tests/trust: as root, with a second user).
.PHONY: check-trust
check-trust: $(TOOL_BINS) $(RUNTIME_A)
	@SAN_FLAGS="$(SAN_FLAGS)" tests/trust/run.sh $(BUILD)

# The Debian packages (debian/): built by dpkg-buildpackage in a fresh clone
# of HEAD, installed, used and removed (tests/package, as root).  It builds
# the whole project again, so not in make check; check-full runs it last.
.PHONY: check-package
check-package:
	@tests/package/run.sh

check-full: $(TOOL_BINS) $(BUILD)/tests/frame_parse_libdwarf $(BUILD)/tests/test_cfi_encode $(RUNTIME_A)
	@HARNESS_LONG=1 BUILD=$(BUILD) tests/unwind/harness.sh $(BUILD)/tests/harness-long
	@tests/oracle/run.sh $(BUILD) --all
	@$(BUILD)/tests/test_cfi_encode $$(for f in /usr/lib/x86_64-linux-gnu/*.so* /usr/bin/*; do \
	    [ -f "$$f" ] && [ "$$(head -c4 "$$f" | od -An -c | tr -d ' ')" = '177ELF' ] && echo "$$f"; done)
	@tests/package/run.sh

# ---- benchmarks ----------------------------------------------------------------
$(BUILD)/bench/decode_reference: $(BUILD)/obj/bench/decode_reference.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) $< $(LIB) $(DWARF_LIBS) $(PKG_LIBS) -o $@

# Unwinding: the deep chain of tests/unwind/frames.c (also built with frame
# pointers and without libc's frames) and the corpus programs as the workload
# sampled by a profiling timer.
BENCH_CORPUS := recursion many_registers large_frames alloca_vla switch_tables varargs aligned_locals
BENCH_CORPUS_OBJS := $(BENCH_CORPUS:%=$(BUILD)/bench/corpus/%.o)
$(BUILD)/bench/corpus/%.o: corpus/%.c | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) -O2 -g -w -Dmain=corpus_$* -c $< -o $@
$(BUILD)/bench/corpus/exceptions.o: bench/corpus_exceptions.cc corpus/exceptions.cc | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CXX) -O2 -g -w -I. -c $< -o $@
$(BUILD)/bench/z3_workload.o: bench/z3_workload.c | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) -c $< -o $@
$(BUILD)/bench/frames.o: tests/unwind/frames.c tests/unwind/frames.h | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) -c $< -o $@
$(BUILD)/bench/frames_fp.o: tests/unwind/frames.c tests/unwind/frames.h | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) -DFRAMES_NO_LIBC -fno-omit-frame-pointer -c $< -o $@
BENCH_OBJS := $(BUILD)/bench/frames.o $(BUILD)/bench/frames_fp.o $(BENCH_CORPUS_OBJS) \
	$(BUILD)/bench/corpus/exceptions.o $(BUILD)/bench/z3_workload.o $(BUILD)/bench/libgcc_walk.o
$(BUILD)/bench/libgcc_walk.o: tests/unwind/libgcc_walk.c tests/unwind/libgcc_walk.h | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) -c $< -o $@
$(BUILD)/bench/recorded_stacks.o: bench/recorded_stacks.c | $(DEPS_FIRST)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(WARN) -I. -MMD -MP -c $< -o $@
# libunwind-x86_64: libunwind's remote API, which unwinds the recorded stacks.
$(BUILD)/bench/unwind_bench: bench/unwind_bench.c $(BENCH_OBJS) $(BUILD)/bench/recorded_stacks.o $(RUNTIME_A)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -fno-omit-frame-pointer $(WARN) -Wno-missing-prototypes -I. -MMD -MP $< $(BENCH_OBJS) \
	    $(BUILD)/bench/recorded_stacks.o $(RUNTIME_A) -lz3 -lstdc++ $(LIBGCC_FIRST) -lunwind -lunwind-x86_64 \
	    -ldl -lpthread -o $@

# perf.data samples unwound by libunwind's remote API and by a dwunwind space.
$(BUILD)/bench/perf_unwind_bench: bench/perf_unwind_bench.c $(LIB) $(RUNTIME_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes $< $(LIB) $(RUNTIME_A) $(DWARF_LIBS) $(PKG_LIBS) \
	    -lunwind -lunwind-x86_64 -ldl -lpthread -o $@

bench: $(TOOL_BINS) $(BUILD)/bench/decode_reference $(BUILD)/bench/unwind_bench $(BUILD)/bench/perf_unwind_bench $(RUNTIME_SO) corpus \
		$(COMPAT_SO) $(COMPAT_GENERIC_SO)
	@bench/dwtable_vs_readelf.sh $(BUILD)
	@bench/dwsynth_vs_decode.sh $(BUILD)
	@bench/unwind.sh $(BUILD)
	@bench/backtrace.sh $(BUILD)
	@bench/libunwind_dropin.sh $(BUILD)
	@bench/unwind_abi.sh $(BUILD)
	@bench/dwperf.sh $(BUILD)
	@bench/run_only.sh $(BUILD)

# ---- fuzzing (clang + libFuzzer) -----------------------------------------------
# fuzz_eh_frame_parse: section bytes through the one parser, as cfi_reader and
# the runtime's fallback call it; fuzz_cfi_reader: ELF + .eh_frame/.debug_frame
# bytes through the semantics path; fuzz_synth: machine code through decoding
# and synthesis.  FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := fuzz_eh_frame_parse fuzz_cfi_reader fuzz_synth fuzz_perf_data fuzz_sframe_parse
FUZZ_BINS := $(FUZZ_TARGETS:%=build-fuzz/%)
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -I. -Iinclude -I$(BUILD)/gen $(PKG_CFLAGS) \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# The parser's target links the parser alone: nothing else can hide a read.
build-fuzz/fuzz_eh_frame_parse: fuzz/fuzz_eh_frame_parse.c semantics/eh_frame_parse.c $(wildcard semantics/*.h)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $< semantics/eh_frame_parse.c -o $@
# The perf.data reader's and the SFrame reader's targets link those readers alone too.
PERF_READER_SRCS := profile/perf_data.c profile/perf_order.c profile/perf_meta.c profile/perf_records.c
build-fuzz/fuzz_perf_data: fuzz/fuzz_perf_data.c $(PERF_READER_SRCS) $(wildcard profile/perf_*.h)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $< $(PERF_READER_SRCS) -o $@
SFRAME_READER_SRCS := semantics/sframe_parse.c semantics/print/sframe_print.c semantics/unwind_table.c \
	semantics/write/cfi_encode.c semantics/dwarf_expr.c semantics/expr_machine.c
build-fuzz/fuzz_sframe_parse: fuzz/fuzz_sframe_parse.c $(SFRAME_READER_SRCS) $(wildcard semantics/*.h semantics/*/*.h)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $< $(SFRAME_READER_SRCS) -o $@
# The others link the libraries' sources, but for dwperf's stages (which
# need the runtime).
FUZZ_LIB_SRCS := $(filter-out profile/%,$(LIB_SRCS))
build-fuzz/%: fuzz/%.c $(FUZZ_LIB_SRCS) $(wildcard sys/*.h semantics/*.h semantics/*/*.h object/*.h synth/*.h) \
		$(BUILD)/gen/dwunwind_h.inc \
		| $(DEPS_FIRST)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $< $(FUZZ_LIB_SRCS) $(DWARF_LIBS) $(PKG_LIBS) -o $@

# Inside make check: every target builds and replays its seeds (the parser's
# include inputs that once crashed it), and the parser is fuzzed for
# FUZZ_CHECK_SECONDS from its seeds.
FUZZ_CHECK_SECONDS ?= 30
check-fuzz: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
	    build-fuzz/$$t fuzz/seeds/$$t/* > build-fuzz/$$t.replay.log 2>&1 \
	        || { tail -30 build-fuzz/$$t.replay.log; echo "fuzz: $$t fails on its seeds"; exit 1; }; \
	done
	@rm -rf build-fuzz/check-corpus && mkdir -p build-fuzz/check-corpus
	@build-fuzz/fuzz_eh_frame_parse -max_total_time=$(FUZZ_CHECK_SECONDS) -max_len=4096 \
	    build-fuzz/check-corpus fuzz/seeds/fuzz_eh_frame_parse > build-fuzz/check.log 2>&1 \
	    || { tail -40 build-fuzz/check.log; echo "fuzz: fuzz_eh_frame_parse found a crash"; exit 1; }
	@echo "fuzz: $(words $(FUZZ_TARGETS)) targets replay their seeds;" \
	    "the section parser ran $$(grep -o 'Done [0-9]* runs' build-fuzz/check.log | grep -o '[0-9]*') inputs" \
	    "in $(FUZZ_CHECK_SECONDS) s without a fault"

fuzz: $(FUZZ_BINS) fuzz-mutants
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p build-fuzz/corpus-$$t; \
	    echo "== $$t ($(FUZZ_SECONDS) s)"; \
	    build-fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
	        build-fuzz/corpus-$$t fuzz/seeds/$$t || exit 1; \
	done

# ---- install, demo, clean ------------------------------------------------------
# install and uninstall: one list of what is installed (INSTALLED, relative
# to DESTDIR), so that uninstall removes exactly what install wrote.
BINDIR ?= $(PREFIX)/bin
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
MAN1_PAGES := $(TOOLS:%=man/%.1)
MAN3_PAGES := man/libdwunwind.3
# The drop-in libunwind: its own directory, which a program is pointed at
# (LD_LIBRARY_PATH), never one the loader searches by default.
COMPATDIR ?= $(LIBDIR)/dwunwind
INSTALLED := $(TOOLS:%=$(BINDIR)/%) \
	$(INCLUDEDIR)/dwunwind.h \
	$(LIBDIR)/libdwunwind.a \
	$(LIBDIR)/$(RUNTIME_SO_FILE) $(LIBDIR)/$(RUNTIME_SONAME) $(LIBDIR)/libdwunwind.so \
	$(COMPATDIR)/libunwind.so.8 $(COMPATDIR)/libunwind-x86_64.so.8 \
	$(PKGCONFIGDIR)/dwunwind.pc \
	$(MAN1_PAGES:man/%=$(MANDIR)/man1/%) $(MAN3_PAGES:man/%=$(MANDIR)/man3/%)

install: install-tools install-runtime
install-tools: $(TOOL_BINS)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(TOOL_BINS) $(DESTDIR)$(BINDIR)/
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(MAN1_PAGES) $(DESTDIR)$(MANDIR)/man1/
install-runtime: $(RUNTIME_A) $(RUNTIME_SO) $(COMPAT_SO) $(COMPAT_GENERIC_SO)
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(COMPATDIR)
	install -m 755 $(COMPAT_SO) $(COMPAT_GENERIC_SO) $(DESTDIR)$(COMPATDIR)/
	install -m 644 runtime/dwunwind.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 $(RUNTIME_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(BUILD)/lib/$(RUNTIME_SO_FILE) $(DESTDIR)$(LIBDIR)/
	ln -sfn $(RUNTIME_SO_FILE) $(DESTDIR)$(LIBDIR)/$(RUNTIME_SONAME)
	ln -sfn $(RUNTIME_SONAME) $(DESTDIR)$(LIBDIR)/libdwunwind.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' runtime/dwunwind.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/dwunwind.pc
	install -d $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(MAN3_PAGES) $(DESTDIR)$(MANDIR)/man3/

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(COMPATDIR) 2> /dev/null || true

# The README's first command: audit the system's core libraries (dwcheck's
# built-in default); findings are the output, so they do not fail the target.
run: $(TOOL_BINS)
	@$(BUILD)/bin/dwcheck --fail-on=never --html=$(BUILD)/audit
	@echo "HTML report: $(BUILD)/audit/index.html"

clean:
	rm -rf build build-san build-fuzz
