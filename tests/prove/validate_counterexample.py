#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""validate_counterexample.py: check a counterexample of dwcheck's prover
without trusting dwcheck (tests/prove/run.sh).

A failing DWARF expression rule's finding carries a counterexample: the
registers the rule reads, the memory words it dereferences, the CFA, what
the rule gives ("rule") and what the code gives ("code").  This script
re-evaluates the rule's bytes, taken from the fixture's own .cfi_escape,
with an evaluator of its own, and checks that
  1. evaluating the rule on the counterexample's registers and memory gives
     exactly "rule" (every register and word it reads is given);
  2. "code" is the truth, computed from the counterexample by the relation
     the fixture is built on (--truth, Python expressions over the register
     names, cfa, rule, code and mem(ADDR), e.g. "code == rsp + 32");
  3. rule != code;
and that the model obeys the ABI's assumptions the prover makes (a 16-byte
aligned CFA below 2^47), and that "what" is the kind of the rule.

Usage:
  validate_counterexample.py --source FILE.s --function F --column COL
                             --finding JSON [--truth EXPR]...
      COL is CFA, ra, or a register name (rbx...); the rule is the function's
      .cfi_escape for that column (one CFA instruction per .cfi_escape line).
      JSON is the finding object (or its counterexample) as dwcheck printed it.
      Prints "valid: ..." and exits 0, or the reasons and exits 1.
  validate_counterexample.py --self-test
      The evaluator and the checks against hand-made cases; exits 1 on a failure.

