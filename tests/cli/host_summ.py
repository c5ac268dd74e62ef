#!/usr/bin/env python3
"""tests/cli/host_summ.py - one line per reply of `camelog host` on its
stdin, for the host_*.sh tests: "ID ok lines=N total=N" or "ID refused
CODE: REASON"; the hello line is left out.  Not a test itself
(tests/cli/run.sh runs *.sh only).
"""
import json
import sys

for line in sys.stdin:
    r = json.loads(line)
    if "hello" in r:
        continue
    if r["ok"]:
        print("%s ok lines=%d total=%d" % (r["id"], len(r["lines"]), r["total"]))
    else:
        print("%s refused %s: %s" % (r["id"], r["code"], r["reason"]))
