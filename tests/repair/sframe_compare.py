#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The round trip of dwsynth repair --sframe (tests/repair/run.sh).

  sframe_compare.py TABLE.json SFRAME.json REPORT.json [LIBSFRAME.txt]

TABLE.json   dwtable --format=json OUT: the repaired copy's .eh_frame, which
             is the validated table (only the section named .eh_frame is read)
SFRAME.json  dwtable --sframe --format=json OUT: the .sframe repair wrote, as
             our reader reads it back
REPORT.json  dwsynth repair --sframe --format=json's report
LIBSFRAME    tests/sframe/libsframe_oracle's lines for the same .sframe (V1):
             what libsframe's decoder and lookup find, address by address

Checks, for every function (FDE) of the table: either the report lists it as
left to .eh_frame, with a reason, or SFrame's row at each of its addresses is
the table's row restricted to SFrame's columns (CFA, rbp, ra), compared on
the intersections of the two tables' rows (a PLT entry's CFA expression,
whose value depends on the address, address by address); SFrame covers no
address outside the functions written; the report's counts are the
section's.  With LIBSFRAME, libsframe's rows (every address of a PCINC FDE,
every FRE of a PCMASK one in every block) are the table's too.

Prints one line of figures, then the differences (at most 10); exit status 1
when there is any.
"""
import bisect
import json
import sys

REGS = ["rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp"] + ["r%d" % i for i in range(8, 16)] + ["rip"]
REGNUM = {name: i for i, name in enumerate(REGS)}
PLT_HEAD = bytes([0x80, 0x00, 0x3F, 0x1A])   # DW_OP_breg16 0; DW_OP_lit15; DW_OP_and
PLT_TAIL = bytes([0x2A, 0x33, 0x24, 0x22])   # DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus


def leb(b, i, signed):
    v = shift = 0
    while True:
        byte = b[i]
        i += 1
        v |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            break
    if signed and byte & 0x40:
        v -= 1 << shift
    return v, i


def breg(b):
    """DW_OP_breg(x) REG N [DW_OP_deref] as (REG, N, DEREF), else None."""
    if not b:
        return None
    if 0x70 <= b[0] <= 0x8F:
        reg, i = b[0] - 0x70, 1
    elif b[0] == 0x92:
        reg, i = leb(b, 1, False)
    else:
        return None
    off, i = leb(b, i, True)
    if i == len(b):
        return reg, off, False
    if i + 1 == len(b) and b[i] == 0x06:
        return reg, off, True
    return None


def plt(b):
    """GNU ld's pltN CFA, rsp + N + ((rip & 15) >= K) << 3, as (N, K), else None."""
    if len(b) < 2 or b[0] != 0x77:
        return None
    n, i = leb(b, 1, True)
    if b[i:i + 4] != PLT_HEAD or b[i + 5:] != PLT_TAIL or not 0x30 <= b[i + 4] <= 0x4F:
        return None
    return n, b[i + 4] - 0x30


def cfa_view(c, addr):
    if c["rule"] == "reg_offset":
        return ("reg", REGNUM.get(c["reg"], c["reg"]), c["offset"], False)
    if c["rule"] == "expression":
        b = bytes.fromhex(c["bytes"])
        p = plt(b)
        if p:
            return ("reg", 7, p[0] + (8 if addr is not None and (addr & 15) >= p[1] else 0), False)
        r = breg(b)
        if r:
            return ("reg",) + r
    return ("other", json.dumps(c, sort_keys=True))


def reg_view(r):
    k = r["rule"]
    if k in ("unreferenced", "same_value"):
        return ("unchanged",)
    if k in ("offset", "val_offset"):
        return (k, r["offset"])
    if k == "register":
        return ("is", REGNUM.get(r["reg"], r["reg"]), 0)
    if k in ("expression", "val_expression"):
        e = breg(bytes.fromhex(r["bytes"]))
        if e and not e[2]:
            return ("at" if k == "expression" else "is", e[0], e[1])
    return ("other", json.dumps(r, sort_keys=True))


def view(row, addr=None):
    """The row in SFrame's columns; ADDR for a PLT entry's CFA."""
    regs = row.get("registers", {})
    ra = regs.get("ra", {"rule": "unreferenced"})
    if ra["rule"] == "undefined":
        return ("outermost",)
    return (cfa_view(row["cfa"], addr), reg_view(ra), reg_view(regs.get("rbp", {"rule": "unreferenced"})))


def by_address(rows):
    """The address-dependent rows (PLT) need evaluating at each address."""
    c = rows["cfa"]
    return c["rule"] == "expression" and plt(bytes.fromhex(c["bytes"])) is not None


class Rows:
    """Sorted [start, end) rows: the one at an address."""

    def __init__(self, rows):
        self.rows = sorted(rows, key=lambda r: r["start"])
        self.starts = [r["start"] for r in self.rows]

    def at(self, addr):
        i = bisect.bisect_right(self.starts, addr) - 1
        if i >= 0 and addr < self.rows[i]["end"]:
            return self.rows[i]
        return None


