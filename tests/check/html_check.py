#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The HTML report (report/html_report) judged by Python's own HTML parser,
not by the patterns that wrote it.

  html_check.py check PAGE [--windows=all|none] [--kinds=K1,K2...] [--findings=N]
      The page is valid UTF-8 and self-contained (no script, no external
      resource); every id is unique and a valid, stable one
      ([A-Za-z][A-Za-z0-9-]*); every link "#X" leads to an id X; each kind
      with findings (the chart's bars, the findings' kinds) is explained
      once, in its section kind-NAME (what it means, why it matters, how
      to fix it, each said), and no other kind is; each file's section
      lists its findings, each linked to its detail, in that section, with
      its window (a row per instruction: the mark, the address, the
      instruction, 8 DWARF and 8 synthesis cells; one row marked) or a
      note saying why it has none.  --windows=all: every finding has its
      window; none: none has.  --kinds: exactly these kinds are explained.
      --findings: there are N findings.
      Prints what it counted; else the problems, each after what it is
      about ("page:", "ids:", "links:", "kinds:", "findings:"), and exits 1.
  html_check.py skeleton PAGE
      The page's elements, one a line: the tag, its attributes' names and
      the values of class and id, nesting shown by indentation.  Two
      reports of the same audit under two file names have the same
      skeleton: no name can add, end or change an element or attribute.
  html_check.py names PAGE
      As JSON: the file names of the table of files, as a browser reads
      them, and the --explain commands of the findings.

