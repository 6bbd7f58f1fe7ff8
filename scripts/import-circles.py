#!/usr/bin/env python3
"""Lists the `use crate::` / `super::` arrows between gamelab's source files and the import
circles among them (strongly connected groups of files), for issue #63's "no import circle".

An arrow runs from a file to the file of the module a path names (`crate::report::table::Table`
in src/report/draw.rs: report/draw -> report/table). Paths into a module's own ancestors
(`crate::experiment::Experiment` from src/experiment/grid.rs) name a namespace, usually a
re-export, and are left out. Tests (`#[cfg(test)]` modules at a file's end, src/**/tests.rs)
are left out. Exit status 1 when there is a circle; `--arrows` prints every arrow too.

Usage: scripts/import-circles.py [--arrows] [SRC_DIR]
"""
import re
import sys
from pathlib import Path

args = [a for a in sys.argv[1:] if not a.startswith("--")]
src = Path(args[0] if args else Path(__file__).resolve().parent.parent / "src")
show_arrows = "--arrows" in sys.argv

modules = {}  # module path (tuple) -> file
for f in sorted(src.rglob("*.rs")):
    parts = list(f.relative_to(src).with_suffix("").parts)
    if parts in (["lib"], ["main"]):
        parts = []
    elif parts[-1] == "mod":
        parts = parts[:-1]
    if parts and parts[-1] == "tests":
        continue
    modules[tuple(parts)] = f


def resolve(path):
    """The longest prefix of `path` that is a module."""
    for n in range(len(path), 0, -1):
        if tuple(path[:n]) in modules:
            return tuple(path[:n])
    return None


def expand_use(prefix, body):
    """`a::{b, c::d}` -> [a::b, a::c::d] (nested groups flattened)."""
    out = []
    body = body.strip()
    m = re.match(r"^([\w:]*?)::\{(.*)\}$", body, re.S)
    if m:
        head = m.group(1)
        depth, item, items = 0, "", []
        for ch in m.group(2):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                items.append(item)
                item = ""
            else:
                item += ch
        items.append(item)
        for it in items:
            if it.strip():
                out += expand_use(prefix, head + "::" + it.strip())
        return out
    return [body.split(" as ")[0].strip()]


arrows = {}
for mod, f in modules.items():
    text = f.read_text()
    cut = re.search(r"^#\[cfg\(test\)\]\s*\n\s*mod tests", text, re.M)
    if cut:
        text = text[: cut.start()]
    text = re.sub(r"//[^\n]*", "", text)
    paths = []
    for m in re.finditer(r"\buse\s+((?:crate|super)::[^;]*);", text, re.S):
        paths += expand_use("", m.group(1))
    for m in re.finditer(r"\b((?:crate|super)(?:::\w+)+)", text):
        paths.append(m.group(1))
    here = list(mod) if f.stem == "mod" or not mod else list(mod[:-1])
    targets = set()
    for p in paths:
        segs = [s for s in p.split("::") if s and s != "self"]
        if segs[0] == "crate":
            full = segs[1:]
        else:
            base = list(here)
            while segs and segs[0] == "super":
                segs = segs[1:]
                base = base[:-1] if base else base
            # `super::` in a file module is relative to the file's parent module.
            if f.stem != "mod" and mod and p.startswith("super"):
                base = list(mod[:-1])
                n = p.count("super::") - 1
                base = base[: len(base) - n] if n else base
            full = base + segs
        t = resolve(full)
        if t is None or t == mod or mod[: len(t)] == t:
            continue
        targets.add(t)
    arrows[mod] = targets

# Tarjan's strongly connected components.
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]


def strong(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in arrows[v]:
        if w not in index:
            strong(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        group = []
        while True:
            w = stack.pop()
            on.discard(w)
            group.append(w)
            if w == v:
                break
        sccs.append(group)


sys.setrecursionlimit(10000)
for v in arrows:
    if v not in index:
        strong(v)

name = lambda m: "/".join(m) or "lib"
if show_arrows:
    for v in sorted(arrows):
        for w in sorted(arrows[v]):
            print(f"{name(v)} -> {name(w)}")
circles = [sorted(g) for g in sccs if len(g) > 1]
total = sum(len(a) for a in arrows.values())
print(f"{len(modules)} files, {total} arrows, {len(circles)} import circles")
for g in sorted(circles, key=len, reverse=True):
    inner = sum(1 for v in g for w in arrows[v] if w in g)
    print(f"- {len(g)} files, {inner} arrows among them: " + ", ".join(name(m) for m in g))
sys.exit(1 if circles else 0)
