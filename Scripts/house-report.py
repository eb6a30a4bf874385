#!/usr/bin/env python3
"""The house rules of issue 37, measured: per module under Sources/ (or under the git revision
given, e.g. `Scripts/house-report.py 159659d`), the lines `wc -l` counts, the public or open
top-level types (typealiases included), `@TaskLocal`s, process-wide mutable statics (a static
`var`, or a static `let` holding a Mutex / Atomic / lock), and functions — func, init, computed
property, subscript — over 50 and over 80 lines (from the line of the declaration to its closing
brace, comments and blank lines included).

    Scripts/house-report.py            # the working tree
    Scripts/house-report.py 159659d    # a commit
"""
import re
import subprocess
import sys
from collections import defaultdict

rev = sys.argv[1] if len(sys.argv) > 1 else None


def files():
    if rev:
        out = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "Sources"], capture_output=True, text=True, check=True).stdout
    else:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "Sources"], capture_output=True, text=True, check=True).stdout
    return [f for f in out.split() if f.endswith(".swift")]


def read(path):
    if rev:
        return subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout
    return open(path, encoding="utf-8").read()


TYPE = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(public|open)\s+(?:final\s+|indirect\s+)*(struct|class|enum|protocol|actor|typealias)\s+(\w+)")
DECL = re.compile(r"^\s*(?:@[\w()., ]+\s+)*(?:(?:public|open|package|internal|private|fileprivate|static|class|final|override|mutating|nonisolated|required|convenience|@inlinable|@usableFromInline)\s+)*(func\s+[\w<>]+|init[?!]?\s*[(<]|subscript\s*[(<]|var\s+\w+\s*:[^={]*\{)")
STATIC = re.compile(r"^\s*(?:(?:public|package|private|fileprivate|internal|nonisolated)\s+)*static\s+(var\s+\w+|let\s+\w+\s*=\s*(?:Mutex|Atomic|NIOLock|NSLock|ManagedAtomic))")


def long_functions(text):
    lines = text.split("\n")
    found = []
    for i, line in enumerate(lines):
        if not DECL.match(line) or "protocol " in line:
            continue
        if re.match(r"^\s*var\s", line) is None and "var " in line and "{" not in line:
            continue
        depth, started, end = 0, False, None
        for j in range(i, min(len(lines), i + 2000)):
            code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', lines[j].split("//")[0])
            depth += code.count("{") - code.count("}")
            if code.count("{"):
                started = True
            if started and depth <= 0:
                end = j
                break
            if not started and j > i + 12:
                break
        if end is not None:
            found.append((end - i + 1, i + 1))
    return found


modules = defaultdict(lambda: {"lines": 0, "types": 0, "tasklocal": 0, "statics": 0, "over50": 0, "over80": 0, "long": []})
for path in files():
    module = path.split("/")[1]
    text = read(path)
    m = modules[module]
    m["lines"] += text.count("\n")
    for line in text.split("\n"):
        if TYPE.match(line):
            m["types"] += 1
        if "@TaskLocal" in line and not line.strip().startswith("//"):
            m["tasklocal"] += 1
        if STATIC.match(line) and "static var" in line and ("{ " in line.split("static var")[1][:0] or True):
            # a computed static var (`static var x: T { … }`) is not state
            after = line.split("static var")[1] if "static var" in line else ""
            if "static var" in line and re.search(r":\s*[^={]+\{\s*$|:\s*[^={]+\{.*\}\s*$", after):
                continue
            m["statics"] += 1
        elif STATIC.match(line):
            m["statics"] += 1
    for length, at in long_functions(text):
        if length > 50:
            m["over50"] += 1
        if length > 80:
            m["over80"] += 1
            m["long"].append(f"{path}:{at} ({length})")

print(f"{'module':28} {'lines':>7} {'public types':>13} {'@TaskLocal':>11} {'mutable statics':>16} {'>50':>4} {'>80':>4}")
total = defaultdict(int)
for name in sorted(modules):
    m = modules[name]
    print(f"{name:28} {m['lines']:>7} {m['types']:>13} {m['tasklocal']:>11} {m['statics']:>16} {m['over50']:>4} {m['over80']:>4}")
    for key in ("lines", "types", "tasklocal", "statics", "over50", "over80"):
        total[key] += m[key]
print(f"{'all':28} {total['lines']:>7} {total['types']:>13} {total['tasklocal']:>11} {total['statics']:>16} {total['over50']:>4} {total['over80']:>4}")
over = [entry for m in modules.values() for entry in m["long"]]
if over:
    print("functions over 80 lines:")
    for entry in sorted(over):
        print("  " + entry)
