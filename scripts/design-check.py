#!/usr/bin/env python3
"""Checks docs/design.md's layout tree against the repository (`make design-check`, run by
`make test`).

The tree is the code block under "## Layout". Each line is a name column (from the line's
indent to the first gap of two spaces or more) and a description. Two spaces of indent are one
level: a name ending in `/` is a folder, and the lines indented under it name what is inside it.
Names in the name column are paths relative to the folder they sit in (several may share a
line, separated by spaces or commas; a word in parentheses is a gloss); a name without an
extension stands for a module, `NAME.rs` or `NAME/`. In descriptions, a Rust file's path
(`solver/dfpn.rs`, `report/race.rs`, `kind/contract.rs`) must exist relative to the entry's
folder or one of the folders above it; other words with a slash (results folders such as
`older-jobs/`) are not checked.

Two checks:
- every file and folder the tree names exists;
- every folder under src/ is named in the tree (as a name or as a path in a description),
  except a module's unit-test folder (`tests/`), which design.md describes once as a rule.

Prints what is wrong, one line each, and exits 1; exits 0 when the tree and the code agree.
`--self-test` checks the parser on a small tree.
"""

import os
import re
import sys

DESCRIPTION_COLUMN = 21  # a line indented this far or more continues a description
PATH_IN_PROSE = re.compile(r"(?<![\w./<>{}*-])((?:[A-Za-z_][\w-]*/)*[a-z_][\w-]*\.rs)(?![\w/<>{}*])")


def layout_block(text):
    """The lines of the first code block after the '## Layout' heading."""
    lines = text.splitlines()
    try:
        start = lines.index("## Layout")
    except ValueError:
        raise SystemExit("docs/design.md: no '## Layout' heading")
    fence = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    end = next(i for i in range(fence + 1, len(lines)) if lines[i].startswith("```"))
    return [(i + 1, lines[i]) for i in range(fence + 1, end)]


def split_entry(line):
    """(indent, name column, description) of a tree line; None for a continuation line."""
    stripped = line.lstrip(" ")
    indent = len(line) - len(stripped)
    if not stripped or indent >= DESCRIPTION_COLUMN:
        return None
    parts = re.split(r" {2,}", stripped, maxsplit=1)
    # A name column may hold several names separated by two spaces (`othello/  freckers/`):
    # they are names while each piece looks like a path.
    names = [parts[0]]
    rest = parts[1] if len(parts) > 1 else ""
    while rest:
        piece = re.split(r" {2,}", rest, maxsplit=1)
        if re.fullmatch(r"[\w./-]+/?", piece[0]) and (piece[0].endswith("/") or "." in piece[0]):
            names.append(piece[0])
            rest = piece[1] if len(piece) > 1 else ""
        else:
            break
    return indent, " ".join(names), rest


def names_of(column):
    """The paths a name column names, without glosses in parentheses."""
    column = re.sub(r"\([^)]*\)", " ", column)
    return [n for n in re.split(r"[\s,]+", column) if n and not n.startswith("`")]


def parse(lines):
    """(names, prose_paths): each a list of (line number, path relative to the root, [folders
    a prose path may be relative to])."""
    names, prose = [], []
    stack = []  # (indent, folder path relative to the root)
    current_dirs = [""]
    for number, line in lines:
        entry = split_entry(line)
        if entry is None:
            description = line.strip()
        else:
            indent, column, description = entry
            while stack and stack[-1][0] >= indent:
                stack.pop()
            parent = stack[-1][1] if stack else ""
            entry_dirs = [parent]
            for name in names_of(column):
                path = os.path.normpath(os.path.join(parent, name)) if parent else os.path.normpath(name)
                names.append((number, path + ("/" if name.endswith("/") else ""), name))
                if name.endswith("/"):
                    entry_dirs = [path]
                    stack.append((indent, path))
                elif os.path.dirname(path) != parent:
                    entry_dirs = [os.path.dirname(path)] + entry_dirs
            # Every folder above the entry, nearest first, for its prose paths.
            current_dirs = entry_dirs + [d for _, d in reversed(stack) if d not in entry_dirs] + [""]
        for m in PATH_IN_PROSE.finditer(description):
            prose.append((number, m.group(1), list(current_dirs)))
    return names, prose


