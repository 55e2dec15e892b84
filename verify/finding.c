/* SPDX-License-Identifier: Apache-2.0 */
/*
 * finding: the tables of finding kinds and unchecked reasons.
 */
#include "finding.h"

#include <stdio.h>

struct kind_info {
    const char *name;
    enum severity severity;
    const char *help;
};

static const struct kind_info kinds[FINDING_KINDS] = {
    [FINDING_CFA_MISMATCH] = {"cfa-mismatch", SEVERITY_ERROR,
                              "The CFA rule of the unwind table does not give the frame's CFA here."},
    [FINDING_RA_MISMATCH] = {"ra-mismatch", SEVERITY_ERROR,
                             "The return address rule does not find the return address here."},
    [FINDING_REG_MISMATCH] = {"reg-mismatch", SEVERITY_ERROR,
                              "A callee-saved register's rule gives another value than it had on entry."},
    [FINDING_CLOBBERED] = {"clobbered-not-described", SEVERITY_ERROR,
                           "A callee-saved register is changed while the table says it is unchanged."},
    [FINDING_IMPRECISE] = {"imprecise", SEVERITY_INFO, "A rule is undefined where the value is known."},
    [FINDING_FDE_GAP] = {"fde-gap", SEVERITY_WARNING, "Code inside a function that no FDE covers."},
    [FINDING_FDE_OVERLAP] = {"fde-overlap", SEVERITY_ERROR, "Two FDEs cover the same address."},
    [FINDING_FDE_NO_CODE] = {"fde-without-code", SEVERITY_ERROR, "An FDE covers addresses that hold no code."},
    [FINDING_MALFORMED_CFI] = {"malformed-cfi", SEVERITY_ERROR, "An FDE's call-frame program does not decode."},
    [FINDING_CALL_CLOBBERED_RULE] = {"call-clobbered-rule", SEVERITY_WARNING,
                                     "At a call, a rule reads a register the call may change: unwinding "
                                     "through the call reads the callee's value."},
    [FINDING_CROSS_FDE_MISMATCH] = {"cross-fde-mismatch", SEVERITY_ERROR,
                                    "A jump into another FDE's range arrives in a frame that FDE's row "
                                    "does not describe."},
    [FINDING_RET_MISMATCH] = {"ret-mismatch", SEVERITY_ERROR,
                              "A ret that does not pop the return address: the code returns where no "
                              "table describes."},
    [FINDING_RET_JUMP] = {"ret-jump", SEVERITY_INFO,
                          "`push X; ret`: a ret that pops the word just pushed, a jump to X that leaves the "
                          "frame in place.  No return happens there, so it is not checked as one; its row "
                          "is checked as any instruction's."},
    [FINDING_SFRAME_CFA_MISMATCH] = {"sframe-cfa-mismatch", SEVERITY_ERROR,
                                     "The CFA rule of an SFrame row does not give the frame's CFA here (the "
                                     "finding's table rule is SFrame's)."},
    [FINDING_SFRAME_FP_MISMATCH] = {"sframe-fp-mismatch", SEVERITY_ERROR,
                                    "The frame-pointer (rbp) rule of an SFrame row does not give rbp's value "
                                    "on entry here: a slot that does not hold it, or rbp untracked (unchanged) "
                                    "while the code has changed it."},
    [FINDING_SFRAME_RA_MISMATCH] = {"sframe-ra-mismatch", SEVERITY_ERROR,
                                    "The return-address rule of an SFrame row (at CFA-8 on x86_64) does not "
                                    "find the return address here."},
    [FINDING_MALFORMED_SFRAME] = {"malformed-sframe", SEVERITY_ERROR,
                                  "The .sframe section, or one of its FDEs, does not decode, covers no code "
                                  "or overlaps another FDE: its rows are not checked, and SFrame unwinders "
                                  "cannot rely on them."},
    [FINDING_SFRAME_DIFFERS] = {"sframe-eh-frame-differ", SEVERITY_WARNING,
                                "SFrame's row and .eh_frame's give different CFA, rbp or ra rules here and "
                                "the audit proves neither wrong: a warning, as unwinders reading one or the "
                                "other (perf and the kernel, gdb and libgcc) part ways.  Where one is proved "
                                "wrong, its mismatch finding is reported instead."},
    [FINDING_SFRAME_MISSING_FDE] = {"sframe-missing-fde", SEVERITY_INFO,
                                    "Code an .eh_frame FDE covers has no SFrame FDE, so SFrame unwinders "
                                    "cannot step through it: a note, with the reason when the table shows "
                                    "one that SFrame cannot express (a DWARF-expression CFA such as DRAP's, "
                                    "a CFA in another register than rsp or rbp ...)."},
    [FINDING_NO_UNWIND_TABLE] = {"no-unwind-table", SEVERITY_WARNING,
                                 "The file has no .eh_frame: libgcc, libunwind, perf and gdb cannot unwind "
                                 "through its frames (but by frame pointers, where there are any), and C++ "
                                 "exceptions cannot pass them.  A warning: the table is missing, not wrong, "
                                 "which some builds choose (Go); the message says whether a .debug_frame "
                                 "(read by debuggers only) or a .sframe is there."},
};

