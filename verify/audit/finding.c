/* SPDX-License-Identifier: Apache-2.0 */
/*
 * finding: the tables of finding kinds and unchecked reasons.
 */
#include "finding.h"

#include <stdio.h>

/* Everything said of a kind, once: the outputs quote it (SARIF's rules,
 * the HTML report's section on each kind).  When each kind is raised is
 * verify/audit/check.c's (and fde_coverage's, sframe_check's, no_unwind's): the
 * texts say exactly that, and the kind's severity. */
struct kind_info {
    const char *name;
    enum severity severity;
    const char *title;              /* a few words */
    const char *help;               /* what it means */
    const char *impact;             /* why it matters: what goes wrong, for whom */
    const char *remedy;             /* how to fix it */
    const char *advice;             /* IMPACT and REMEDY, one text (SARIF's help) */
    const char *verdict;            /* what the finding says of the table's rule it
                                       names; "" for a kind with no rule */
};

/* A kind's line: ADVICE is written by the compiler from IMPACT and REMEDY. */
#define KIND(kind, name, severity, title, help, impact, remedy, verdict) \
    [kind] = {name, severity, title, help, impact, remedy, impact "  " remedy, verdict}

static const struct kind_info kinds[FINDING_KINDS] = {
    KIND(FINDING_CFA_MISMATCH, "cfa-mismatch", SEVERITY_ERROR, "Wrong CFA rule",
         "At an instruction a path from the function's entry reaches, the row's CFA rule does not give the "
         "CFA (the value rsp had before the call into the function, so that the return address is at "
         "CFA-8) in the state synthesis derives from the machine code; or it reads a callee-saved register "
         "(rbp after `pop %rbp` or `leave`) that holds the caller's value again.  A DWARF-expression rule "
         "is refuted by z3, with the values that show it (the counterexample).",
         "Every other rule of the row counts from the CFA, so an unwinder standing here (a profiler's "
         "sample, a debugger's backtrace, a C++ exception or a thread cancellation passing through) reads "
         "the return address and the saved registers from the wrong words: it names a wrong caller, stops "
         "or crashes, and an exception may end in std::terminate.",
         "Describe each change of the stack pointer, or of the register the CFA is defined from, right "
         "after the instruction that makes it: .cfi_adjust_cfa_offset or .cfi_def_cfa_offset after a push, "
         "a pop, or a sub or add on rsp; .cfi_def_cfa_register rbp after `mov %rsp,%rbp`; .cfi_def_cfa "
         "rsp, 8 after `pop %rbp` or `leave`.  `dwcheck --explain=ADDR` shows both rows around it.",
         "fails"),
    KIND(FINDING_RA_MISMATCH, "ra-mismatch", SEVERITY_ERROR, "Wrong return-address rule",
         "The rule of ra (DWARF column 16) does not give the return address in the synthesised state (it "
         "reads a slot that does not hold it, say); or it is undefined (the end of the stack) in the "
         "middle of a function whose FDE's first row has a return address and whose return address "
         "synthesis knows to be at CFA-8; or it gives a return address where only clone's child runs, on "
         "its new stack, where the stack must end.",
         "Unwinders go on at a wrong caller (a wrong backtrace, samples charged to the wrong function, an "
         "exception that lands in the wrong handler or crashes), stop early, cutting every stack through "
         "here short, or walk past the outermost frame into garbage.",
         "On x86_64 the CIE puts ra at CFA-8 and it needs no directive of its own: remove a stray "
         ".cfi_offset rip, .cfi_undefined rip or .cfi_escape, and fix the CFA rule it counts from; put "
         ".cfi_undefined rip only at the first instruction of an outermost frame (_start, clone's child).",
         "fails"),
    KIND(FINDING_REG_MISMATCH, "reg-mismatch", SEVERITY_ERROR, "Wrong callee-saved register rule",
         "The rule of a callee-saved register (rbx, rbp, r12-r15) does not give the value the register had "
         "on entry, the value the caller must get back: it reads a slot or a register that does not hold "
         "it.  Where the table says the register is unchanged while the code has changed it, after "
         "saving it, the finding is clobbered-not-described instead.",
         "An unwinder gives the caller a wrong value of the register: a debugger shows wrong variables in "
         "the calling frames, and where an exception or a forced unwind (pthread_cancel, pthread_exit) "
         "lands in a caller, the caller resumes with a corrupted register and fails later, far from here.",
         "Name the slot the code really uses: .cfi_offset REG, -N (the slot at CFA-N) right after the push "
         "or mov that saves the register, .cfi_register when another register keeps it, and .cfi_restore "
         "REG right after the pop or mov that reloads it, not before.",
         "fails"),
    KIND(FINDING_CLOBBERED, "clobbered-not-described", SEVERITY_ERROR,
         "Callee-saved register changed, not described",
         "The table says a callee-saved register is unchanged (no rule, or same value) where the code has "
         "already changed it, after saving its value on entry where synthesis can see it (the message says "
         "where): a rule could say so, and does not.",
         "An unwinder takes the register's current value for the caller's, so the caller gets this "
         "function's value back: wrong variables in a debugger's calling frames, a corrupted caller after "
         "an exception or a forced unwind.",
         "Right after the instruction that saves the register (`push %rbx`, `mov %rbx,N(%rsp)`), before the "
         "one that changes it, add .cfi_offset REG, -N for the slot at CFA-N (or .cfi_rel_offset REG, N "
         "from rsp), or .cfi_register if another register keeps it.",
         "fails"),
    KIND(FINDING_IMPRECISE, "imprecise", SEVERITY_INFO, "Rule undefined where the value is known",
         "A callee-saved register's rule is undefined (.cfi_undefined) where synthesis knows the slot that "
         "holds its value on entry.  Undefined is never wrong, only less than could be said.",
         "Nothing is unwound wrong, but unwinders do not restore the register: a debugger cannot show the "
         "caller's value (not saved, optimized out).",
         "If unwinders need the value, replace .cfi_undefined REG with .cfi_offset REG, -N for the slot the "
         "code saved it in; otherwise nothing needs to change.",
         "holds, but says less than synthesis knows"),
    KIND(FINDING_FDE_GAP, "fde-gap", SEVERITY_WARNING, "Code no FDE covers",
         "Code of a function that no FDE covers: a function of the symbol table with addresses no FDE "
         "covers (the first of them is reported), or code inside a symbol after its FDEs end (a "
         ".cfi_endproc too early, a part left out) that the function's own code falls or jumps into.  "
         "Padding, and bytes nothing runs into, are not code.",
         "An unwinder standing there finds no row: libgcc stops the walk (an exception thrown through it "
         "ends in std::terminate), gdb and perf guess or fall back on frame pointers, and the stack is cut "
         "short or wrong.",
         "Cover the whole function: .cfi_startproc at its first instruction and .cfi_endproc after its "
         "last, cold parts and code after an early exit included; build C and C++ with "
         "-fasynchronous-unwind-tables (GCC's default on x86_64).",
         ""),
    KIND(FINDING_FDE_OVERLAP, "fde-overlap", SEVERITY_ERROR, "Overlapping FDEs",
         "Two FDEs cover the same address: in address order, one starts before the previous one ends.",
         "Which of the two rows an unwinder uses there depends on how it searches (.eh_frame_hdr's binary "
         "search table, a walk of .eh_frame), so unwinders disagree, and the FDE written for the other "
         "code describes the wrong frame.",
         "Remove the duplicate FDE, or end the first where the second begins: one .cfi_endproc for each "
         ".cfi_startproc, no function inside another.",
         ""),
    KIND(FINDING_FDE_NO_CODE, "fde-without-code", SEVERITY_ERROR, "FDE without code",
         "An FDE covers addresses that hold no code: its range lies outside every executable section, or "
         "runs past the end of the section it starts in.",
         "The FDE is stale or mis-sized (a range written by hand or by a tool): its rows describe no "
         "instructions, an unwinder may match addresses of other code against it, and the audit cannot "
         "check it.",
         "Fix the FDE's range (.cfi_startproc and .cfi_endproc around the code only), or remove the FDE.",
         ""),
    KIND(FINDING_MALFORMED_CFI, "malformed-cfi", SEVERITY_ERROR, "Malformed call-frame program",
         "An FDE that cannot be used as it is: its call-frame program (the DW_CFA_* instructions) does not "
         "decode, or its range wraps around the address space or runs past the end of the executable "
         "segment it starts in.",
         "Unwinders reject the FDE or stop in it, so no frame in its range unwinds, and the audit cannot "
         "check its rows.",
         "Regenerate the FDE from assembler directives (.cfi_*) rather than hand-written bytes or "
         ".cfi_escape, and check the tool that wrote or rewrote the section.",
         ""),
    KIND(FINDING_CALL_CLOBBERED_RULE, "call-clobbered-rule", SEVERITY_WARNING,
         "Rule reads a call-clobbered register at a call",
         "At a call instruction, a rule of the row (the CFA's, ra's or a callee-saved register's) reads a "
         "register the callee may change (rax, rcx, rdx, rsi, rdi, r8-r11: a CFA kept in r10 or rax, say).  "
         "The rule holds before the call.  Rows of signal frames are exempt.",
         "An unwinder stepping out of the callee evaluates this row with the registers as the callee left "
         "them, so the rule reads the callee's value: it is right only if every callee leaves the register "
         "alone and the unwinder carries it across frames, which gdb and libdwunwind do not.",
         "Before the call, copy the value to a callee-saved register or a stack slot and define the rule "
         "from there (.cfi_def_cfa_register, or an expression that reads the slot, as GCC does with the "
         "DRAP register it saves).",
         "holds before the call; after it, reads what the callee leaves"),
    KIND(FINDING_CROSS_FDE_MISMATCH, "cross-fde-mismatch", SEVERITY_ERROR,
         "Jump into another FDE with the wrong frame",
         "A jump (direct, conditional, or a resolved case of a jump table) leaves its FDE for code another "
         "FDE covers (a .cold part, a shared tail, a tail call, another function's middle), and a rule of "
         "the row there (the CFA, ra or a callee-saved register) does not hold in the frame the jump "
         "arrives with.",
         "From the jump on, unwinders read the target's rows, which describe another frame than the one "
         "on the stack: a wrong caller, a cut stack or wrong registers, as with a wrong rule of the code's "
         "own FDE.",
         "Make the frame at the jump the one the target expects (tear the frame down before a tail call), "
         "or give the target an FDE whose first row describes the frame the jump arrives with "
         "(.cfi_def_cfa_offset and .cfi_offset right after its .cfi_startproc).",
         "fails in the frame the jump arrives with"),
    KIND(FINDING_RET_MISMATCH, "ret-mismatch", SEVERITY_ERROR, "ret that does not pop the return address",
         "A ret where, in the synthesised state, rsp is not at CFA-8, or the word at CFA-8 it pops is not "
         "the return address (a hand-written epilogue that forgot an `add $8,%rsp`).  A ret right after "
         "the push of the word it pops is ret-jump instead.",
         "The code does not return to its caller: it jumps to the word it pops, with a stack no table "
         "describes, so what runs next is unwound wrong; the code itself is likely wrong, not only its "
         "table.",
         "Restore the stack before the ret: pop, or add back, what the function pushed or allocated.  If "
         "the ret is meant as a jump through the stack, push its target right before it, or use a jmp.",
         ""),
    KIND(FINDING_RET_JUMP, "ret-jump", SEVERITY_INFO, "push X; ret used as a jump",
         "`push X; ret`: a ret that pops the word the push just before it wrote, a jump to X that leaves "
         "the frame in place.  No return happens there, so it is not checked as one; its row is checked "
         "as any instruction's.",
         "Nothing is wrong by itself, but the code at X runs in this frame, so its rows must describe this "
         "frame; and a shadow stack (Intel CET) faults on a ret that is not a return.",
         "A note: no change is needed unless X expects a return, or the code must run with shadow stacks: "
         "then jump to X instead.",
         ""),
    KIND(FINDING_SFRAME_CFA_MISMATCH, "sframe-cfa-mismatch", SEVERITY_ERROR, "Wrong SFrame CFA rule",
         "The CFA rule of an SFrame row (.sframe, as `as --gsframe` writes it) does not give the CFA in the "
         "synthesised state, judged as .eh_frame's rows are; or it reads rbp where rbp holds the caller's "
         "value again.  The finding's table rule is SFrame's.",
         "Unwinders that read SFrame (the Linux kernel's, perf's) find the wrong frame here, whatever "
         ".eh_frame's readers (gdb, libgcc) find.",
         "Fix the CFI directives gas derives .sframe from, or work around the assembler (gas 2.40 writes "
         "`.cfi_def_cfa %r10, 0` as CFA = rsp+0), or build without --gsframe.",
         "fails"),
    KIND(FINDING_SFRAME_FP_MISMATCH, "sframe-fp-mismatch", SEVERITY_ERROR, "Wrong SFrame frame-pointer rule",
         "The frame-pointer (rbp) rule of an SFrame row does not give rbp's value on entry: a slot that "
         "does not hold it, or rbp untracked (unchanged) while the code has changed it.",
         "SFrame unwinders give the caller a wrong rbp, and so lose the next frame too when its CFA counts "
         "from rbp.",
         "Fix the rbp CFI .sframe is derived from (.cfi_offset rbp, -N after the push, .cfi_restore rbp "
         "after the pop), and regenerate .sframe.",
         "fails"),
    KIND(FINDING_SFRAME_RA_MISMATCH, "sframe-ra-mismatch", SEVERITY_ERROR, "Wrong SFrame return-address rule",
         "The return-address rule of an SFrame row (at CFA-8 on x86_64, or the end of the stack) does not "
         "find the return address in the synthesised state.",
         "SFrame unwinders go on at a wrong caller, or stop early.",
         "Fix the CFA rule the return address counts from, and mark the end of the stack only in an "
         "outermost frame; regenerate .sframe from the fixed CFI.",
         "fails"),
    KIND(FINDING_MALFORMED_SFRAME, "malformed-sframe", SEVERITY_ERROR, "Malformed .sframe",
         "The .sframe section, or one of its FDEs, does not decode, covers no code or overlaps another "
         "FDE: its rows are not checked.",
         "SFrame unwinders (the kernel's, perf's) cannot rely on the section or the FDE: they reject it or "
         "unwind wrong.",
         "Regenerate the section with the assembler (--gsframe), or remove it (objcopy "
         "--remove-section=.sframe).",
         ""),
    KIND(FINDING_SFRAME_DIFFERS, "sframe-eh-frame-differ", SEVERITY_WARNING, "SFrame and .eh_frame rows differ",
         "SFrame's row and .eh_frame's give different CFA, rbp or ra rules here, and the audit proves "
         "neither wrong (one or both cannot be decided).  Where one is proved wrong, its mismatch finding "
         "is reported instead; where both hold, they are two ways of saying the same.",
         "Unwinders that read one table or the other (the kernel and perf read SFrame; gdb and libgcc read "
         ".eh_frame) may give different stacks for the same code.",
         "Regenerate .sframe from the same CFI as .eh_frame, and check which of the two rows the code needs "
         "(`dwcheck --explain=ADDR`).",
         "differs from .eh_frame's; neither is proved wrong"),
    KIND(FINDING_SFRAME_MISSING_FDE, "sframe-missing-fde", SEVERITY_INFO, "Code without an SFrame FDE",
         "Code an .eh_frame FDE covers has no SFrame FDE, or no SFrame row; the message gives the reason "
         "when the DWARF table shows one SFrame cannot express (a DWARF-expression CFA such as DRAP's, a "
         "CFA in another register than rsp or rbp, a register kept in a register, an escape).",
         "SFrame unwinders cannot step through this code: they fall back on .eh_frame or frame pointers "
         "if they can, or cut the stack.",
         "A note: nothing to fix where SFrame cannot express the frame; otherwise regenerate .sframe so "
         "that it covers the function.",
         ""),
    KIND(FINDING_NO_UNWIND_TABLE, "no-unwind-table", SEVERITY_WARNING, "File without an unwind table",
         "The file has no .eh_frame (Go programs; code built with -fno-asynchronous-unwind-tables "
         "-fno-unwind-tables; a table stripped away).  The message says whether a .debug_frame (read by "
         "debuggers only) or a .sframe is there.",
         "libgcc, libunwind, perf and gdb cannot unwind through the file's frames (but by frame pointers, "
         "where there are any), and C++ exceptions cannot pass them.  A warning: the table is missing, not "
         "wrong, which some builds choose.",
         "Build with -fasynchronous-unwind-tables (C, C++; GCC's default on x86_64), keep .eh_frame when "
         "stripping, or give hand-written assembly .cfi_startproc/.cfi_endproc; `dwsynth repair` adds a "
         "table to the binary.",
         ""),
};

