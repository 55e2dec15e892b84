#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The console examples of the README and of docs/, run and compared with
what they show.

Usage: console_examples.py WORKDIR ROOT FILE...

FILE... are the Markdown files (README.md, docs/*.md), named relative to
ROOT; their examples run in the order given, all in WORKDIR (a later
example may read what an earlier one wrote).  Every ```console block of a
file is a sequence of `$ COMMAND` lines, each
followed by the output it shows.  Each command runs in WORKDIR with bash
(so `&&` and pipes work), stderr merged into stdout, and its output must
match the lines shown:

  - shown lines match output lines one for one, in order, from the first
    output line to the last; a line that is only `...` stands for any
    number of output lines (none included), and `...` inside a line for
    any text;
  - words and punctuation match exactly; a run of blanks matches any run
    of blanks (columns move when a figure changes width); trailing blanks
    are ignored;
  - numbers are figures, compared by kind (see figures_agree): an integer
    under 100 exactly (counts of errors, line numbers, register offsets:
    `0 not synthesisable` means 0), a larger one within 5%; a percentage
    within 0.1 point, 0% and 100% exactly; a decimal within 5%; a version
    (4.0.2) exactly; an address (0x4c6e1, or readelf's zero-padded
    0000000000098930) by its form only, since it moves with every build of
    a library.

So an example stays right across a security update of libc, but a changed
claim or a changed output shape fails.  Figures that matched only within
tolerance are listed, so that the file can be brought up to date.

Then the prose claims (PROSE_CLAIMS) tie sentences that quote an example's
figures to the output of its command (sentences and examples of any of the
files).  How many examples each file has is printed, and fewer than
MIN_EXAMPLES in all fails: the README's reference moved to docs/ with its
examples (17 of them when it did), and none may be dropped unseen.  Last, a fenced block whose first line
is a `$ ` prompt but which is not a console block fails: it would be an
example nobody checks.

Prints `ok - ...` / `not ok - ...` lines and `readme: N passed, N failed`;
the exit status is 1 when something failed.
"""
import re
import subprocess
import sys

# ---- tokens and figures -------------------------------------------------------

TOKEN = re.compile(r"""
    (?P<ellipsis>\.\.\.)
  | (?P<version>\d+(?:\.\d+){2,})
  | (?P<hex>0x[0-9a-fA-F]+)
  | (?P<padded>(?<![0-9A-Za-z_])(?=[0-9a-f]*[0-9])(?:0[0-9a-f]{7,}|[0-9a-f]*[a-f][0-9a-f]*)(?![0-9A-Za-z_]))
  | (?P<pct>\d+(?:\.\d+)?%)
  | (?P<dec>\d+\.\d+)
  | (?P<int>\d+)
  | (?P<ws>[ \t]+)
  | (?P<word>[A-Za-z_]+)
  | (?P<char>.)
""", re.VERBOSE)


def tokens(line, shown):
    """The tokens of LINE, (kind, text); `...` is a wildcard only in a SHOWN line."""
    out = []
    for m in TOKEN.finditer(line.rstrip()):
        kind = m.lastgroup
        text = m.group()
        if kind == "padded" and len(text) < 8:
            kind = "word"   # a short run of hex digits in a word ("c8", "ab1") is a word
        if kind == "ellipsis" and not shown:
            kind = "char"
        if kind in ("version", "word", "char"):
            kind = "text"
        out.append((kind, text))
    return out


def figures_agree(kind, shown, got):
    """Whether figure GOT in the output agrees with figure SHOWN (same KIND)."""
    if kind == "hex":
        return True
    if kind == "padded":
        return len(shown) == len(got)
    if kind == "int":
        a, b = int(shown), int(got)
        if a < 100 or b < 100:
            return a == b
        return abs(a - b) <= 0.05 * max(a, b)
    if kind == "pct":
        a, b = float(shown[:-1]), float(got[:-1])
        if a in (0.0, 100.0) or b in (0.0, 100.0):
            return a == b
        return abs(a - b) <= 0.1 + 1e-9
    if kind == "dec":
        a, b = float(shown), float(got)
        return abs(a - b) <= 0.05 * max(abs(a), abs(b))
    return shown == got


def tokens_match(shown, got, i=0, j=0, loose=None, memo=None):
    """Whether token lists SHOWN[i:] and GOT[j:] match; figures that differ
    within tolerance are appended to LOOSE (only along the match found)."""
    if memo is None:
        memo = {}
    key = (i, j)
    if key in memo:
        return memo[key]
    if i == len(shown):
        result = j == len(got)
    elif shown[i][0] == "ellipsis":
        result = any(tokens_match(shown, got, i + 1, k, None, memo) for k in range(j, len(got) + 1))
    elif j == len(got):
        result = False
    else:
        (sk, st), (gk, gt) = shown[i], got[j]
        if sk == "ws" or gk == "ws":
            same = sk == gk
        elif sk == "text" or gk == "text":
            same = sk == gk and st == gt
        else:
            same = sk == gk and figures_agree(sk, st, gt)
        result = same and tokens_match(shown, got, i + 1, j + 1, None, memo)
    memo[key] = result
    if result and loose is not None:
        collect_loose(shown, got, i, j, loose, memo)
    return result


def collect_loose(shown, got, i, j, loose, memo):
    """Walk the match tokens_match found from (i, j), listing differing figures."""
    while i < len(shown):
        if shown[i][0] == "ellipsis":
            j = next(k for k in range(j, len(got) + 1) if tokens_match(shown, got, i + 1, k, None, memo))
        else:
            if shown[i][1] != got[j][1] and shown[i][0] not in ("ws", "text"):
                loose.append((shown[i][1], got[j][1]))
            j += 1
        i += 1


def lines_match(shown, got):
    """Match shown lines against output lines.  Returns (ok, loose, first_unmatched):
    LOOSE lists the figures that differ within tolerance, FIRST_UNMATCHED is the
    index of the first shown line no match reaches (on failure)."""
    st = [None if s.strip() == "..." else tokens(s, True) for s in shown]
    gt = [tokens(g, False) for g in got]
    memo, pair = {}, {}
    reached = [0]

    def line_ok(i, j):
        if (i, j) not in pair:
            pair[(i, j)] = tokens_match(st[i], gt[j])
        return pair[(i, j)]

    sys.setrecursionlimit(max(10000, 4 * (len(st) + len(gt))))

    def go(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        reached[0] = max(reached[0], i)
        if i == len(st):
            r = j == len(gt)
        elif st[i] is None:
            r = go(i + 1, j) or (j < len(gt) and go(i, j + 1))
        else:
            r = j < len(gt) and line_ok(i, j) and go(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    if not go(0, 0):
        return False, [], reached[0]
    loose, i, j = [], 0, 0
    while i < len(st):
        if st[i] is None:
            if not go(i + 1, j):
                j += 1
                continue
        else:
            tokens_match(st[i], gt[j], loose=loose)
            j += 1
        i += 1
    return True, loose, None


# ---- the files ------------------------------------------------------------------

class Example:
    def __init__(self, line_no, command):
        self.line_no = line_no      # of the `$ ` line in its file
        self.file = None            # the file, relative to the root
        self.command = command
        self.shown = []             # the output lines shown
        self.output = None          # what the command printed
        self.status = None


def console_examples(readme_lines, name="README"):
    """The examples of the ```console blocks, and the other fenced blocks that
    open with a prompt (unchecked examples): (examples, [line numbers])."""
    examples, unchecked = [], []
    fence, block_start, current = None, 0, None
    for n, line in enumerate(readme_lines, 1):
        if fence is None:
            m = re.match(r"^```\s*(\S*)\s*$", line)
            if m:
                fence, block_start, current = m.group(1), n, None
            continue
        if re.match(r"^```\s*$", line):
            fence = None
            continue
        if fence != "console":
            if n == block_start + 1 and line.startswith("$ "):
                unchecked.append(n)
            continue
        if line.startswith("$ "):
            current = Example(n, line[2:])
            examples.append(current)
        elif current is None:
            raise SystemExit(f"{name}:{n}: a console block must open with a `$ ` command")
        elif current.command.endswith("\\") and not current.shown:
            current.command = current.command[:-1] + line
        else:
            current.shown.append(line)
    return examples, unchecked


def run(example, workdir):
    proc = subprocess.run(["bash", "-c", example.command], cwd=workdir, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    example.status = proc.returncode
    text = proc.stdout.decode("utf-8", "replace")
    example.output = text.split("\n")
    if example.output and example.output[-1] == "":
        example.output.pop()


# ---- prose claims ---------------------------------------------------------------
# Sentences of the files that state an example's figures, checked against
# the output of that example's command.  Each claim takes the files' text
# (blanks and line breaks as one space) and the examples, and returns None
# when it holds, or the reason it does not.

def example_output(examples, prefix):
    for e in examples:
        if e.command.startswith(prefix):
            return "\n".join(e.output)
    return None


def claim_compare_libc(readme, examples):
    """After the --compare example: which functions are not synthesisable,
    and how many addresses get no row."""
    out = example_output(examples, "dwsynth --compare /usr/lib/x86_64-linux-gnu/libc.so.6")
    if out is None:
        return "no `dwsynth --compare` example on libc"
    m = re.search(r"(\d+) functions \((\d+) not synthesisable\), (\d+) addresses covered", out)
    r = re.search(r"synthesised row: +[\d.]+% \((\d+)\)", out)
    if not m or not r:
        return "unexpected output: " + out[:300]
    unsynthesisable = int(m.group(2))
    without_row = int(m.group(3)) - int(r.group(1))
    every = re.search(r"\(Every function is synthesised", readme)
    counted = re.search(r"\(The (\d+) functions are", readme)
    if unsynthesisable == 0 and not every:
        return "every function is synthesised, and the README does not say so"
    if unsynthesisable and (every or not counted or int(counted.group(1)) != unsynthesisable):
        return f"{unsynthesisable} functions are not synthesisable, and the README does not say so"
    n = re.search(r"The (\d+) addresses without a row", readme)
    if not n:
        return "the README does not say where the addresses without a row are"
    if int(n.group(1)) != without_row:
        return f"the README says {n.group(1)} addresses without a row, the output {without_row}"
    return None


def claim_dwtable_row(readme, examples):
    """The reading of dwtable's row: CFA and each saved register as printed."""
    m = re.search(r"Read a row as: at `(0x[0-9a-f]+)` the caller's stack pointer \(CFA\) is `([^`]+)`;"
                  r" the return address is saved at CFA-(\d+), r12 at CFA-(\d+), rbp at CFA-(\d+) and"
                  r" rbx at CFA-(\d+)", readme)
    if not m:
        return "the README's reading of a dwtable row is not where it was"
    addr, cfa, ra, r12, rbp, rbx = m.groups()
    out = example_output(examples, f"dwtable --address={addr} ")
    if out is None:
        return f"no `dwtable --address={addr}` example"
    lines = out.split("\n")
    head = next((l.split() for l in lines if l.split()[:1] == ["LOC"]), None)
    row = next((l.split() for l in lines if re.match(r"^0*%s " % addr[2:], l)), None)
    if not head or not row:
        return "no row at " + addr
    rules = dict(zip(head, row))
    want = {"CFA": cfa, "ra": "c-" + ra, "r12": "c-" + r12, "rbp": "c-" + rbp, "rbx": "c-" + rbx}
    wrong = [f"{k} is {rules.get(k)}, not {v}" for k, v in want.items() if rules.get(k) != v]
    return "; ".join(wrong) or None


PROSE_CLAIMS = [
    ("dwsynth --compare on libc: unsynthesisable functions and addresses without a row", claim_compare_libc),
    ("dwtable: the reading of the row at the address shown", claim_dwtable_row),
]


# ---- the matcher's own cases ----------------------------------------------------

SELF_CASES = [
    # (shown, printed, should match)
    ("  synthesised row:    99.98% (332114)", "  synthesised row:    99.98% (332114)", True),
    ("  synthesised row:    96.19% (323284)", "  synthesised row:    99.98% (332114)", False),
    ("f: 1 files, 3766 functions (40 not synthesisable)", "f: 1 files, 3766 functions (0 not synthesisable)", False),
    ("f: 336088 addresses covered by FDEs", "f: 332184 addresses covered by FDEs", True),
    ("f: 336088 addresses covered by FDEs", "f: 302184 addresses covered by FDEs", False),
    ("refused: verification reports 5 errors", "refused: verification reports 6 errors", False),
    ("CFA agrees (text):  99.95% of synthesised", "CFA agrees (text): 99.90% of synthesised", True),
    ("ra holds:           100.00% of synthesised", "ra holds:           99.99% of synthesised", False),
    ("libc.so.6: 0x4c6e1: error: cfa-mismatch", "libc.so.6: 0x4e141: error: cfa-mismatch", True),
    ("libc.so.6: 0x4c6e1: error: cfa-mismatch", "libc.so.6: 0x4c6e1: warning: cfa-mismatch", False),
    ("0000000000098934 rsp+32   c-32  c-24", "0000000000098a34 rsp+32 c-32 c-24   ", True),
    ("0000000000098934 rsp+32   c-32  c-24", "0000000000098934 rsp+40   c-32  c-24", False),
    ("12a18,19", "12a18,20", False),
    ("/lib/libc.so.6: swapcontext+0x6a: error: ...", "/lib/libc.so.6: swapcontext+0x6a: error: reg-mismatch: r12", True),
    ("libc.so.6: 3713 FDEs, ... 5 errors, 0 warnings", "libc.so.6: 3713 FDEs, 320730 addresses; 5 errors, 0 warnings", True),
    ("libc.so.6: 3713 FDEs, ... 5 errors, 0 warnings", "libc.so.6: 3713 FDEs, 320730 addresses; 5 errors, 1 warnings", False),
    ("Capstone 4.0.2", "Capstone 4.0.3", False),
    ("libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6", False),
]


def self_test():
    bad = [c for c in SELF_CASES if lines_match([c[0]], [c[1]])[0] != c[2]]
    blocks = [
        (["a 1", "...", "z 3"], ["a 1", "b", "c", "z 3"], True),
        (["a 1", "...", "z 3"], ["a 1", "z 3"], True),
        (["a 1", "z 3"], ["a 1", "b", "z 3"], False),
        (["a 1", "..."], ["a 1", "b"], True),
        (["a 1"], ["a 1", "b"], False),
        (["", "x"], ["", "x"], True),
    ]
    bad += [c for c in blocks if lines_match(c[0], c[1])[0] != c[2]]
    return bad


# ---- main -----------------------------------------------------------------------

MIN_EXAMPLES = 17


def main():
    if len(sys.argv) < 4:
        raise SystemExit("usage: console_examples.py WORKDIR ROOT FILE...")
    workdir, root, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    texts = {}
    for name in names:
        with open(f"{root}/{name}", encoding="utf-8") as f:
            texts[name] = f.read()
    passed = failed = 0

    def report(ok, name, details=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok - {name}")
        else:
            failed += 1
            print(f"not ok - {name}")
        for line in details.splitlines() if details else []:
            print("    " + line)

    bad = self_test()
    report(not bad, "the matcher's own cases", "\n".join(f"{c[0]!r} vs {c[1]!r}: expected {c[2]}" for c in bad))

    examples = []
    for name in names:
        found, unchecked = console_examples(texts[name].split("\n"), name)
        for e in found:
            e.file = name
        examples += found
        print(f"# {name}: {len(found)} console examples")
        for n in unchecked:
            report(False, f"{name}:{n}: a command example outside a ```console block (not checked)")
    report(len(examples) >= MIN_EXAMPLES,
           f"{len(examples)} console examples in {len(names)} files (at least {MIN_EXAMPLES})")

    for e in examples:
        name = f"{e.file}:{e.line_no}: $ {e.command}"
        try:
            run(e, workdir)
        except subprocess.TimeoutExpired:
            report(False, name, "timed out")
            e.output = []
            continue
        ok, loose, first = lines_match(e.shown, e.output)
        if ok:
            details = ""
            if loose:
                details = "figures within tolerance (shown -> printed): " + \
                          ", ".join(f"{a} -> {b}" for a, b in loose)
            report(True, name, details)
        else:
            shown = e.shown[first] if first < len(e.shown) else "(the end of the output)"
            details = f"exit status {e.status}; from shown line {first + 1}, no match for:\n  {shown}\n" \
                      "printed:\n" + "\n".join("  " + l for l in e.output[:60])
            if len(e.output) > 60:
                details += f"\n  ... ({len(e.output) - 60} more lines)"
            report(False, name, details)

    prose = " ".join(" ".join(texts[n].split()) for n in names)    # sentences as one line each
    for name, claim in PROSE_CLAIMS:
        why = claim(prose, examples)
        report(why is None, "prose: " + name, why or "")

    print(f"readme: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
