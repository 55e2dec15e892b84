#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/check/apply_fixes.py: write the fixes dwcheck prints into a source.

  apply_fixes.py text|json|sarif REPORT SOURCE OUT PREFIX

REPORT is dwcheck's output in the given format for an object assembled
from SOURCE.  The fixes of the findings whose function starts with PREFIX
are written into a copy of SOURCE, OUT: each place's directives inserted,
one a line and indented by a tab, before the line the fix names (text:
`fix:   write ..., before line N:` and `then ..., before line N, as the
table had it:`, the directives on the lines under it; JSON: a fix's
"source", or its "after" source's next line; SARIF: each replacement's
insertion point).  The same directives at the same line are written once
(two findings of one change share their fix).  Prints how many places were
written; exit 1 when a fix names no line of SOURCE.
"""
import json
import os
import re
import sys


def fail(why):
    print(why, file=sys.stderr)
    sys.exit(1)


def line_of(source):
    """The line of a "file:line" source, in SOURCE; None when none."""
    m = re.fullmatch(r"(.*):(\d+)", source or "")
    if not m or os.path.basename(m.group(1)) != os.path.basename(src_path):
        return None
    return int(m.group(2))


def from_text(report):
    """(line, text) of each place a text report's fixes name."""
    out = []
    place = None
    current = None
    for line in report.splitlines():
        if re.match(r"^\S", line):
            current = line
            place = None
            continue
        m = re.match(r"^  (?:fix:   write|       then) .*, before (?:line |\S+:)(\d+)(?:, as the table had it)?:$",
                     line)
        if m:
            place = [int(m.group(1)), []]
            if current and func_of(current).startswith(prefix):
                out.append(place)
            continue
        m = re.match(r"^ {11}(\.cfi_.*)$", line)
        if m and place is not None:
            place[1].append(m.group(1))
            continue
        if re.match(r"^  (fix|    ) ", line) is None:
            place = None
    return [(n, "".join("\t%s\n" % d for d in ds)) for n, ds in out if ds]


def func_of(first_line):
    """The function a finding's first text line names."""
    m = re.search(r"\[[^:\]]*: ([^+\]]+)\+0x|^[^ ]+: ([^+ ]+)\+0x", first_line)
    return (m.group(1) or m.group(2)) if m else ""


def place_line(place):
    n = line_of(place.get("source"))
    if n is None and "after" in place:
        after = line_of(place["after"].get("source"))
        n = after + 1 if after is not None else None
    if n is None:
        fail("a fix names no line of %s: %s" % (src_path, place))
    return n


def from_json(report):
    out = []
    for line in report.splitlines():
        for f in json.loads(line).get("findings", []):
            fix = f.get("fix")
            if not f["function"].startswith(prefix) or not fix or "none" in fix:
                continue
            for place in [fix] + ([fix["then"]] if "then" in fix else []):
                out.append((place_line(place), "".join("\t%s\n" % d for d in place["directives"])))
    return out


def from_sarif(report):
    out = []
    for res in json.loads(report)["runs"][0]["results"]:
        logical = res["locations"][0].get("logicalLocations", [])
        func = next((l["name"] for l in logical if l.get("kind") == "function"), "")
        if not func.startswith(prefix):
            continue
        for fix in res.get("fixes", []):
            for change in fix["artifactChanges"]:
                if os.path.basename(change["artifactLocation"]["uri"]) != os.path.basename(src_path):
                    fail("a fix of another file: %s" % change["artifactLocation"]["uri"])
                for r in change["replacements"]:
                    region = r["deletedRegion"]
                    if region.get("startColumn") != 1 or region.get("endColumn") != 1 or \
                            region.get("endLine") != region["startLine"]:
                        fail("not an insertion before a line: %s" % region)
                    out.append((region["startLine"], r["insertedContent"]["text"]))
    return out


mode, report_path, src_path, out_path, prefix = sys.argv[1:6]
report = open(report_path).read()
places = {"text": from_text, "json": from_json, "sarif": from_sarif}[mode](report)
lines = open(src_path).read().split("\n")
unique = sorted(set(places), key=lambda p: -p[0])   # the last lines first: the others stay put
for n, text in unique:
    if not 1 <= n <= len(lines):
        fail("line %d is not in %s" % (n, src_path))
    lines[n - 1] = text + lines[n - 1]
open(out_path, "w").write("\n".join(lines))
print(len(unique))
