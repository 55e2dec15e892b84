#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""compare_script.py: dwperf --format=script against perf script --no-inline
on the same recording (tests/profile/run.sh).

Both outputs are parsed into samples: a header line (comm, tid, time, and
the rest: period, event) followed by frame lines `ADDR SYM+OFF (DSO)`
(or `ADDR [unknown] (DSO)`), a blank line between samples.  Samples are
paired in order, by their header's (comm, tid, time); a sample of one
output that the other does not have at that place is unpaired.

For each pair whose perf stack reaches `main` (a frame whose symbol is
main, and not ending in the `ffffffffffffffff [unknown]` frame that perf
prints where its walk failed, nor passing through an address in no
mapping, `[unknown] ([unknown])`: such a walk may have skipped frames
before it failed), the two stacks must be the same (dso, address) pairs in the same
order; where perf's list is a proper prefix of dwperf's (perf stopped
between main and the outermost frame, where dwperf goes on: perf does not
read the last word of the stack copy), the pair is counted apart, and as
the same frames unless --strict; so is a pair where perf's list is
dwperf's with frames left out between its first and its last, each of
them a call site (objdump, from the start of its function, shows a `call`
at the address): perf stepped over a frame (seen in corpus programs'
alloca and VLA frames, in samples inside memset).  A pair where one of
perf's callers is at no call site (objdump: its walk read a word that is
no return address, seen after it stepped over such a frame) while each of
dwperf's is at one is left out of the samples reaching main, and counted
apart.  Where perf's stack does not reach main (perf stopped early, or the
sample is in code main does not call: the dynamic loader, a thread's
start), the pair is counted as the same, as dwperf going further (perf's
frames a prefix of dwperf's longer list), or as differing; there the
`ffffffffffffffff [unknown] ([unknown])` frame that perf prints where its
unwinding of the stack copy failed is left out of both lists.

Prints the counts, and the first differences (--show, 5 by default).
Exits 1 when fewer than --min-identical percent (99) of the samples that
reach main have the same frames, when a sample is unpaired (dwperf must print
every sample perf prints), or when no sample reaches main (nothing was
compared); exits 2 on unreadable input.

Usage:
  compare_script.py [--label NAME] [--min-identical PCT] [--show N]
                    [--user-only] [--strict] PERF_SCRIPT_OUTPUT DWPERF_OUTPUT
      --user-only compares user-space frames only (kernel frames dropped
      from both sides), for a dwperf that does not print kernel frames.
  compare_script.py --self-test
"""
import argparse
import re
import subprocess
import sys

# comm (may hold spaces), tid (or pid/tid), an optional [cpu], the time.
HEADER = re.compile(r"^(?P<comm>.*?)\s+(?:\d+/)?(?P<tid>\d+)\s+(?:\[\d+\]\s+)?(?P<time>\d+\.\d+):(?P<rest>.*)$")
# The address, the symbol (greedy: C++ names hold spaces and parentheses),
# the dso in the last parentheses of the line.
FRAME = re.compile(r"^\s+(?P<addr>[0-9a-f]+)\s+(?P<sym>.*?)\s*\((?P<dso>[^()]*(?:\([^()]*\)[^()]*)*)\)$")
KERNEL_DSO = re.compile(r"^\[kernel\.kallsyms\]|^\[guest\.kernel|\.ko(\.[a-z]+)?$")


class Sample:
    __slots__ = ("comm", "tid", "time", "header", "frames", "lines")

    def __init__(self, comm, tid, time, header):
        self.comm, self.tid, self.time, self.header = comm, tid, time, header
        self.frames = []     # (dso, address, symbol)
        self.lines = []

    def key(self):
        return (self.comm, self.tid, self.time)

    def reaches_main(self):
        return any(sym_name(f[2]) == "main" for f in self.frames)


def sym_name(sym):
    """The function of a frame's symbol text: main+0x25 -> main."""
    return re.sub(r"\+0x[0-9a-f]+$", "", sym)


def is_kernel(frame):
    return bool(KERNEL_DSO.search(frame[0])) or int(frame[1], 16) >= 0xffff800000000000


class ParseError(Exception):
    pass


def parse(text, name):
    """The samples of a perf script output."""
    samples = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        if line[0].isspace():
            m = FRAME.match(line)
            if not m or not samples:
                raise ParseError(f"{name}:{number}: not a frame line: {line.strip()[:120]}")
            samples[-1].frames.append((m.group("dso"), m.group("addr").lstrip("0") or "0",
                                       m.group("sym")))
            samples[-1].lines.append(line.strip())
            continue
        m = HEADER.match(line)
        if not m:
            raise ParseError(f"{name}:{number}: not a sample header: {line[:120]}")
        samples.append(Sample(m.group("comm").strip(), int(m.group("tid")), m.group("time"), line.rstrip()))
    return samples


def pair(perf, dwperf):
    """Pairs (p, d) in order by header key; unpaired samples of each side."""
    pairs, only_perf, only_dwperf = [], [], []
    i = j = 0
    while i < len(perf) and j < len(dwperf):
        if perf[i].key() == dwperf[j].key():
            pairs.append((perf[i], dwperf[j]))
            i += 1
            j += 1
            continue
        # Resynchronise: the nearer of the two keys in the other list.
        ahead_d = next((k for k in range(j + 1, min(j + 200, len(dwperf))) if dwperf[k].key() == perf[i].key()), None)
        ahead_p = next((k for k in range(i + 1, min(i + 200, len(perf))) if perf[k].key() == dwperf[j].key()), None)
        if ahead_d is not None and (ahead_p is None or ahead_d - j <= ahead_p - i):
            only_dwperf.extend(dwperf[j:ahead_d])
            j = ahead_d
        elif ahead_p is not None:
            only_perf.extend(perf[i:ahead_p])
            i = ahead_p
        else:
            only_perf.append(perf[i])
            only_dwperf.append(dwperf[j])
            i += 1
            j += 1
    only_perf.extend(perf[i:])
    only_dwperf.extend(dwperf[j:])
    return pairs, only_perf, only_dwperf


def frame_list(sample, user_only):
    return [(f[0], f[1]) for f in sample.frames if not (user_only and is_kernel(f))]


def without_end_marker(frames):
    """FRAMES without the trailing ffffffffffffffff [unknown] ([unknown])
    perf prints where its unwinding of a stack copy failed."""
    while frames and frames[-1] == ("[unknown]", "ffffffffffffffff"):
        frames = frames[:-1]
    return frames


def perf_failed(frames):
    """Whether perf's FRAMES end in the marker of a failed unwinding, or
    pass through a return address in no mapping (`ADDR [unknown]
    ([unknown])`): a word read where no return address was, after a step
    that may have skipped frames."""
    return bool(frames) and (frames[-1] == ("[unknown]", "ffffffffffffffff") or
                             any(f[0] == "[unknown]" for f in frames))


def show_difference(p, d, user_only, out):
    out.write(f"  {p.header}\n")
    pf, df = frame_list(p, user_only), frame_list(d, user_only)
    plines = [line for line, f in zip(p.lines, p.frames) if not (user_only and is_kernel(f))]
    dlines = [line for line, f in zip(d.lines, d.frames) if not (user_only and is_kernel(f))]
    width = max([len(s) for s in plines] + [len("perf script --no-inline")])
    width = min(width, 70)
    out.write(f"    {'perf script --no-inline':<{width}}  | dwperf\n")
    for k in range(max(len(pf), len(df))):
        a = plines[k] if k < len(plines) else ""
        b = dlines[k] if k < len(dlines) else ""
        mark = " " if k < len(pf) and k < len(df) and pf[k] == df[k] else "*"
        out.write(f"  {mark} {a[:width]:<{width}}  | {b[:width]}\n")


_call_sites = {}


def objdump_call_site(dso, addr, sym):
    """Whether the instruction at ADDR (a caller's frame as perf prints it:
    its return address - 1) in the file DSO is a call, disassembled by
    objdump from the start of its function SYM ("name+0xoff")."""
    m = re.search(r"\+0x([0-9a-f]+)$", sym)
    if not dso.startswith("/") or not m:
        return False
    key = (dso, addr)
    if key not in _call_sites:
        at = int(addr, 16)
        start = at - int(m.group(1), 16)
        try:
            dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--start-address=0x%x" % start,
                                  "--stop-address=0x%x" % (at + 1), dso], capture_output=True, text=True).stdout
        except OSError:
            dis = ""
        insns = [l.split("\t") for l in dis.splitlines() if re.match(r"\s+[0-9a-f]+:\t", l)]
        _call_sites[key] = bool(insns) and len(insns[-1]) > 1 and insns[-1][1].startswith("call")
    return _call_sites[key]


