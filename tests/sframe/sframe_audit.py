#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""dwcheck's SFrame audit, judged from its JSON lines (tests/sframe/run.sh, part 5).

  sframe_audit.py corpus [--every-row] WITH.jsonl WITHOUT.jsonl TABLES.jsonl
      WITH: dwcheck --format=json over files built with --gsframe; WITHOUT:
      over the same files with .sframe removed (same basenames); TABLES:
      dwtable --sframe --format=json over WITH's files.  Fails unless every
      file has its SFrame audited; its other findings are exactly those of
      the file without .sframe; an error of an SFrame kind is only where the
      DWARF audit has the same column wrong in the same function (gas wrote
      the wrong CFI into both: inherited, not SFrame's own), or a CFA that
      binutils' own output shows wrong (gas_r11_row: a CFA kept in r11 at
      the head of a stack-clash probe loop, written as sp+N); and every row
      of its SFrame tables is checked but those the audit could not check
      at any of their addresses (unreached code, padding, a CFA it cannot
      decide: at most one such row per address left unchecked; with
      --every-row, none left unchecked).  Prints the
      figures: files, SFrame FDEs, rows checked of the rows in H, addresses.
  sframe_audit.py expect JSON KIND@ADDR[/COUNT]...
      The findings of the one file in JSON are exactly these (ADDR hex,
      COUNT the addresses each covers when given); prints what differs.
  sframe_audit.py mutants SEED.json LIST OUTDIR SEEDROWS.json
      Mutants' dwcheck lines (OUTDIR/NAME.json, NAME from LIST, "NAME
      EXPECT" lines of sframe_tool.py mutants) and their tables
      (OUTDIR/NAME.rows: dwtable --sframe --format=json, empty when it
      refused the section) against the seed's: a targeted mutant has a
      malformed-sframe finding with EXPECT in its message; a mutant whose
      rows differ from the seed's is noticed (a finding of an SFrame kind
      the seed has not, or other SFrame figures); every file was audited.
  sframe_audit.py drap-v3 PC OUT [FP_OFFSET]
      Write OUT, a V3 .sframe section (for address 0: objcopy
      --add-section) with one FLEX FDE for tests/sframe/audit.s's drap at
      PC: GCC's DRAP rows as V3 writes them, CFA = *(rbp-8) while the frame
      is realigned, rbp saved at *(rbp+0) — or at *(rbp+FP_OFFSET), wrong
      rows for FP_OFFSET other than 0.
"""
import json
import os
import re
import struct
import subprocess
import sys

SFRAME_KINDS = ("sframe-cfa-mismatch", "sframe-fp-mismatch", "sframe-ra-mismatch", "malformed-sframe",
                "sframe-eh-frame-differ", "sframe-missing-fde")


def lines(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        if line.strip():
            rec = json.loads(line)
            out[os.path.basename(rec["file"])] = rec
    return out


def finding_key(f):
    return (f["kind"], f["severity"], f["address"], f["addresses"], f["message"])


# The DWARF finding that an SFrame error repeats, by the column's name in its message.
INHERITED = {"sframe-cfa-mismatch": (("cfa-mismatch",), "CFA"),
             "sframe-fp-mismatch": (("reg-mismatch", "clobbered-not-described"), "rbp"),
             "sframe-ra-mismatch": (("ra-mismatch",), "ra")}


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def row_at(text, address, cfa_field):
    """The CFA of the row starting at ADDRESS in readelf's table TEXT (-wF or --sframe)."""
    for line in text.splitlines():
        fields = line.split()
        if len(fields) > cfa_field and re.fullmatch(r"[0-9a-f]{16}", fields[0]) and int(fields[0], 16) == address:
            return fields[cfa_field]
    return None


def gas_r11_row(path, address, start):
    """None when binutils alone shows the SFrame CFA at ADDRESS of PATH wrong
    as gas 2.40 writes a CFA kept in r11: readelf -wF's row there is r11+N,
    readelf --sframe's is sp+N, and the instruction just before ADDRESS is
    `lea -X(%rsp),%r11` (X > 0), disassembled from the function's START: on
    the path from it r11 = rsp - X, so sp+N is the CFA plus X.  Else what
    does not hold."""
    dwarf = row_at(run("readelf", "-wF", path), address, 1)
    sframe = row_at(run("readelf", "--sframe", path), address, 1)
    if not dwarf or not sframe or not dwarf.startswith("r11+") or sframe != "sp+" + dwarf[4:]:
        return "readelf: .eh_frame's CFA %s, SFrame's %s at 0x%x" % (dwarf, sframe, address)
    dis = run("objdump", "-d", "--no-show-raw-insn", "--start-address=0x%x" % start,
              "--stop-address=0x%x" % (address + 1), path)
    insns = [l.strip() for l in dis.splitlines() if re.match(r"\s+[0-9a-f]+:\t", l)]
    if len(insns) < 2 or int(insns[-1].split(":")[0], 16) != address or \
       not re.search(r"\tlea\s+-0x[0-9a-f]+\(%rsp\),%r11$", insns[-2]):
        return "objdump: no lea -X(%%rsp),%%r11 just before 0x%x: %s" % (address, insns[-2:])
    return None