As a module: parse(PAGE) gives the tree; windows(TREE) each finding's rows.
"""
import json
import re
import sys
from html.parser import HTMLParser

OPTIONAL_END = {"td", "th"}   # (the only end tags the report leaves out)
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
ID_FORM = re.compile(r"[A-Za-z][A-Za-z0-9-]*\Z")
WINDOW_CELLS = 3 + 2 * 8


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []
        self.attr_list = attrs

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()

    def find_all(self, tag=None, cls=None):
        return [n for n in self.walk() if (tag is None or n.tag == tag) and
                (cls is None or cls in n.attrs.get("class", "").split())]

    def ancestor(self, tag):
        n = self.parent
        while n is not None and n.tag != tag:
            n = n.parent
        return n


class TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root
        self.problems = []

    def handle_starttag(self, tag, attrs):
        # A cell ends where the next cell starts, as HTML says (the end
        # tag of td and th is optional).
        if tag in OPTIONAL_END and self.cur.tag in OPTIONAL_END:
            self.cur = self.cur.parent
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is None:
            self.problems.append(f"page: </{tag}> closes nothing")
            return
        skipped = self.cur
        while skipped is not n:
            if skipped.tag not in OPTIONAL_END:
                self.problems.append(f"page: </{tag}> closes <{skipped.tag}> too")
            skipped = skipped.parent
        self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(path):
    """The tree of the page at PATH, and the problems met building it."""
    raw = open(path, "rb").read()
    problems = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append(f"page: not valid UTF-8: {e}")
        text = raw.decode("utf-8", "replace")
    b = TreeBuilder()
    b.feed(text)
    b.close()
    if b.cur is not b.root:
        problems.append(f"page: <{b.cur.tag}> never closed")
    return b.root, problems + b.problems


def windows(root):
    """{finding id: its window's rows (lists of cell texts), or None}."""
    out = {}
    for div in root.find_all("div", "finding"):
        tables = div.find_all("table", "window")
        if not tables:
            out[div.attrs.get("id")] = None
            continue
        rows = []
        for tr in tables[0].find_all("tr"):
            cells = tr.find_all("td")
            if cells:
                rows.append(([c.text() for c in cells], "here" in tr.attrs.get("class", "").split()))
        out[div.attrs.get("id")] = rows
    return out


def check(path, want_windows=None, want_kinds=None, want_findings=None):
    root, problems = parse(path)
    nodes = list(root.walk())
    # Self-contained: no script, nothing fetched.
    for n in nodes:
        if n.tag in ("script", "link", "iframe", "img", "object", "embed"):
            problems.append(f"page: <{n.tag}> in an offline page")
        for name in n.attrs:
            if name == "src" or name.startswith("on"):
                problems.append(f"page: <{n.tag} {name}=...> in an offline page")
    # Ids: unique, of the stable form; links: each to an id.
    ids = {}
    for n in nodes:
        if "id" in n.attrs:
            i = n.attrs["id"]
            if i in ids:
                problems.append(f"ids: {i!r} twice")
            if not ID_FORM.match(i or ""):
                problems.append(f"ids: {i!r} is not of the form [A-Za-z][A-Za-z0-9-]*")
            ids[i] = n
    links = 0
    for n in nodes:
        href = n.attrs.get("href")
        if href is None:
            continue
        if not href.startswith("#"):
            problems.append(f"links: {href!r} leaves the page")
        elif href[1:] not in ids:
            problems.append(f"links: {href!r} leads to no id")
        links += 1
    # Kinds: those with findings, each explained once.
    chart = ids.get("chart")
    bars = {a.attrs["href"][len("#kind-"):] for a in chart.find_all("a")} if chart else set()
    if chart is None:
        problems.append("kinds: no chart")
    kinds_of_findings = set()
    for div in root.find_all("div", "finding"):
        for a in div.find_all("a"):
            if a.attrs.get("href", "").startswith("#kind-"):
                kinds_of_findings.add(a.attrs["href"][len("#kind-"):])
    explained = {i[len("kind-"):] for i in ids if i.startswith("kind-")}
    if bars != kinds_of_findings or explained != kinds_of_findings:
        problems.append(f"kinds: chart {sorted(bars)}, findings {sorted(kinds_of_findings)}, "
                        f"explained {sorted(explained)}")
    if want_kinds is not None and explained != set(want_kinds):
        problems.append(f"kinds: explained {sorted(explained)}, not {sorted(want_kinds)}")
    for k in explained:
        section = ids["kind-" + k]
        said = {}
        for dt in section.find_all("dt"):
            siblings = [c for c in dt.parent.children if isinstance(c, Node)]
            dd = siblings[siblings.index(dt) + 1] if siblings.index(dt) + 1 < len(siblings) else None
            said[dt.text()] = dd.text().strip() if dd is not None and dd.tag == "dd" else ""
        for part in ("What it means", "Why it matters", "How to fix it"):
            if len(said.get(part, "")) < 20:
                problems.append(f"kinds: {k}: {part!r} not said")
    # Files: each finding listed, linked to its detail in the same section.
    nfindings = nwindows = 0
    for name, section in ids.items():
        if not name.startswith("file-"):
            continue
        lists = section.find_all("table", "list")
        listed = [a.attrs["href"][1:] for a in lists[0].find_all("a")
                  if a.attrs.get("href", "").startswith("#f-")] if lists else []
        details = [d.attrs.get("id") for d in section.find_all("div", "finding")]
        if not listed or listed != details:
            problems.append(f"findings: {name}: listed {listed}, details {details}")
        for d in details:
            if not d.startswith("f-" + name[len("file-"):] + "-"):
                problems.append(f"findings: {name}: {d} is not this file's")
    for finding, rows in windows(root).items():
        nfindings += 1
        div = ids.get(finding)
        if rows is None:
            if not any(n.text().startswith("No window") for n in div.find_all("div", "note")):
                problems.append(f"findings: {finding}: no window, and no note saying why")
            if want_windows == "all":
                problems.append(f"findings: {finding}: no window")
            continue
        nwindows += 1
        if want_windows == "none":
            problems.append(f"findings: {finding}: a window")
        if not rows or any(len(cells) != WINDOW_CELLS for cells, _ in rows):
            problems.append(f"findings: {finding}: window rows of {[len(c) for c, _ in rows]} cells, "
                            f"not {WINDOW_CELLS}")
        marked = [cells for cells, here in rows if here]
        marks = [cells[0] for cells, _ in rows]
        if len(marked) != 1 or marked[0][0] != ">" or marks.count(">") != 1 or marks.count("") != len(rows) - 1:
            problems.append(f"findings: {finding}: {len(marked)} rows of class here, marks {marks}")
        elif not re.match(r"0x[0-9a-f]+\Z", marked[0][1]):
            problems.append(f"findings: {finding}: marked row's address {marked[0][1]!r}")
    if nfindings == 0 and kinds_of_findings:
        problems.append("findings: kinds, but no finding")
    if want_findings is not None and nfindings != want_findings:
        problems.append(f"findings: {nfindings}, not {want_findings}")
    return problems, (f"{len(ids)} ids, {links} links, {len(explained)} kinds explained, "
                      f"{nfindings} findings, {nwindows} windows")


def skeleton(path):
    root, _ = parse(path)
    out = []

    def visit(n, depth):
        for c in n.children:
            if isinstance(c, Node):
                keep = " ".join(f"{k}={v}" if k in ("class", "id") else k for k, v in c.attr_list)
                out.append("  " * depth + c.tag + (" " + keep if keep else ""))
                visit(c, depth + 1)
    visit(root, 0)
    return "\n".join(out)


def names(path):
    root, _ = parse(path)
    files = root.find_all("table")
    table = next(t for t in files if t.attrs.get("id") == "files")
    rows = [tr.find_all("td") for tr in table.find_all("tr")]
    return {"files": [cells[0].text() for cells in rows if cells],
            "explain": [c.text() for div in root.find_all("div", "finding") for c in div.find_all("code")
                        if c.text().startswith("dwcheck --explain=")]}


def main(argv):
    if len(argv) < 3 or argv[1] not in ("check", "skeleton", "names"):
        sys.exit(__doc__)
    if argv[1] == "skeleton":
        print(skeleton(argv[2]))
        return 0
    if argv[1] == "names":
        print(json.dumps(names(argv[2]), ensure_ascii=True))
        return 0
    opts = dict(a[2:].split("=", 1) for a in argv[3:])
    problems, counts = check(argv[2], opts.get("windows"),
                             opts["kinds"].split(",") if "kinds" in opts else None,
                             int(opts["findings"]) if "findings" in opts else None)
    for p in problems:
        print(p)
    if not problems:
        print(counts)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