def skipped_by_perf(pu, d_frames, call_site):
    """Whether perf's frames PU are dwperf's D_FRAMES ((dso, address,
    symbol) each) with some left out between the first and the last, each
    left-out frame a call site (CALL_SITE): perf stepped over a frame."""
    du = [(f[0], f[1]) for f in d_frames]
    if len(du) <= len(pu) or not pu or du[0] != pu[0]:
        return False
    k, extra = 0, []
    for i, f in enumerate(du):
        if k < len(pu) and f == pu[k]:
            k += 1
        elif k < len(pu):
            extra.append(d_frames[i])
    return k == len(pu) and bool(extra) and all(call_site(*f) for f in extra)


def callers(frames):
    """The user-space frames of a stack after its first (the sample's own
    address): (dso, address, symbol) each, return addresses all."""
    return [f for f in frames if not is_kernel(f)][1:]


def perf_broken(p_frames, d_frames, call_site):
    """Whether perf's walk went wrong where dwperf's did not: one of perf's
    callers (P_FRAMES) is at no call site (CALL_SITE), while each of
    dwperf's (D_FRAMES) is at one."""
    return (any(not call_site(*f) for f in callers(p_frames)) and
            all(call_site(*f) for f in callers(d_frames)))


def compare(perf_text, dwperf_text, label="", min_identical=99.0, show=5, user_only=False, strict=False,
            out=sys.stdout, call_site=objdump_call_site):
    """Compare two outputs; returns (passed, counts)."""
    perf = parse(perf_text, "perf script")
    dwperf = parse(dwperf_text, "dwperf")
    pairs, only_perf, only_dwperf = pair(perf, dwperf)
    c = dict(samples=len(perf), dwperf_samples=len(dwperf), paired=len(pairs),
             only_perf=len(only_perf), only_dwperf=len(only_dwperf),
             main=0, identical=0, main_deeper=0, perf_skipped=0, perf_broken=0, differing=0, main_shorter=0,
             kernel_only=0,
             lines_identical=0,
             early=0, early_same=0, early_deeper=0, early_deeper_to_main=0, early_shorter=0,
             early_differing=0)
    shown = 0
    prefix = f"{label}: " if label else ""
    for p, d in pairs:
        pf, df = frame_list(p, user_only), frame_list(d, user_only)
        # A perf stack that ends in its failure marker did not finish its
        # walk: where it passes main it may have skipped frames (seen in
        # ld.so's lazy-binding resolver), so it is not a stack reaching main.
        if p.reaches_main() and not perf_failed(pf):
            c["main"] += 1
            pu, du = without_end_marker(pf), without_end_marker(df)
            if pf == df:
                c["identical"] += 1
                c["lines_identical"] += p.lines == d.lines
            elif len(du) > len(pu) and du[:len(pu)] == pu:
                c["main_deeper"] += 1
            elif skipped_by_perf(pu, [f for f in d.frames if not (user_only and is_kernel(f))][:len(du)], call_site):
                c["perf_skipped"] += 1
            elif perf_broken(p.frames, d.frames, call_site):
                c["main"] -= 1
                c["perf_broken"] += 1
            else:
                c["differing"] += 1
                c["main_shorter"] += len(du) < len(pu) and pu[:len(du)] == du
                user_p = [f for f in p.frames if not is_kernel(f)]
                user_d = [f for f in d.frames if not is_kernel(f)]
                c["kernel_only"] += [f[:2] for f in user_p] == [f[:2] for f in user_d]
                if shown < show:
                    if shown == 0:
                        out.write(f"{prefix}samples reaching main whose frames differ (first {show}):\n")
                    show_difference(p, d, user_only, out)
                    shown += 1
            continue
        c["early"] += 1
        pf, df = without_end_marker(pf), without_end_marker(df)
        if pf == df:
            c["early_same"] += 1
        elif len(df) > len(pf) and df[:len(pf)] == pf:
            c["early_deeper"] += 1
            c["early_deeper_to_main"] += d.reaches_main()
        elif len(df) < len(pf) and pf[:len(df)] == df:
            c["early_shorter"] += 1
        else:
            c["early_differing"] += 1
    for side, lst in (("perf script", only_perf), ("dwperf", only_dwperf)):
        for s in lst[:3]:
            out.write(f"{prefix}only in {side}: {s.header}\n")
    same = c["identical"] + (0 if strict else c["main_deeper"] + c["perf_skipped"])
    pct = 100.0 * same / c["main"] if c["main"] else 0.0
    c["same_pct"] = pct
    out.write(f"{prefix}{c['samples']} samples (dwperf {c['dwperf_samples']}), {c['paired']} paired"
              f"{'' if not (c['only_perf'] or c['only_dwperf']) else ', unpaired: %d only in perf script, %d only in dwperf' % (c['only_perf'], c['only_dwperf'])}\n")
    out.write(f"{prefix}reaching main: {c['main']}; identical (dso, address) lists {c['identical']}, "
              f"perf's a prefix of dwperf's {c['main_deeper']} (perf stops after main, dwperf goes further), "
              f"perf's with frames of dwperf's left out {c['perf_skipped']} (perf stepped over a frame: each one "
              f"dwperf has more is a call site, objdump); "
              f"the same frames as far as perf goes: {pct:.2f}%{' (--strict: identical only)' if strict else ''}; "
              f"differing {c['differing']} ({c['main_shorter']} where dwperf stops early: its frames a prefix of perf's"
              f"{'; %d in kernel frames only' % c['kernel_only'] if c['kernel_only'] else ''}); "
              f"identical lines (symbols too) {c['lines_identical']}"
              f"{'; left out: %d where perf has a caller at no call site and dwperf none (objdump)' % c['perf_broken'] if c['perf_broken'] else ''}\n")
    out.write(f"{prefix}perf's stack stops before main: {c['early']}; the same {c['early_same']}, "
              f"dwperf deeper {c['early_deeper']} (to main: {c['early_deeper_to_main']}), "
              f"dwperf shorter {c['early_shorter']}, differing {c['early_differing']}\n")
    passed = c["main"] > 0 and pct >= min_identical and not only_perf and not only_dwperf
    return passed, c


