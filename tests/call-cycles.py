#!/usr/bin/env python3
"""call-cycles.py DIR: the .c files of DIR must form no call cycle (issue 13:
"the model's files form no call cycle").  A file calls another when it
names a function the other defines (non-static, at the start of a line).
Prints the cycle and exits 1 if there is one; prints the graph otherwise."""
import os
import re
import sys

d = sys.argv[1]
files = sorted(f for f in os.listdir(d) if f.endswith(".c"))
defs = {}
text = {}
for f in files:
    s = open(os.path.join(d, f)).read()
    s = re.sub(r"/\*.*?\*/", "", s, flags=re.S)
    text[f] = s
    for m in re.finditer(r"^(?!static)[A-Za-z_][\w \t\*]*?\b([a-z_][a-z0-9_]*)\([^;{]*\)\s*\{", s, re.M):
        defs[m.group(1)] = f
edges = {f: set() for f in files}
for f in files:
    for name in set(re.findall(r"\b([a-z_][a-z0-9_]*)\s*\(", text[f])):
        g = defs.get(name)
        if g and g != f:
            edges[f].add(g)
state = {}
stack = []


def visit(f):
    state[f] = 1
    stack.append(f)
    for g in sorted(edges[f]):
        if state.get(g) == 1:
            cyc = stack[stack.index(g):] + [g]
            print("call cycle: " + " -> ".join(cyc))
            sys.exit(1)
        if not state.get(g):
            visit(g)
    stack.pop()
    state[f] = 2


for f in files:
    if not state.get(f):
        visit(f)
for f in files:
    print(f"{f} -> {', '.join(sorted(edges[f])) or '(leaf)'}")
