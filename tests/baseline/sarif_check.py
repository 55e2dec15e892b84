#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/baseline/sarif_check.py: dwcheck's SARIF for code scanning, checked.

  sarif_check.py SCHEMA DOC.sarif  prints DOC's results, one a line:
      RULE STATE FINGERPRINT FUNCTION ADDRESS STARTLINE SUPPRESSION
  after validating DOC against the SARIF 2.1.0 schema (jsonschema), and
  checking what code scanning needs beyond it: every result's ruleIndex
  names the rule of its ruleId, every rule has shortDescription,
  fullDescription and help texts, every result a partialFingerprints
  "dwcheckFindingIdentity/v1" of 16 hex digits and a logical location of
  the binary (kind module).  Exit 1 with the reason on the first failure.
"""
import json
import re
import sys

import jsonschema


def fail(why):
    print(why, file=sys.stderr)
    sys.exit(1)


schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
try:
    jsonschema.validate(doc, schema)
except jsonschema.ValidationError as e:
    fail("not valid SARIF 2.1.0: %s at %s" % (e.message, list(e.absolute_path)))
run = doc["runs"][0]
rules = run["tool"]["driver"]["rules"]
for r in rules:
    for key in ("shortDescription", "fullDescription", "help"):
        if not r.get(key, {}).get("text"):
            fail("rule %s has no %s text" % (r["id"], key))
for res in run["results"]:
    i = res.get("ruleIndex")
    if i is None or not 0 <= i < len(rules) or rules[i]["id"] != res["ruleId"]:
        fail("result %s: ruleIndex %r is not its rule" % (res["ruleId"], i))
    fp = res.get("partialFingerprints", {}).get("dwcheckFindingIdentity/v1", "")
    if not re.fullmatch(r"[0-9a-f]{16}", fp):
        fail("result %s: no dwcheckFindingIdentity/v1 fingerprint" % res["ruleId"])
    loc = res["locations"][0]
    kinds = [l.get("kind") for l in loc.get("logicalLocations", [])]
    if "module" not in kinds or "function" not in kinds:
        fail("result %s: no logical location of the binary and the function" % res["ruleId"])
    func = next(l["name"] for l in loc["logicalLocations"] if l["kind"] == "function")
    region = loc["physicalLocation"].get("region", {})
    sup = res.get("suppressions", [])
    print(res["ruleId"], res.get("baselineState", "-"), fp, func,
          res.get("properties", {}).get("address", "-"), region.get("startLine", "-"),
          sup[0]["justification"].replace(" ", "_") if sup else "-")