# ---- self-test -------------------------------------------------------------------

SAMPLE_A = """\
prog 100 10.000001:     500000 cpu-clock: 
\tffffffff821f2fa7 exc_page_fault+0xd7 ([kernel.kallsyms])
\t            1299 fib+0x29 (/bin/prog)
\t            1075 main+0x25 (/bin/prog)
\t           27249 __libc_start_call_main+0x79 (/usr/lib/libc.so.6)

prog 100 10.000501:     500000 cpu-clock: 
\t            402f std::less<(anonymous namespace)::R>::operator()(R const&) const+0x6f (/bin/prog)
\t            23a9 main+0x79 (/bin/prog)

prog 100 10.001001:     500000 cpu-clock: 
\t           154bb [unknown] (/usr/lib/libgcc_s.so.1)
\t            1738c _Unwind_Resume+0x12c (/usr/lib/libgcc_s.so.1)

my prog 101 10.001501:     500000 cpu-clock: 
\t           1ab77 _start+0x7 (/lib/ld.so)
"""


def self_test():
    failures = []

    def check(name, cond):
        if not cond:
            failures.append(name)

    class Null:
        def write(self, s):
            pass

    s = parse(SAMPLE_A, "a")
    check("four samples", len(s) == 4)
    check("comm with a space", s[3].comm == "my prog" and s[3].tid == 101)
    check("C++ symbol parsed", s[1].frames[0] == ("/bin/prog", "402f",
          "std::less<(anonymous namespace)::R>::operator()(R const&) const+0x6f"))
    check("reaches main", [x.reaches_main() for x in s] == [True, True, False, False])
    ok_, c = compare(SAMPLE_A, SAMPLE_A, out=Null())
    check("identical outputs pass", ok_ and c["identical"] == 2 and c["early_same"] == 2)
    altered = SAMPLE_A.replace("1075 main+0x25", "1076 main+0x26")
    ok_, c = compare(SAMPLE_A, altered, out=Null())
    check("an altered address fails", not ok_ and c["differing"] == 1)
    altered = SAMPLE_A.replace("(/bin/prog)\n\t            1075", "(/bin/prug)\n\t            1075")
    ok_, c = compare(SAMPLE_A, altered, out=Null())
    check("an altered dso fails", not ok_ and c["differing"] == 1)
    ok_, c = compare(SAMPLE_A, SAMPLE_A.replace("fib+0x29", "fob+0x29"), out=Null())
    check("a symbol's text alone does not fail", ok_ and c["lines_identical"] == 1)
    deeper = SAMPLE_A.replace("_Unwind_Resume+0x12c (/usr/lib/libgcc_s.so.1)\n",
                              "_Unwind_Resume+0x12c (/usr/lib/libgcc_s.so.1)\n\t 23a9 main+0x79 (/bin/prog)\n")
    ok_, c = compare(SAMPLE_A, deeper, out=Null())
    check("dwperf deeper where perf stops", ok_ and c["early_deeper"] == 1 and c["early_deeper_to_main"] == 1)
    past_main = SAMPLE_A.replace("(/usr/lib/libc.so.6)\n", "(/usr/lib/libc.so.6)\n\t 10c0 _start+0x20 (/bin/prog)\n")
    ok_, c = compare(SAMPLE_A, past_main, out=Null())
    check("dwperf deeper past main", ok_ and c["identical"] == 1 and c["main_deeper"] == 1)
    ok_, c = compare(SAMPLE_A, past_main, strict=True, out=Null())
    check("--strict counts it as a difference", not ok_ and c["same_pct"] == 50.0)
    ok_, c = compare(past_main, SAMPLE_A, out=Null())
    check("dwperf shorter past main fails", not ok_ and c["differing"] == 1)
    marker = SAMPLE_A.replace("(/usr/lib/libgcc_s.so.1)\n\nmy", "(/usr/lib/libgcc_s.so.1)\n\tffffffffffffffff [unknown] ([unknown])\n\nmy")
    ok_, c = compare(marker, SAMPLE_A, out=Null())
    check("perf's end marker ignored where perf stops early", ok_ and c["early_same"] == 2)
    failed = SAMPLE_A.replace("23a9 main+0x79 (/bin/prog)\n", "23a9 main+0x79 (/bin/prog)\n\tffffffffffffffff [unknown] ([unknown])\n")
    skipped = SAMPLE_A.replace("(/bin/prog)\n\t            23a9", "(/bin/prog)\n\t 4000 caller+0x1 (/bin/prog)\n\t            23a9")
    ok_, c = compare(failed, skipped, out=Null())
    check("a perf walk that failed after main is not a stack reaching main",
          ok_ and c["main"] == 1 and c["early_differing"] == 1)
    # perf stepped over a frame: its list is dwperf's with one left out.
    over = SAMPLE_A.replace("1075 main+0x25 (/bin/prog)\n", "1100 one_alloca+0x29 (/bin/prog)\n\t 1075 main+0x25 (/bin/prog)\n")
    ok_, c = compare(SAMPLE_A, over, out=Null(), call_site=lambda dso, addr, sym: sym == "one_alloca+0x29")
    check("perf stepping over a call site counted apart", ok_ and c["perf_skipped"] == 1 and c["differing"] == 0)
    ok_, c = compare(SAMPLE_A, over, out=Null(), call_site=lambda dso, addr, sym: False)
    check("a frame dwperf has more that is no call site differs", not ok_ and c["differing"] == 1)
    ok_, c = compare(over, SAMPLE_A, out=Null(), call_site=lambda dso, addr, sym: True)
    check("dwperf leaving a frame out differs", not ok_ and c["differing"] == 1)
    # perf's walk read a word that is no return address: left out when
    # dwperf's callers are all call sites, a difference when not.
    junk = SAMPLE_A.replace("1299 fib+0x29 (/bin/prog)\n", "1299 fib+0x29 (/bin/prog)\n\t 2dbf junk+0x7 (/bin/prog)\n")
    ok_, c = compare(junk, SAMPLE_A, out=Null(), call_site=lambda dso, addr, sym: sym != "junk+0x7")
    check("perf's caller at no call site left out", ok_ and c["perf_broken"] == 1 and c["main"] == 1)
    ok_, c = compare(junk, SAMPLE_A, out=Null(), call_site=lambda dso, addr, sym: sym != "main+0x25")
    check("not when dwperf's callers are not all call sites", not ok_ and c["differing"] == 1)
    garbage = SAMPLE_A.replace("23a9 main+0x79 (/bin/prog)\n", "23a9 main+0x79 (/bin/prog)\n\t 202020202020201 [unknown] ([unknown])\n")
    ok_, c = compare(garbage, skipped, out=Null())
    check("a perf walk through an address in no mapping after main is not a stack reaching main",
          ok_ and c["main"] == 1 and c["early_differing"] == 1)
    dropped = SAMPLE_A.replace("prog 100 10.000501", "prog 100 10.000502")
    ok_, c = compare(SAMPLE_A, dropped, out=Null())
    check("a sample missing fails", not ok_ and c["only_perf"] == 1 and c["only_dwperf"] == 1)
    no_kernel = SAMPLE_A.replace("\tffffffff821f2fa7 exc_page_fault+0xd7 ([kernel.kallsyms])\n", "")
    ok_, c = compare(SAMPLE_A, no_kernel, out=Null())
    check("kernel frames count", not ok_ and c["kernel_only"] == 1)
    ok_, c = compare(SAMPLE_A, no_kernel, user_only=True, out=Null())
    check("--user-only drops them", ok_)
    try:
        parse("prog 1 1.0: x\nnot a frame\n", "bad")
        check("garbage rejected", False)
    except ParseError:
        pass
    for f in failures:
        print(f"self-test failed: {f}")
    print(f"compare_script self-test: {'ok' if not failures else 'FAILED'}")
    return 0 if not failures else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("perf_output", nargs="?")
    ap.add_argument("dwperf_output", nargs="?")
    ap.add_argument("--label", default="")
    ap.add_argument("--min-identical", type=float, default=99.0)
    ap.add_argument("--show", type=int, default=5)
    ap.add_argument("--user-only", action="store_true")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.perf_output or not a.dwperf_output:
        ap.error("two outputs to compare")
    try:
        with open(a.perf_output, errors="replace") as f:
            perf_text = f.read()
        with open(a.dwperf_output, errors="replace") as f:
            dwperf_text = f.read()
        passed, _ = compare(perf_text, dwperf_text, a.label, a.min_identical, a.show, a.user_only, a.strict)
    except (OSError, ParseError) as e:
        print(f"compare_script: {e}", file=sys.stderr)
        return 2
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
