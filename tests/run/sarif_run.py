#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/run/sarif_run.py SCHEMA < STDERR: the SARIF document dwcheck --run
--format=sarif wrote last on stderr, validated against the SARIF 2.1.0
schema (jsonschema), then checked as code scanning reads it: every result's
ruleIndex names its rule, a "dwcheckRunFindingIdentity/v1" fingerprint of
16 hex digits, logical locations of the function and the binary (kind
module), and a witness in its properties.  Prints one line a result:
    RULE FUNCTION STATIC REGISTERS-READ gave|no-gave EXECUTION
then one line a notification: `note LEVEL TEXT`.  Exit 1 with the reason
on the first failure."""
import json
import re
import sys

import jsonschema


def fail(why):
    print(why, file=sys.stderr)
    sys.exit(1)


lines = [l for l in sys.stdin.read().splitlines() if l.startswith('{"$schema"')]
if not lines:
    fail("no SARIF document on stderr")
doc = json.loads(lines[-1])
try:
    jsonschema.validate(doc, json.load(open(sys.argv[1])))
except jsonschema.ValidationError as e:
    fail("not valid SARIF 2.1.0: %s at %s" % (e.message, list(e.absolute_path)))
run = doc["runs"][0]
rules = run["tool"]["driver"]["rules"]
for res in run["results"]:
    i = res.get("ruleIndex")
    if i is None or not 0 <= i < len(rules) or rules[i]["id"] != res["ruleId"]:
        fail("result %s: ruleIndex %r is not its rule" % (res["ruleId"], i))
    fp = res.get("partialFingerprints", {}).get("dwcheckRunFindingIdentity/v1", "")
    if not re.fullmatch(r"[0-9a-f]{16}", fp):
        fail("result %s: no dwcheckRunFindingIdentity/v1 fingerprint" % res["ruleId"])
    loc = res["locations"][0]
    kinds = {l.get("kind"): l["name"] for l in loc.get("logicalLocations", [])}
    if "module" not in kinds or "function" not in kinds:
        fail("result %s: no logical location of the binary and the function" % res["ruleId"])
    if "absoluteAddress" not in loc["physicalLocation"].get("address", {}):
        fail("result %s: no address" % res["ruleId"])
    p = res["properties"]
    w = p["witness"]
    if w["thread"] <= 0 or w["rip"] <= 0 or "truth" not in w:
        fail("result %s: no witness" % res["ruleId"])
    print(res["ruleId"], kinds["function"], p["static"], ",".join(sorted(w["registers"])),
          "gave" if "gave" in w else "no-gave", w["execution"])
for inv in run["invocations"]:
    for n in inv.get("toolExecutionNotifications", []):
        print("note", n["level"], n["message"]["text"])
    if not inv["executionSuccessful"]:
        print("unsuccessful")