The evaluator follows DWARF 5 section 2.5 on 64-bit values with wraparound,
as the project's own (semantics/dwarf_expr.c) and libgcc's do: comparisons
and DW_OP_div are signed, DW_OP_mod, DW_OP_shr unsigned, a shift by 64 or
more gives 0 (DW_OP_shra: the sign), INT64_MIN / -1 wraps.  DW_OP_regN is
taken as N's value (dwcheck refuses it in CFI; no fixture uses it).
"""
import argparse
import json
import os
import re
import sys

MASK = (1 << 64) - 1
STACK_HIGH = 1 << 47
# DWARF register numbers of x86_64, named as dwtable names them.
REG_NAMES = ["rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
             "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip"]
MAX_STEPS = 100000   # an expression that runs longer does not terminate


class Invalid(Exception):
    """The expression cannot be evaluated, or the counterexample is wrong."""


def signed(v):
    return v - (1 << 64) if v >> 63 else v


def read_uleb(b, i):
    value = shift = 0
    while True:
        if i >= len(b):
            raise Invalid("LEB128 runs past the end of the expression")
        byte = b[i]
        i += 1
        value |= (byte & 0x7f) << shift
        shift += 7
        if not byte & 0x80:
            return value, i


def read_sleb(b, i):
    value, j = read_uleb(b, i)
    bits = 7 * (j - i)
    if value >> (bits - 1) & 1:
        value -= 1 << bits
    return value, j


def read_fixed(b, i, size, is_signed):
    if i + size > len(b):
        raise Invalid("operand runs past the end of the expression")
    return int.from_bytes(b[i:i + size], "little", signed=is_signed), i + size


FIXED = {0x03: (8, False), 0x08: (1, False), 0x09: (1, True), 0x0a: (2, False),
         0x0b: (2, True), 0x0c: (4, False), 0x0d: (4, True), 0x0e: (8, False),
         0x0f: (8, True)}
NO_OPERAND = set(range(0x12, 0x15)) | set(range(0x16, 0x28)) - {0x18, 0x23} | \
    set(range(0x29, 0x2f)) | {0x06, 0x96, 0x9f} | set(range(0x30, 0x70))


def decode(expr):
    """{offset: (opcode, operand, operand2, next offset)}; branch targets checked."""
    ops, i = {}, 0
    while i < len(expr):
        start, op = i, expr[i]
        i += 1
        a = b = 0
        if op in FIXED:
            a, i = read_fixed(expr, i, *FIXED[op])
        elif op == 0x10 or op == 0x23 or op == 0x90:      # constu, plus_uconst, regx
            a, i = read_uleb(expr, i)
        elif op == 0x11 or 0x70 <= op <= 0x8f:            # consts, breg0..31
            a, i = read_sleb(expr, i)
        elif op == 0x92:                                  # bregx
            a, i = read_uleb(expr, i)
            b, i = read_sleb(expr, i)
        elif op in (0x15, 0x94):                          # pick, deref_size
            a, i = read_fixed(expr, i, 1, False)
        elif op in (0x28, 0x2f):                          # bra, skip
            a, i = read_fixed(expr, i, 2, True)
            a += i                                        # the target's offset
        elif op not in NO_OPERAND:
            raise Invalid("unknown or unsupported opcode 0x%02x at byte %d" % (op, start))
        ops[start] = (op, a, b, i)
    for op, a, _, _ in ops.values():
        if op in (0x28, 0x2f) and a not in ops and a != len(expr):
            raise Invalid("branch to byte %d, which starts no operation" % a)
    return ops


def evaluate(expr, registers, memory, initial):
    """The value EXPR gives; registers and memory are {name: int}, {addr: int}."""
    ops = decode(expr)
    stack = list(initial)

    def need(n):
        if len(stack) < n:
            raise Invalid("stack underflow")

    def reg(n):
        name = REG_NAMES[n] if n < len(REG_NAMES) else "r%d" % n
        if name not in registers:
            raise Invalid("the rule reads %s, which the counterexample does not give" % name)
        return registers[name]

    def load(addr, size):
        if addr not in memory:
            raise Invalid("the rule reads the word at 0x%x, which the counterexample does not give" % addr)
        return memory[addr] & ((1 << (8 * size)) - 1)

    pc, steps = 0, 0
    while pc != len(expr):
        steps += 1
        if steps > MAX_STEPS:
            raise Invalid("the expression does not terminate")
        op, a, b, nxt = ops[pc]
        pc = nxt
        if 0x30 <= op <= 0x4f:                 # lit0..31
            stack.append(op - 0x30)
        elif op in FIXED or op in (0x10, 0x11):
            stack.append(a & MASK)
        elif 0x50 <= op <= 0x6f:               # reg0..31: the register's value
            stack.append(reg(op - 0x50))
        elif op == 0x90:
            stack.append(reg(a))
        elif 0x70 <= op <= 0x8f:               # breg0..31
            stack.append((reg(op - 0x70) + a) & MASK)
        elif op == 0x92:
            stack.append((reg(a) + b) & MASK)
        elif op in (0x06, 0x94):               # deref, deref_size
            need(1)
            size = 8 if op == 0x06 else a
            if not 1 <= size <= 8:
                raise Invalid("DW_OP_deref_size %d" % size)
            stack[-1] = load(stack[-1], size)
        elif op == 0x12:                       # dup
            need(1)
            stack.append(stack[-1])
        elif op == 0x13:                       # drop
            need(1)
            stack.pop()
        elif op == 0x14:                       # over
            need(2)
            stack.append(stack[-2])
        elif op == 0x15:                       # pick
            need(a + 1)
            stack.append(stack[-1 - a])
        elif op == 0x16:                       # swap
            need(2)
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif op == 0x17:                       # rot: top to third, second to top
            need(3)
            stack[-3], stack[-2], stack[-1] = stack[-1], stack[-3], stack[-2]
        elif op == 0x19:                       # abs
            need(1)
            stack[-1] = abs(signed(stack[-1])) & MASK
        elif op == 0x1f:                       # neg
            need(1)
            stack[-1] = -stack[-1] & MASK
        elif op == 0x20:                       # not
            need(1)
            stack[-1] = ~stack[-1] & MASK
        elif op == 0x23:                       # plus_uconst
            need(1)
            stack[-1] = (stack[-1] + a) & MASK
        elif op in (0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x21, 0x22, 0x24, 0x25, 0x26, 0x27,
                    0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e):
            need(2)
            y = stack.pop()                    # the former top
            x = stack.pop()                    # the former second entry
            stack.append(binary(op, x, y) & MASK)
        elif op == 0x2f:                       # skip
            pc = a
        elif op == 0x28:                       # bra
            need(1)
            if stack.pop() != 0:
                pc = a
        elif op == 0x96:                       # nop
            pass
        elif op == 0x9f:                       # stack_value: the top is the value
            break
        else:
            raise Invalid("opcode 0x%02x has no meaning here" % op)
    if not stack:
        raise Invalid("the expression leaves an empty stack")
    return stack[-1]


def binary(op, x, y):
    sx, sy = signed(x), signed(y)
    if op in (0x1b, 0x1d) and y == 0:
        raise Invalid("division by zero")
    return {
        0x1a: lambda: x & y,
        0x1b: lambda: (abs(sx) // abs(sy)) * (1 if (sx < 0) == (sy < 0) else -1),   # signed, truncating
        0x1c: lambda: x - y,
        0x1d: lambda: x % y,
        0x1e: lambda: x * y,
        0x21: lambda: x | y,
        0x22: lambda: x + y,
        0x24: lambda: x << y if y < 64 else 0,
        0x25: lambda: x >> y if y < 64 else 0,
        0x26: lambda: sx >> min(y, 63),
        0x27: lambda: x ^ y,
        0x29: lambda: int(sx == sy),
        0x2a: lambda: int(sx >= sy),
        0x2b: lambda: int(sx > sy),
        0x2c: lambda: int(sx <= sy),
        0x2d: lambda: int(sx < sy),
        0x2e: lambda: int(sx != sy),
    }[op]()


# ---- the rule, from the fixture's source ------------------------------------

def cfa_instruction(data):
    """(what, register, expression) of one DW_CFA_*expression, or None."""
    if not data:
        return None
    op, i = data[0], 1
    reg = None
    if op in (0x10, 0x16):
        reg, i = read_uleb(data, i)
    elif op != 0x0f:
        return None
    length, i = read_uleb(data, i)
    if i + length != len(data):
        raise Invalid("the .cfi_escape holds %d bytes of expression, says %d" % (len(data) - i, length))
    return {0x0f: "cfa", 0x10: "address", 0x16: "value"}[op], reg, bytes(data[i:])


def rule_of(source, function, column):
    """The .cfi_escape of FUNCTION in SOURCE that gives COLUMN's rule."""
    want_reg = None if column == "CFA" else 16 if column == "ra" else REG_NAMES.index(column)
    inside, found = False, []
    for line in open(source):
        line = line.split("#", 1)[0].strip()
        if line == function + ":":
            inside = True
        elif inside and (line.startswith(".cfi_endproc") or line.startswith(".size")):
            break
        elif inside and line.startswith(".cfi_escape"):
            data = [int(x, 0) for x in line[len(".cfi_escape"):].split(",")]
            ins = cfa_instruction(data)
            if ins and (ins[0] == "cfa") == (want_reg is None) and ins[1] == want_reg:
                found.append(ins)
    if len(found) != 1:
        raise Invalid("%s in %s: %d expression rules for %s, not one" % (function, source, len(found), column))
    return found[0]


