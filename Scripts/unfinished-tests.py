#!/usr/bin/env python3
"""Lists the Swift Testing tests a log shows as started but never finished.

Usage: Scripts/unfinished-tests.py LOG

When `swift test` ends without its summary line (the test process crashed or was killed), these
are the tests that were running at the time; .ci/run prints them so CI's output names them.
"""
import re
import sys

started, ended = [], set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    line = re.sub(r"\x1b\[[0-9;]*m", "", line)  # colours, when the log came from a terminal
    if "Test case" in line or "case passing" in line:
        continue
    begun = re.match(r"^◇ Test (.*) started\.$", line.strip())
    if begun and begun.group(1) != "run":  # "Test run started." is the whole run
        started.append(begun.group(1))
        continue
    done = re.match(r"^[✔✘] Test (.*?)(?: with \d+ test cases?)? (?:passed|failed)(?: after| with)", line.strip())
    if done:
        ended.add(done.group(1))
for name in started:
    if name not in ended:
        print(name)