/* For code scanning (SARIF rules): a title, and what to do about a finding. */
static const char *const titles[FINDING_KINDS] = {
    [FINDING_CFA_MISMATCH] = "Wrong CFA rule",
    [FINDING_RA_MISMATCH] = "Wrong return-address rule",
    [FINDING_REG_MISMATCH] = "Wrong callee-saved register rule",
    [FINDING_CLOBBERED] = "Callee-saved register changed, not described",
    [FINDING_IMPRECISE] = "Rule undefined where the value is known",
    [FINDING_FDE_GAP] = "Code no FDE covers",
    [FINDING_FDE_OVERLAP] = "Overlapping FDEs",
    [FINDING_FDE_NO_CODE] = "FDE without code",
    [FINDING_MALFORMED_CFI] = "Malformed call-frame program",
    [FINDING_CALL_CLOBBERED_RULE] = "Rule reads a call-clobbered register at a call",
    [FINDING_CROSS_FDE_MISMATCH] = "Jump into another FDE with the wrong frame",
    [FINDING_RET_MISMATCH] = "ret that does not pop the return address",
    [FINDING_RET_JUMP] = "push X; ret used as a jump",
    [FINDING_SFRAME_CFA_MISMATCH] = "Wrong SFrame CFA rule",
    [FINDING_SFRAME_FP_MISMATCH] = "Wrong SFrame frame-pointer rule",
    [FINDING_SFRAME_RA_MISMATCH] = "Wrong SFrame return-address rule",
    [FINDING_MALFORMED_SFRAME] = "Malformed .sframe",
    [FINDING_SFRAME_DIFFERS] = "SFrame and .eh_frame rows differ",
    [FINDING_SFRAME_MISSING_FDE] = "Code without an SFrame FDE",
    [FINDING_NO_UNWIND_TABLE] = "File without an unwind table",
};

static const char *const advice[FINDING_KINDS] = {
    [FINDING_CFA_MISMATCH] = "Exceptions, debuggers and profilers unwinding through this address find the "
                             "wrong frame.  Fix the .cfi_def_cfa* directives (or .cfi_adjust_cfa_offset) "
                             "after the instruction that moves the stack pointer; `dwcheck --explain=ADDR` "
                             "shows both rows around it.",
    [FINDING_RA_MISMATCH] = "Unwinding returns to a wrong address.  Describe where the return address is "
                            "(.cfi_offset rip, or the CFA rule it follows from) after each stack change.",
    [FINDING_REG_MISMATCH] = "An unwinder restores a wrong value in the caller.  Put .cfi_offset REG after "
                             "the instruction that saves REG, and .cfi_restore REG after it is reloaded.",
    [FINDING_CLOBBERED] = "The caller gets the changed value back on unwinding.  Save the register and add "
                          ".cfi_offset (or .cfi_register) before it is changed.",
    [FINDING_IMPRECISE] = "Not wrong, only less than could be said: describe the value (.cfi_offset, "
                          ".cfi_register) if unwinders need it.",
    [FINDING_FDE_GAP] = "Unwinding fails where the code is running.  Cover the whole function with "
                        ".cfi_startproc/.cfi_endproc, cold parts too.",
    [FINDING_FDE_OVERLAP] = "Unwinders pick one of the FDEs.  Remove the duplicate, or end the first "
                            "FDE where the second begins.",
    [FINDING_FDE_NO_CODE] = "The FDE describes bytes that are not code (stale or mis-sized FDE): remove "
                            "it or fix its range.",
    [FINDING_MALFORMED_CFI] = "No unwinder can use this FDE: regenerate it (assembler directives, not "
                              "hand-written bytes).",
    [FINDING_CALL_CLOBBERED_RULE] = "A rule that reads a caller-saved register is wrong in the callee's "
                                    "frames: copy the value to a callee-saved register or the stack first.",
    [FINDING_CROSS_FDE_MISMATCH] = "Make the rows agree at the jump's target, or give the target code "
                                   "an FDE that describes the frame the jump arrives in.",
    [FINDING_RET_MISMATCH] = "Restore the stack before the ret, or describe the frame the ret leaves "
                             "(.cfi_remember_state/.cfi_restore_state around early exits).",
    [FINDING_RET_JUMP] = "A note: no change needed unless the jump's target expects a return.",
    [FINDING_SFRAME_CFA_MISMATCH] = "SFrame unwinders (perf, the kernel) find the wrong frame.  Fix the "
                                    "CFI the assembler derives .sframe from, or rebuild without "
                                    "--gsframe.",
    [FINDING_SFRAME_FP_MISMATCH] = "SFrame unwinders restore a wrong rbp.  Fix the rbp CFI (.cfi_offset "
                                   "rbp, .cfi_restore rbp).",
    [FINDING_SFRAME_RA_MISMATCH] = "SFrame unwinders return to a wrong address.  Fix the CFA rule the "
                                   "return address follows from.",
    [FINDING_MALFORMED_SFRAME] = "Regenerate the .sframe section with the assembler (--gsframe), or "
                                 "remove it.",
    [FINDING_SFRAME_DIFFERS] = "Regenerate .sframe from the same CFI, and check which of the two rows "
                               "the code needs (`dwcheck --explain=ADDR`).",
    [FINDING_SFRAME_MISSING_FDE] = "A note: SFrame cannot express this frame, or the FDE was dropped; "
                                   "unwinders fall back to .eh_frame if they can.",
    [FINDING_NO_UNWIND_TABLE] = "Build with -fasynchronous-unwind-tables (C, C++; GCC's default on x86_64), "
                                "keep .eh_frame when stripping, or give hand-written assembly "
                                ".cfi_startproc/.cfi_endproc; `dwsynth repair` adds a table to the binary.",
};