# ---- the checks ---------------------------------------------------------------

HEX = re.compile(r"0x[0-9a-fA-F]+\Z")


def number(value, where):
    if not isinstance(value, str) or not HEX.match(value):
        raise Invalid("%s is %r, not a hex string" % (where, value))
    n = int(value, 16)
    if n > MASK:
        raise Invalid("%s is %s, wider than 64 bits" % (where, value))
    return n


def check(kind, expr, cx, truths):
    """The reasons COUNTEREXAMPLE is not one of the rule (empty: it is valid)."""
    reasons = []
    try:
        if "counterexample" in cx:
            cx = cx["counterexample"]
        if not isinstance(cx, dict):
            raise Invalid("no counterexample object")
        missing = {"what", "cfa", "registers", "memory", "rule", "code"} - set(cx)
        if missing:
            raise Invalid("fields missing: %s" % ", ".join(sorted(missing)))
        regs = {}
        for name, v in cx["registers"].items():
            if name not in REG_NAMES:
                raise Invalid("registers: %r is no DWARF register name" % name)
            regs[name] = number(v, "registers." + name)
        memory = {number(a, "a memory address"): number(v, "memory[%s]" % a) for a, v in cx["memory"].items()}
        cfa = number(cx["cfa"], "cfa")
        rule = number(cx["rule"], "rule")
        code = None if cx["code"] is None else number(cx["code"], "code")
    except (Invalid, AttributeError) as e:
        return [str(e)]
    if cx["what"] != kind:
        reasons.append("what is %r, the rule is a %s rule" % (cx["what"], kind))
    if cfa % 16 or cfa >= STACK_HIGH:
        reasons.append("cfa 0x%x breaks the ABI (16-byte aligned, below 2^47)" % cfa)
    try:
        value = evaluate(expr, regs, memory, [] if kind == "cfa" else [cfa])
        if value != rule:
            reasons.append("the rule evaluates to 0x%x, the counterexample says 0x%x" % (value, rule))
    except Invalid as e:
        reasons.append("the rule cannot be evaluated: %s" % e)
    if kind == "cfa" and code != cfa:
        reasons.append("what=cfa, yet code (%s) is not the model's cfa 0x%x" % (cx["code"], cfa))
    if code == rule:
        reasons.append("rule and code agree (0x%x): no counterexample" % rule)
    env = dict(regs, cfa=cfa, rule=rule, code=code)

    def mem(addr):
        if addr not in memory:
            raise Invalid("mem(0x%x) is not in the counterexample" % addr)
        return memory[addr]
    env["mem"] = mem
    for t in truths:
        try:
            ok = eval(t, {"__builtins__": {}}, env)
        except NameError as e:
            ok, why = False, "names what the counterexample does not give (%s)" % e
        except (Invalid, TypeError) as e:
            ok, why = False, str(e)
        else:
            why = "is false"
        if not ok:
            reasons.append("the fixture's truth %r %s" % (t, why))
    return reasons