def compare_function(fde, sf_rows, bad):
    """Every address of FDE: SFrame's row is the table's.  Returns (rows, addresses)."""
    rows = addresses = 0
    for r in fde["rows"]:
        a = r["start"]
        rows += 1
        while a < r["end"]:
            s = sf_rows.at(a)
            if s is None:
                bad.append("0x%x: no SFrame row (table %s)" % (a, view(r, a)))
                a += 1
                addresses += 1
                continue
            stop = min(r["end"], s["end"])
            if by_address(r) or by_address(s):
                stop = a + 1
            if view(r, a) != view(s, a):
                bad.append("0x%x: table %s, SFrame %s" % (a, view(r, a), view(s, a)))
            addresses += stop - a
            a = stop
    return rows, addresses


def libsframe_check(path, table, written, bad):
    """libsframe's lines against the table's rows; returns (addresses, fres)."""
    def text(v):
        if v[0] == "outermost":
            return "outermost"
        cfa, _, fp = v
        base = {7: "rsp", 6: "rbp"}.get(cfa[1], "?")
        return "%s%+d %s" % (base, cfa[2], "c%+d" % fp[1] if fp[0] == "offset" else "u")
    addresses = fres = 0
    fde = None
    for line in open(path):
        f = line.split()
        if f[0] == "fde":
            pc, size, kind = int(f[2]), int(f[3]), f[4]
            fde = (pc, size, kind)
            if not any(lo <= pc and pc + size <= hi for lo, hi in written):
                bad.append("libsframe: FDE at 0x%x (%d bytes) outside the functions written" % (pc, size))
            continue
        if f[0] == "fre":
            fres += 1
            pc, size, _ = fde
            for base in range(pc, pc + size, 16):
                a = base + int(f[1])
                row = table.at(a) if a < pc + size else None
                if row is not None and text(view(row, a)) != " ".join(f[2:]):
                    bad.append("libsframe 0x%x (FRE +%s): %s, table %s" % (a, f[1], " ".join(f[2:]), text(view(row, a))))
            continue
        addresses += 1
        a = int(f[0])
        row = table.at(a)
        want = text(view(row, a)) if row else "none"
        if want != " ".join(f[1:]):
            bad.append("libsframe 0x%x: %s, table %s" % (a, " ".join(f[1:]), want))
    return addresses, fres


def main(argv):
    table = json.load(open(argv[1]))
    sframe = json.load(open(argv[2]))
    report = json.load(open(argv[3]))["sframe"]
    fdes = [e for s in table["sections"] if s["section"] == ".eh_frame" for e in s["entries"] if e["type"] == "fde"]
    sec = sframe["sections"][0]
    sf_fdes = sec["entries"]
    sf_rows = Rows([r for e in sf_fdes for r in e["rows"]])
    left = {(l["lo"], l["hi"]): l for l in report["left"]}
    bad = []
    nleft = nwritten = rows = addresses = 0
    reasons = {}
    written = []
    for fde in sorted(fdes, key=lambda e: (e["pc_begin"], e["pc_end"])):
        key = (fde["pc_begin"], fde["pc_end"])
        if key in left:
            why = left.pop(key)["reason"]
            if not why:
                bad.append("0x%x: left out without a reason" % key[0])
            reasons[why] = reasons.get(why, 0) + 1
            nleft += 1
            continue
        n, a = compare_function(fde, sf_rows, bad)
        rows += n
        addresses += a
        nwritten += 1
        written.append(key)
    for key in left:
        bad.append("listed as left out, but no such function in the table: [0x%x, 0x%x)" % key)
    covered = sum(e["pc_end"] - e["pc_begin"] for e in sf_fdes)
    if covered != sum(hi - lo for lo, hi in written):
        bad.append("SFrame covers %d bytes, the functions written %d" % (covered, sum(hi - lo for lo, hi in written)))
    if (report["functions"], report["fdes"], report["fres"]) != (nwritten, sec["num_fdes"], sec["num_fres"]):
        bad.append("report: %d functions, %d FDEs, %d FREs; section: %d functions, %d FDEs, %d FREs" %
                   (report["functions"], report["fdes"], report["fres"], nwritten, sec["num_fdes"], sec["num_fres"]))
    extra = ""
    if len(argv) > 4:
        table_rows = Rows([r for e in fdes for r in e["rows"]])
        la, lf = libsframe_check(argv[4], table_rows, written, bad)
        extra = "; libsframe: %d addresses and %d PLT FREs agree" % (la, lf) if not bad else ""
    print("V%d: %d functions written (%d FDEs, %d PCMASK, %d FLEX, %d FREs), %d left to .eh_frame%s; "
          "%d rows, %d addresses compared, %d differ%s" %
          (sec["version"], nwritten, sec["num_fdes"], report["pcmask_fdes"], report["flex_fdes"], sec["num_fres"],
           nleft, " (" + "; ".join("%d %s" % (n, w) for w, n in sorted(reasons.items(), key=lambda x: -x[1])) + ")"
           if reasons else "", rows, addresses, len(bad), extra))
    for b in bad[:10]:
        print("  " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