const char *finding_kind_title(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS && titles[kind] ? titles[kind] : "";
}

const char *finding_kind_advice(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS && advice[kind] ? advice[kind] : "";
}

struct reason_info {
    const char *id;
    const char *text;
    int counts_rules;
};

static const struct reason_info reasons[UNCHECKED_REASONS] = {
    [UNCHECKED_UNREACHED] = {"unreached", "code no path reaches", 0},
    [UNCHECKED_PADDING] = {"padding", "alignment padding or a trap (nop, int3, ud2) no path reaches", 0},
    [UNCHECKED_CFA_UNKNOWN] = {"cfa-unknown", "synthesis does not know the register the CFA rule reads", 0},
    [UNCHECKED_SLOT_UNKNOWN] = {"slot-unknown", "a register rule reads a slot synthesis does not track", 1},
    [UNCHECKED_VALUE_UNKNOWN] = {"value-unknown",
                                 "a register rule reads a register whose value synthesis cannot follow", 1},
    [UNCHECKED_OTHER_FRAME] = {"other-frame", "the table describes another frame (a context switch)", 0},
    [UNCHECKED_GUESSED] = {"guessed", "the state is a guess: no path from the entry is known (an unresolved "
                                      "jump table, dead code)", 0},
    [UNCHECKED_CFA_TIMEOUT] = {"cfa-timeout", "the prover ran out of time on the CFA rule "
                                              "(--prove-timeout)", 0},
    [UNCHECKED_RULE_TIMEOUT] = {"rule-timeout", "register rules the prover ran out of time on "
                                                "(--prove-timeout)", 1},
};

const char *finding_kind_name(enum finding_kind kind)
{
    return kind < FINDING_KINDS ? kinds[kind].name : "?";
}

enum severity finding_kind_severity(enum finding_kind kind)
{
    return kind < FINDING_KINDS ? kinds[kind].severity : SEVERITY_ERROR;
}

const char *finding_kind_help(enum finding_kind kind)
{
    return kind < FINDING_KINDS ? kinds[kind].help : "";
}

const char *severity_name(enum severity severity)
{
    return severity == SEVERITY_ERROR ? "error" : severity == SEVERITY_WARNING ? "warning" : "info";
}

const char *unchecked_reason_id(enum unchecked_reason r)
{
    return r < UNCHECKED_REASONS ? reasons[r].id : "?";
}

const char *unchecked_reason_text(enum unchecked_reason r)
{
    return r < UNCHECKED_REASONS ? reasons[r].text : "?";
}

int unchecked_reason_counts_rules(enum unchecked_reason r)
{
    return r < UNCHECKED_REASONS && reasons[r].counts_rules;
}

void finding_where(char *buf, size_t size, const struct finding *f)
{
    if (f->function[0])
        snprintf(buf, size, "%s+0x%llx", f->function, (unsigned long long)(f->address - f->function_start));
    else
        snprintf(buf, size, "0x%llx", (unsigned long long)f->address);
}