# ---- self-test ----------------------------------------------------------------

def self_test():
    fails = []
    M = MASK
    regs = {"rsp": 0x7ffe0000, "rbp": 0x7ffe0010, "r12": 5, "rip": 0x1000}
    mem = {0x7ffe0008: 0x7ffe0020}
    # (bytes, initial stack, expected value or None for an error)
    cases = [
        ([0x30], [], 0), ([0x4f], [], 31),
        ([0x08, 0xff], [], 0xff), ([0x09, 0xff], [], M),
        ([0x0a, 0x34, 0x12], [], 0x1234), ([0x0b, 0x00, 0x80], [], M - 0x7fff),
        ([0x0c, 0x00, 0x00, 0xfe, 0x7f], [], 0x7ffe0000), ([0x0d, 0xf0, 0xff, 0xff, 0xff], [], M - 15),
        ([0x0e] + [0x11] * 8, [], 0x1111111111111111), ([0x0f] + [0xff] * 8, [], M),
        ([0x10, 0xe5, 0x8e, 0x26], [], 624485), ([0x11, 0x7f], [], M), ([0x11, 0xc0, 0xbb, 0x78], [], M - 123455),
        ([0x77, 0x20], [], 0x7ffe0020), ([0x76, 0x78], [], 0x7ffe0008), ([0x7c, 0x7f], [], 4),
        ([0x92, 0x07, 0x10], [], 0x7ffe0010), ([0x57], [], 0x7ffe0000), ([0x90, 0x10], [], 0x1000),
        ([0x80, 0x08], [], 0x1008),                                        # breg16 (rip) 8
        ([0x76, 0x78, 0x06], [], 0x7ffe0020), ([0x76, 0x78, 0x94, 0x01], [], 0x20),
        ([0x12, 0x22], [7], 14), ([0x13], [1, 2], 1), ([0x14], [1, 2], 1), ([0x15, 0x02], [1, 2, 3], 1),
        ([0x16], [1, 2], 1), ([0x17, 0x13, 0x13], [1, 2, 3], 3),           # rot: 1 2 3 -> 3 1 2
        ([0x17, 0x13], [1, 2, 3], 1), ([0x17], [1, 2, 3], 2),
        ([0x19], [M], 1), ([0x1f], [1], M), ([0x20], [0], M),
        ([0x1a], [0xf0, 0x3c], 0x30), ([0x21], [0xf0, 0x0f], 0xff), ([0x27], [0xff, 0x0f], 0xf0),
        ([0x22], [M, 2], 1), ([0x1c], [1, 2], M), ([0x1e], [1 << 63, 2], 0), ([0x1e], [M, M], 1),
        ([0x23, 0x80, 0x01], [1], 129),
        ([0x1b], [M - 6, 2], M - 2), ([0x1b], [7, M - 1], M - 2), ([0x1b], [1 << 63, M], 1 << 63),
        ([0x1d], [M, 16], 15), ([0x1b], [1, 0], None), ([0x1d], [1, 0], None),
        ([0x24], [1, 4], 16), ([0x24], [1, 64], 0), ([0x25], [1 << 63, 63], 1), ([0x25], [M, 64], 0),
        ([0x26], [1 << 63, 63], M), ([0x26], [1 << 63, 99], M), ([0x26], [16, 2], 4),
        ([0x29], [3, 3], 1), ([0x2e], [3, 3], 0), ([0x2d], [M, 1], 1), ([0x2b], [M, 1], 0),
        ([0x2a], [1, 1], 1), ([0x2c], [2, M], 0),
        ([0x96, 0x31], [], 1), ([0x31, 0x9f, 0x13], [], 1),
        # bra taken and not, skip; a counted backward loop (holds/g_loop.s's)
        ([0x28, 0x01, 0x00, 0x31, 0x32], [1], 2), ([0x28, 0x01, 0x00, 0x31], [0], 1),
        ([0x2f, 0x01, 0x00, 0x31, 0x32], [], 2),
        ([0x77, 0x00, 0x34, 0x16, 0x23, 0x08, 0x16, 0x31, 0x1c, 0x12, 0x28, 0xf6, 0xff, 0x13], [], 0x7ffe0020),
        # errors: underflow, empty stack, unknown opcode, truncated operand,
        # a branch into an operand, endless loops, an absent register or word
        ([0x22], [1], None), ([0x13], [1], None), ([0xe5], [], None), ([0x0c, 0x00], [], None),
        ([0x77, 0x80], [], None), ([0x2f, 0xfe, 0xff], [], None), ([0x2f, 0xfd, 0xff], [], None),
        ([0x31, 0x28, 0xfc, 0xff], [], None), ([0x73, 0x00], [], None), ([0x77, 0x00, 0x06], [], None),
        ([0x94, 0x09], [0x7ffe0008], None),
    ]
    for b, init, want in cases:
        try:
            got = evaluate(bytes(b), regs, mem, init)
        except Invalid as e:
            got = "error (%s)" % e
        if (want is None and not isinstance(got, str)) or (want is not None and got != want):
            fails.append("%s on %s: got %s, want %s" % (" ".join("%02x" % x for x in b), init,
                                                        hex(got) if isinstance(got, int) else got,
                                                        "an error" if want is None else hex(want)))
    # Counterexamples made by hand: true ones (no reason given), then each
    # with one fault, which must be named (a part of the reason expected).
    here = os.path.dirname(os.path.abspath(__file__))

    def rule(source, function, column):
        return rule_of(os.path.join(here, source), function, column)

    def expect(name, ins, cx, truths, reason):
        got = check(ins[0], ins[2], cx, truths)
        if reason is None and got:
            fails.append("%s: a true counterexample rejected: %s" % (name, got))
        elif reason is not None and not any(reason in r for r in got):
            fails.append("%s: want a reason with %r, got %s" % (name, reason, got or "none"))

    b = rule("fails_cfa.s", "b_one_address", "CFA")
    good = {"what": "cfa", "cfa": "0x7ffe0020", "registers": {"rsp": "0x7ffe0000"}, "memory": {},
            "rule": "0x7ffe0028", "code": "0x7ffe0020"}
    bt = ["code == rsp + 32", "rsp == 0x7ffe0000"]
    expect("b", b, {"counterexample": good}, bt, None)
    expect("b, rule misreported", b, dict(good, rule="0x7ffe0030"), bt, "evaluates to")
    expect("b where it holds", b, dict(good, registers={"rsp": "0x7ffd0000"}, cfa="0x7ffd0020",
                                       code="0x7ffd0020", rule="0x7ffd0020"), ["code == rsp + 32"], "agree")
    expect("b, rsp left out", b, dict(good, registers={}), bt, "does not give")
    expect("b, what", b, dict(good, what="address"), bt, "what is")
    expect("b, code not the cfa", b, dict(good, code="0x7ffe0018"), bt, "not the model's cfa")
    expect("b, code null", b, dict(good, code=None), bt, "not the model's cfa")
    expect("b, a number", b, dict(good, rule=0x7ffe0028), bt, "not a hex string")
    expect("b, truth denied", b, good, ["code == rsp + 24"], "truth")
    expect("b, no object", b, {"counterexample": None}, bt, "no counterexample")
    expect("b, fields", b, {"what": "cfa"}, bt, "fields missing")
    # Models outside the ABI: a CFA of 8 mod 16, a CFA of 2^47.
    d = rule("holds/d_alignment.s", "d_alignment", "CFA")
    expect("d_alignment, misaligned", d, {"what": "cfa", "cfa": "0x7ffe0018", "registers": {"rsp": "0x7ffe0008"},
                                          "memory": {}, "rule": "0x7ffe0010", "code": "0x7ffe0018"},
           ["code == rsp + 16"], "breaks the ABI")
    d = rule("holds/d_below_2_47.s", "d_below_2_47", "CFA")
    expect("d_below_2_47, 2^47", d, {"what": "cfa", "cfa": "0x800000000000", "registers": {"rsp": "0x7fffffffffe0"},
                                     "memory": {}, "rule": "0x800000000010", "code": "0x800000000000"},
           ["code == rsp + 32"], "breaks the ABI")
    # A DRAP rule reading memory: CFA = *(rbp - 8) + 8.
    g = rule("fails_cfa.s", "g_drap_wrong", "CFA")
    drap = {"what": "cfa", "cfa": "0x7ffe0020", "registers": {"rbp": "0x7ffe0010"},
            "memory": {"0x7ffe0008": "0x7ffe0020"}, "rule": "0x7ffe0028", "code": "0x7ffe0020"}
    gt = ["code == rbp + 16", "mem(rbp - 8) == cfa"]
    expect("g_drap_wrong", g, drap, gt, None)
    expect("g_drap_wrong, word left out", g, dict(drap, memory={}), gt, "does not give")
    expect("g_drap_wrong, a word the code did not write", g,
           dict(drap, memory={"0x7ffe0008": "0x1230"}, rule="0x1238"), gt, "truth")
    # An address rule (DW_CFA_expression, the CFA pushed first).
    e = rule("fails_saves.s", "e_rare_save", "rbx")
    save = {"what": "address", "cfa": "0x7fff4560", "registers": {}, "memory": {},
            "rule": "0x7fff4558", "code": "0x7fff4550"}
    et = ["code == cfa - 16", "cfa & 0xfff0 == 0x4560"]
    if e[:2] != ("address", 3):
        fails.append("e_rare_save's rule read as %s of register %s" % e[:2])
    expect("e_rare_save", e, save, et, None)
    expect("e_rare_save, null code", e, dict(save, code=None), et, "truth")
    # A value rule (DW_CFA_val_expression).
    f = rule("fails_saves.s", "f_copy_plus8", "rbx")
    val = {"what": "value", "cfa": "0x7fff0000", "registers": {"r12": "0x5"}, "memory": {},
           "rule": "0xd", "code": "0x5"}
    expect("f_copy_plus8", f, val, ["code == r12"], None)
    expect("f_copy_plus8, not rbx's entry value", f, dict(val, code="0x6"), ["code == r12"], "truth")
    for f in fails:
        print("self-test: " + f)
    print("self-test: %d evaluator cases, %s" % (len(cases), "%d failures" % len(fails) if fails else "all passed"))
    return 1 if fails else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--source")
    ap.add_argument("--function")
    ap.add_argument("--column")
    ap.add_argument("--finding")
    ap.add_argument("--truth", action="append", default=[])
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not (args.source and args.function and args.column and args.finding):
        ap.error("--source, --function, --column and --finding are required")
    try:
        kind, _, expr = rule_of(args.source, args.function, args.column)
        finding = json.loads(args.finding)
    except (Invalid, ValueError, OSError) as e:
        print("invalid: %s" % e)
        return 1
    reasons = check(kind, expr, finding, args.truth)
    if reasons:
        for r in reasons:
            print("invalid: " + r)
        return 1
    cx = finding.get("counterexample", finding)
    print("valid: what=%s rule=%s code=%s registers=%s memory=%s" % (
        cx["what"], cx["rule"], cx["code"], json.dumps(cx["registers"]), json.dumps(cx["memory"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
