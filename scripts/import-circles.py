#!/usr/bin/env python3
"""Lists the `use crate::` / `super::` arrows between gamelab's source files and the import
circles among them (strongly connected groups of files), for issue #63's "no import circle".

An arrow runs from a file to the file of the module a path names (`crate::report::table::Table`
in src/report/draw.rs: report/draw -> report/table). A name a module re-exports (`pub use`) is
followed to the module that defines it (`crate::experiment::expand` -> experiment/kind/registry),
so a re-export hides no arrow. What is left pointing into a module's own ancestors
(`super::Experiment` from src/experiment/spec/race.rs to the spec it is part of) is left out. Tests (`#[cfg(test)]` modules at a file's end, src/**/tests.rs)
are left out. Exit status 1 when there is a circle; `--arrows` prints every arrow too.

Usage: scripts/import-circles.py [--arrows] [SRC_DIR]
"""
import re
import sys
from pathlib import Path

args = [a for a in sys.argv[1:] if not a.startswith("--")]
src = Path(args[0] if args else Path(__file__).resolve().parent.parent / "src")
show_arrows = "--arrows" in sys.argv

if "--self-test" in sys.argv:
    # The check must find a circle hidden behind a re-export at the crate's root (b -> a through
    # `crate::f`) and one behind a child's `super::`, and none in the same tree without them.
    import subprocess
    import tempfile

    def circles_in(files):
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                (Path(d) / name).parent.mkdir(parents=True, exist_ok=True)
                (Path(d) / name).write_text(text)
            run = subprocess.run([sys.executable, __file__, d], capture_output=True, text=True)
            return run.returncode, run.stdout

    tree = {
        "lib.rs": "pub mod a;\npub mod b;\npub mod c;\npub use a::f;\n",
        "a.rs": "use crate::b::g;\npub fn f() {}\n",
        "b.rs": "pub fn g() { crate::f() }\n",
        "c/mod.rs": "pub mod d;\npub use d::h;\n",
        "c/d.rs": "pub fn h() { super::super::a::f() }\n",
    }
    code, out = circles_in(tree)
    assert code == 1 and "a, b" in out, out
    tree["b.rs"] = "pub fn g() {}\n"
    code, out = circles_in(tree)
    assert code == 0, out
    tree["a.rs"] = "use crate::b::g;\nuse crate::c::h;\npub fn f() {}\n"
    code, out = circles_in(tree)
    assert code == 1 and "a, c/d" in out, out
    print("self-test passed: circles behind re-exports and super:: are found")
    sys.exit(0)

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
    for n in range(len(path), -1, -1):
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


def source(f):
    """A file's text without its tests module and comments."""
    text = f.read_text()
    cut = re.search(r"^#\[cfg\(test\)\]\s*\n\s*mod tests", text, re.M)
    if cut:
        text = text[: cut.start()]
    return re.sub(r"//[^\n]*", "", text)


def absolute(mod, f, p):
    """A `crate::`/`super::`/`self::`/child path of module `mod` (file `f`) as a full path."""
    segs = [s for s in p.split("::") if s]
    if segs[0] == "crate":
        return segs[1:]
    here = list(mod) if f.stem == "mod" or not mod else list(mod[:-1])
    if segs[0] == "self":
        return list(mod) + segs[1:]
    if segs[0] != "super":
        return list(mod) + segs  # `pub use child::item` in a module
    # `super::` in a file module is relative to the file's parent module.
    n = 0
    while segs and segs[0] == "super":
        segs, n = segs[1:], n + 1
    base = list(mod[:-1]) if (f.stem != "mod" and mod) else here
    base = base[: len(base) - (n - 1)] if f.stem != "mod" and mod else base[: len(base) - n]
    return base + segs


# What each module re-exports: name -> full path of what it names (`*` for a glob).
reexports = {}
for mod, f in modules.items():
    names = {}
    for m in re.finditer(r"^\s*pub use\s+([^;]*);", source(f), re.M | re.S):
        for p in expand_use("", m.group(1)):
            first = p.split("::")[0]
            if first not in ("crate", "super", "self") and (mod + (first,)) not in modules:
                continue  # an outside crate's item
            full = absolute(mod, f, p)
            if full[-1] == "*":
                names["*"] = full[:-1]
            else:
                names[full[-1]] = full
    reexports[mod] = names


def target(full):
    """The module that defines what `full` names, following re-exports."""
    for _ in range(20):
        t = resolve(full)
        if t is None:
            return None
        rest = full[len(t):]
        ex = reexports.get(t, {})
        if rest and rest[0] in ex:
            again = ex[rest[0]] + rest[1:]
        elif rest and "*" in ex:
            again = ex["*"] + rest
        else:
            return t
        if again == full:
            return t
        full = again
    return resolve(full)


arrows = {}
for mod, f in modules.items():
    text = source(f)
    paths = []
    for m in re.finditer(r"\buse\s+((?:crate|super)::[^;]*);", text, re.S):
        paths += expand_use("", m.group(1))
    for m in re.finditer(r"\b((?:crate|super)(?:::\w+)+)", text):
        paths.append(m.group(1))
    targets = set()
    for p in paths:
        p = "::".join(s for s in p.split("::") if s != "self")
        t = target(absolute(mod, f, p))
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
