# SPDX-License-Identifier: Apache-2.0
# corpus/corpus.mk — the frame-shape corpus: small C and C++ programs built
# with gcc and clang at -O0 -O1 -O2 -O3 -Os, each with and without
# -fomit-frame-pointer, so that the unwind tables hold every shape the two
# compilers emit (see corpus/README.md for which program makes which shape).
#
# Provides:
#   CORPUS_BINS   every executable, named
#                 $(BUILD)/corpus/<gcc|clang>/<O0..Os>[-omitfp]/<program>
#                 e.g. build/corpus/gcc/O2-omitfp/recursion
#   corpus        (phony) build CORPUS_BINS
#   corpus-run    (phony) run each binary; fails if any exits non-zero
#   corpus-clean  (phony) remove $(BUILD)/corpus
#
# Reads only $(BUILD) and its own CORPUS_* variables (plus make's own
# .DEFAULT_GOAL and MAKEFILE_LIST, to leave the includer's default goal
# alone), so it can be included from the top-level Makefile or used alone
# from the repository root:
#   make -f corpus/corpus.mk BUILD=build corpus corpus-run -j2

ifeq ($(strip $(BUILD)),)
$(error corpus/corpus.mk: set BUILD to the build directory, e.g. BUILD=build)
endif

# Keep the includer's default goal: the rules below must not become it.
CORPUS_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

CORPUS_SRC := corpus
CORPUS_OUT := $(BUILD)/corpus

CORPUS_C_PROGRAMS := recursion alloca_vla switch_tables setjmp_longjmp \
	noreturn large_frames aligned_locals many_registers varargs
CORPUS_CXX_PROGRAMS := exceptions
CORPUS_PROGRAMS := $(CORPUS_C_PROGRAMS) $(CORPUS_CXX_PROGRAMS)

CORPUS_COMPILERS := gcc clang
CORPUS_CC_gcc := gcc
CORPUS_CXX_gcc := g++
CORPUS_CC_clang := clang
CORPUS_CXX_clang := clang++

CORPUS_OPT_LEVELS := O0 O1 O2 O3 Os

# Frame-pointer kinds: the directory suffix and the flag of each.
CORPUS_FP_KINDS := fp omitfp
CORPUS_FP_SUFFIX_fp :=
CORPUS_FP_SUFFIX_omitfp := -omitfp
CORPUS_FP_FLAGS_fp := -fno-omit-frame-pointer
CORPUS_FP_FLAGS_omitfp := -fomit-frame-pointer

# No -Werror: warnings about alloca and friends are expected here.
CORPUS_FLAGS := -g0 -fasynchronous-unwind-tables -Wall
CORPUS_CFLAGS := -std=gnu11 $(CORPUS_FLAGS)
CORPUS_CXXFLAGS := -std=gnu++17 $(CORPUS_FLAGS)

# Extra flags for one program, in every variant.  large_frames is there for
# stack probing, which neither compiler does by default on Debian.
CORPUS_EXTRA_large_frames := -fstack-clash-protection

# CORPUS_VARIANT(compiler, opt level, frame-pointer kind): the binaries of
# one variant directory and the two static pattern rules that build them.
define CORPUS_VARIANT
CORPUS_DIR_$(1)_$(2)_$(3) := $(CORPUS_OUT)/$(1)/$(2)$(CORPUS_FP_SUFFIX_$(3))
CORPUS_VFLAGS_$(1)_$(2)_$(3) := -$(2) $(CORPUS_FP_FLAGS_$(3))

CORPUS_BINS += $$(addprefix $$(CORPUS_DIR_$(1)_$(2)_$(3))/,$(CORPUS_PROGRAMS))

$$(addprefix $$(CORPUS_DIR_$(1)_$(2)_$(3))/,$(CORPUS_C_PROGRAMS)): \
		$$(CORPUS_DIR_$(1)_$(2)_$(3))/%: $(CORPUS_SRC)/%.c $(CORPUS_SRC)/corpus.mk
	@mkdir -p $$(@D)
	$(CORPUS_CC_$(1)) $$(CORPUS_VFLAGS_$(1)_$(2)_$(3)) $$(CORPUS_CFLAGS) $$(CORPUS_EXTRA_$$*) -o $$@ $$<

$$(addprefix $$(CORPUS_DIR_$(1)_$(2)_$(3))/,$(CORPUS_CXX_PROGRAMS)): \
		$$(CORPUS_DIR_$(1)_$(2)_$(3))/%: $(CORPUS_SRC)/%.cc $(CORPUS_SRC)/corpus.mk
	@mkdir -p $$(@D)
	$(CORPUS_CXX_$(1)) $$(CORPUS_VFLAGS_$(1)_$(2)_$(3)) $$(CORPUS_CXXFLAGS) $$(CORPUS_EXTRA_$$*) -o $$@ $$<
endef

CORPUS_BINS :=
$(foreach c,$(CORPUS_COMPILERS),\
  $(foreach o,$(CORPUS_OPT_LEVELS),\
    $(foreach f,$(CORPUS_FP_KINDS),\
      $(eval $(call CORPUS_VARIANT,$(c),$(o),$(f))))))

.PHONY: corpus corpus-run corpus-clean

corpus: $(CORPUS_BINS)

# Run every binary (stdout discarded), name each failure, fail at the end.
corpus-run: $(CORPUS_BINS)
	@corpus_fail=0; \
	for b in $(CORPUS_BINS); do \
		$$b >/dev/null || { echo "corpus-run: $$b exited with status $$?" >&2; corpus_fail=1; }; \
	done; \
	if [ $$corpus_fail = 0 ]; then echo "corpus-run: all $(words $(CORPUS_BINS)) binaries exited 0"; fi; \
	exit $$corpus_fail

corpus-clean:
	rm -rf $(CORPUS_OUT)

# Used alone (make -f corpus/corpus.mk), the default goal is `corpus`.
ifeq ($(CORPUS_SAVED_DEFAULT_GOAL)$(notdir $(firstword $(MAKEFILE_LIST))),corpus.mk)
CORPUS_SAVED_DEFAULT_GOAL := corpus
endif
.DEFAULT_GOAL := $(CORPUS_SAVED_DEFAULT_GOAL)