def inherited(f, findings):
    kinds, column = INHERITED.get(f["kind"], ((), ""))
    return any(d["kind"] in kinds and d["function_start"] == f["function_start"] and
               d["message"].startswith(column) for d in findings)


def corpus(with_path, without_path, tables_path, every_row=False):
    with_, without, tables = lines(with_path), lines(without_path), lines(tables_path)
    bad = []
    t = dict(files=0, fdes=0, rows=0, rows_checked=0, addresses=0, unchecked=0, dwarf_unchecked=0, missing=0,
             warnings=0, inherited=0, r11=0)
    reasons = {}
    for name, w in sorted(with_.items()):
        o = without.get(name)
        if "error" in w or o is None or "error" in o:
            bad.append("%s: not audited: %s" % (name, w.get("error") or (o or {}).get("error", "no line without .sframe")))
            continue
        sf = w.get("sframe")
        if not sf or sf["version"] != 1 or "sframe" in o:
            bad.append("%s: SFrame figures %s (without .sframe: %s)" % (name, sf, o.get("sframe")))
            continue
        mine = [f for f in w["findings"] if f["kind"] in SFRAME_KINDS]
        errors = [f for f in mine if f["severity"] == "error"]
        own = [f for f in errors if not inherited(f, w["findings"])]
        shown = [f for f in own if f["kind"] == "sframe-cfa-mismatch" and not gas_r11_row(w["file"], f["address"], f["function_start"])]
        own = [f for f in own if f not in shown]
        if own:
            why = gas_r11_row(w["file"], own[0]["address"], own[0]["function_start"])
            bad.append("%s: %s at 0x%x: %s (%s)" % (name, own[0]["kind"], own[0]["address"], own[0]["message"], why))
        t["inherited"] += len(errors) - len(own) - len(shown)
        t["r11"] += len(shown)
        rows = sum(len(e["rows"]) for s in tables[name]["sections"] for e in s["entries"])
        if rows - sf["rows_checked"] > sf["unchecked"] or (every_row and sf["rows_checked"] != rows):
            bad.append("%s: %d SFrame rows checked of %d (%d addresses left unchecked)" %
                       (name, sf["rows_checked"], rows, sf["unchecked"]))
        others = sorted(finding_key(f) for f in w["findings"] if f["kind"] not in SFRAME_KINDS)
        if others != sorted(finding_key(f) for f in o["findings"]):
            bad.append("%s: the findings outside SFrame differ from those of the file without .sframe" % name)
        t["files"] += 1
        t["fdes"] += sf["fdes"]
        t["rows"] += rows
        t["rows_checked"] += sf["rows_checked"]
        t["addresses"] += sf["addresses_checked"]
        t["unchecked"] += sf["unchecked"]
        t["dwarf_unchecked"] += w["unchecked"]
        t["missing"] += sf["fdes_missing"]
        t["warnings"] += sum(f["severity"] == "warning" for f in mine)
        for f in mine:
            if f["kind"] == "sframe-missing-fde":
                why = f["message"].split("covers", 1)[1].lstrip(": ") or "(no reason known)"
                reasons[why] = reasons.get(why, 0) + 1
    for b in bad[:5]:
        print(b)
    print("%d files: SFrame FDEs %d, rows checked %d of %d, addresses checked %d, unchecked %d (DWARF: %d); "
          "errors of an SFrame kind: %d DWARF's own repeated, %d CFAs in r11 written as sp+N (each shown wrong "
          "by readelf and objdump); %d sframe-eh-frame-differ warnings; %d sframe-missing-fde notes" %
          (t["files"], t["fdes"], t["rows_checked"], t["rows"], t["addresses"], t["unchecked"],
           t["dwarf_unchecked"], t["inherited"], t["r11"], t["warnings"], t["missing"]))
    for why, n in sorted(reasons.items(), key=lambda x: -x[1]):
        print("  %4d  %s" % (n, why))
    return 1 if bad or not t["files"] else 0


def expect(path, wanted):
    recs = list(lines(path).values())
    got = sorted((f["kind"], f["address"], f["addresses"]) for f in recs[0]["findings"])
    want = []
    for w in wanted:
        kind, rest = w.split("@")
        addr, _, count = rest.partition("/")
        want.append((kind, int(addr, 16), int(count) if count else None))
    if len(got) == len(want) and all(g[:2] == w[:2] and w[2] in (None, g[2]) for g, w in zip(got, sorted(want, key=lambda w: w[:2]))):
        return 0
    for f in recs[0]["findings"]:
        print("got %s at 0x%x (%d addresses): %s" % (f["kind"], f["address"], f["addresses"], f["message"]))
    print("want %s" % " ".join(wanted))
    return 1


