#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/run/query.py WHAT [ARGS] < STDERR: one answer from the JSON line
# dwcheck --run --format=json wrote last on stderr.
#   FIELD                   the run's member (steps, exit_status, threads ...)
#   findings                how many findings
#   findings-in FILE FUNC   how many in FILE (a suffix) and function FUNC+...
#   findings-not-in FUNC    how many not in FUNC+...
#   kinds-in FUNC           the kinds:columns of FUNC's findings, sorted, once each
#   statics FUNC            the static audit's verdicts at FUNC's findings, sorted, once each
#   witness FUNC            the first finding of FUNC, its witness in words
#   decided FUNC            FUNC's addresses the audit left undecided that held:
#                           how many, and the static verdicts, sorted, once each
#   errors-held FUNC        FUNC's addresses the audit finds wrong that held: how many
#   not-audited             the files not audited, `NAME: reason`, one a line
#   address FUNC            the first finding of FUNC: its address (hex), the
#                           registers its witness read, whether it gave a value
#   unconfirmed             how many findings the static audit does not report
#   executions FUNC         FUNC's findings as function+off:executions:held, sorted
import json
import sys

line = [l for l in sys.stdin.read().splitlines() if l.startswith('{"run":')][-1]
run = json.loads(line)
what, args = sys.argv[1], sys.argv[2:]
fs = run["findings"]
if what == "findings":
    print(len(fs))
elif what == "findings-in":
    print(sum(1 for f in fs if f["file"].endswith(args[0]) and f["function"].startswith(args[1] + "+")))
elif what == "findings-not-in":
    print(sum(1 for f in fs if not f["function"].startswith(args[0] + "+")))
elif what == "kinds-in":
    names = {3: "rbx", 6: "rbp", 12: "r12", 13: "r13", 14: "r14", 15: "r15", 16: "ra", -1: "cfa", 7: "rsp"}
    print(" ".join(sorted({"%s:%s" % (f["kind"], names.get(f["column"], f["column"]))
                           for f in fs if f["function"].startswith(args[0] + "+")})))
elif what == "statics":
    print(" ".join(sorted({("confirmed" if f["confirmed"] else f["static"])
                           for f in fs if f["function"].startswith(args[0] + "+")})))
elif what == "witness":
    f = [f for f in fs if f["function"].startswith(args[0] + "+")][0]
    w = f["witness"]
    rsp = w["registers"].get("rsp")
    ok = w["thread"] > 0 and w["rip"] > 0
    print(f["kind"], f["dwarf"], "reads-rsp" if rsp is not None and ok else "no-rsp",
          "gave=rsp+%d" % (w["gave"] - rsp) if rsp is not None else "gave=?",
          "truth-gave=%d" % (w["truth"] - w["gave"]), "execution=%d" % w["execution"])
elif what == "decided":
    ds = [d for d in run["decided_by_run"] if d["function"].startswith(args[0] + "+")
          and d["dynamic"]["verdict"] == "held" and d["dynamic"]["executions"] > 0]
    print(len(ds), " ".join(sorted({d["static"] for d in ds})))
elif what == "errors-held":
    print(sum(1 for d in run["static_errors_held"] if d["function"].startswith(args[0] + "+")
              and d["static"] == "fails" and d["dynamic"]["verdict"] == "held"))
elif what == "not-audited":
    for n in run["not_audited"]:
        print("%s: %s" % (n["file"].rsplit("/", 1)[-1], n["reason"]))
elif what == "address":
    f = [f for f in fs if f["function"].startswith(args[0] + "+")][0]
    w = f["witness"]
    print("0x%x" % f["address"], ",".join(sorted(w["registers"])),
          "gave" if "gave" in w and w["gave"] != w["truth"] else "no-gave")
elif what == "unconfirmed":
    print(sum(1 for f in fs if not f["confirmed"]))
elif what == "executions":
    print(" ".join(sorted("%s:%d:%d" % (f["function"], f["executions"], f["held"])
                          for f in fs if f["function"].startswith(args[0] + "+"))))
else:
    print(run[what])