def exists(root, path):
    full = os.path.join(root, path.rstrip("/"))
    if path.endswith("/"):
        return os.path.isdir(full)
    if os.path.splitext(path)[1] or os.path.basename(path).startswith("."):
        return os.path.exists(full)
    # A bare name: a module (NAME.rs or NAME/), or a file without extension (Makefile).
    return os.path.exists(full) or os.path.exists(full + ".rs") or os.path.isdir(full)


def check(root, text):
    problems = []
    names, prose = parse(layout_block(text))
    named_dirs = set()
    for number, path, name in names:
        if not exists(root, path):
            problems.append(f"docs/design.md:{number}: '{name}' names {path}, which does not exist")
        elif os.path.isdir(os.path.join(root, path.rstrip("/"))):
            named_dirs.add(path.rstrip("/"))
        elif os.path.isdir(os.path.join(root, os.path.splitext(path)[0])):
            named_dirs.add(os.path.splitext(path)[0])
    for number, path, dirs in prose:
        found = [d for d in dirs if exists(root, os.path.join(d, path) if d else path)]
        if not found:
            problems.append(f"docs/design.md:{number}: '{path}' is not a file or folder of {dirs[0] or 'the root'} or the folders above it")
            continue
        resolved = os.path.normpath(os.path.join(found[0], path) if found[0] else path)
        if os.path.isdir(os.path.join(root, resolved)):
            named_dirs.add(resolved)
        # A file's folders count as named (`solver/dfpn.rs` names solver/).
        parent = os.path.dirname(resolved)
        while parent and parent != found[0]:
            named_dirs.add(parent)
            parent = os.path.dirname(parent)
    for folder, _, _ in os.walk(os.path.join(root, "src")):
        rel = os.path.relpath(folder, root)
        if os.path.basename(rel) == "tests":
            continue
        if rel not in named_dirs:
            problems.append(f"docs/design.md: the folder {rel}/ is not in the layout tree")
    return problems


def self_test():
    import tempfile

    with tempfile.TemporaryDirectory() as root:
        for f in ["src/main.rs", "src/game/mod.rs", "src/game/othello/x.rs", "src/game/tsumego/solver/dfpn.rs",
                  "src/game/tsumego/solver.rs", "src/agent/random.rs", "src/agent/uct.rs", "Makefile"]:
            os.makedirs(os.path.dirname(os.path.join(root, f)) or root, exist_ok=True)
            open(os.path.join(root, f), "w").close()
        good = "\n".join([
            "## Layout", "", "```", "Makefile", "src/",
            "  main.rs            the binary",
            "  game/              games",
            "    mod.rs           the trait",
            "    othello/  tsumego/",
            "    tsumego/solver.rs  the solver; solver/dfpn.rs (df-pn)",
            "  agent/             agents",
            "    random, uct (one UCT)",
            "```",
        ])
        assert check(root, good) == [], check(root, good)
        bad = good.replace("random, uct", "random, greedy").replace("solver/dfpn.rs", "solver/pns.rs")
        problems = check(root, bad)
        assert any("'greedy'" in p for p in problems), problems
        assert any("solver/pns.rs" in p for p in problems), problems
        missing = good.replace("    othello/  tsumego/\n", "    tsumego/\n")
        assert any("src/game/othello/ is not in" in p for p in check(root, missing)), check(root, missing)
    print("self-test passed: missing files, missing prose paths and unlisted folders are found")


def main():
    if "--self-test" in sys.argv:
        self_test()
        return
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    text = open(os.path.join(root, "docs/design.md"), encoding="utf-8").read()
    problems = check(root, text)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} places where docs/design.md and the tree disagree")
        sys.exit(1)
    print("docs/design.md's layout matches the tree")


if __name__ == "__main__":
    main()