def sframe_state(rec):
    return (rec.get("sframe"), sorted((f["kind"], f["address"], f["addresses"], f["message"])
                                      for f in rec["findings"] if f["kind"] in SFRAME_KINDS))


def table_rows(path):
    """The rows of H that dwtable --sframe --format=json printed in PATH, by
    function (functions of no code left out); None when it printed none."""
    text = open(path).read()
    if not text.strip():
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None   # cut short by a malformed FDE
    return sorted((e["pc_begin"], e["pc_end"], e["pc_type"], e["rows"])
                  for s in doc["sections"] for e in s.get("entries", []) if e["pc_end"] > e["pc_begin"])


def mutants(seed_path, list_path, outdir, seed_rows_path):
    seed = list(lines(seed_path).values())[0]
    seed_rows = table_rows(seed_rows_path)
    seed_found = set(sframe_state(seed)[1])
    problems, targeted, changed, by_finding, by_figures = [], 0, 0, 0, 0
    for line in open(list_path):
        name, expect_phrase = line.split()
        path = os.path.join(outdir, name + ".json")
        text = open(path).read() if os.path.exists(path) else ""
        try:
            rec = json.loads(text)
        except ValueError:
            problems.append("%s: no JSON line" % name)
            continue
        if "error" in rec:
            # A section header that claims bytes past the file's end makes
            # the ELF file unreadable as a whole: a tool error, not SFrame's.
            if name != "size_past_file" or "past the end of the file" not in rec["error"]:
                problems.append("%s: not audited: %s" % (name, rec["error"]))
            continue
        if expect_phrase != "any":
            targeted += 1
            phrase = expect_phrase.replace("_", " ")
            if not any(f["kind"] == "malformed-sframe" and phrase in f["message"] for f in rec["findings"]):
                problems.append("%s: no malformed-sframe finding with '%s'" % (name, phrase))
        rows = table_rows(os.path.join(outdir, name + ".rows"))
        if rows == seed_rows:
            continue
        changed += 1
        figures, found = sframe_state(rec)
        if set(found) - seed_found:
            by_finding += 1
        elif figures != sframe_state(seed)[0]:
            by_figures += 1
        else:
            problems.append("%s: its SFrame rows changed, and nothing in the audit did" % name)
    for p in problems[:5]:
        print(p)
    print("%d targeted, each reported with its reason; %d changed the rows: %d found by a new finding, "
          "%d by the SFrame figures (rows left unchecked)" % (targeted, changed, by_finding, by_figures))
    return 1 if problems else 0


def drap_v3(pc, out, fp_offset=0):
    # FLEX words: (control, offset) per entity, CFA then RA then FP;
    # control = reg << 3 | deref << 1 | reg_p; a lone 0 pads an entity.
    rsp8, r10, cfa_deref = (7 << 3 | 1, 8), (10 << 3 | 1, 0), (6 << 3 | 3, -8)
    fp_saved = (0, 6 << 3 | 3, fp_offset)
    fres = [(0x00, rsp8),                       # lea 8(%rsp), %r10
            (0x05, r10),                        # and, push -8(%r10), push %rbp, mov %rsp, %rbp
            (0x11, r10 + fp_saved),             # push %r10
            (0x13, cfa_deref + fp_saved),       # nop, pop %r10
            (0x16, r10 + fp_saved),             # pop %rbp
            (0x17, r10),                        # lea -8(%r10), %rsp
            (0x1b, rsp8)]                       # ret
    body = b""
    for start, words in fres:
        body += struct.pack("<BB", start, len(words) << 1 | 1) + bytes(w & 0xff for w in words)
    attr = struct.pack("<HBBB", len(fres), 0, 1, 0)          # 1-byte FRE starts, PCINC; FLEX
    index = struct.pack("<qII", pc - 28, 0x1c, 0)           # PC-relative to the field at offset 28
    body = attr + body
    head = struct.pack("<HBBBbbBIIIII", 0xdee2, 3, 1 | 4, 3, 0, -8, 0, 1, len(fres), len(body), 0, len(index))
    open(out, "wb").write(head + index + body)
    return 0


def main(argv):
    if argv[1] == "corpus":
        every = argv[2] == "--every-row"
        return corpus(*argv[2 + every:5 + every], every_row=every)
    if argv[1] == "expect":
        return expect(argv[2], argv[3:])
    if argv[1] == "mutants":
        return mutants(argv[2], argv[3], argv[4], argv[5])
    if argv[1] == "drap-v3":
        return drap_v3(int(argv[2], 0), argv[3], *(int(a) for a in argv[4:5]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