const char *finding_kind_name(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS ? kinds[kind].name : "?";
}

enum severity finding_kind_severity(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS ? kinds[kind].severity : SEVERITY_ERROR;
}

const char *finding_kind_title(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS ? kinds[kind].title : "";
}

const char *finding_kind_help(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS ? kinds[kind].help : "";
}

const char *finding_kind_impact(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS ? kinds[kind].impact : "";
}

const char *finding_kind_remedy(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS ? kinds[kind].remedy : "";
}

const char *finding_kind_advice(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS ? kinds[kind].advice : "";
}

const char *finding_kind_verdict(enum finding_kind kind)
{
    return (unsigned)kind < FINDING_KINDS ? kinds[kind].verdict : "";
}

const char *finding_severity_name(enum severity severity)
{
    return severity == SEVERITY_ERROR ? "error" : severity == SEVERITY_WARNING ? "warning" : "info";
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

const char *finding_unchecked_reason_id(enum unchecked_reason r)
{
    return r < UNCHECKED_REASONS ? reasons[r].id : "?";
}

const char *finding_unchecked_reason_text(enum unchecked_reason r)
{
    return r < UNCHECKED_REASONS ? reasons[r].text : "?";
}

int finding_unchecked_reason_counts_rules(enum unchecked_reason r)
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
