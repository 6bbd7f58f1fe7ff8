#!/usr/bin/env python3
"""Plays a COMP 424 Colosseum Survival agent file, unmodified, as a gamelab external agent.

    command = ["python3", "adapters/colosseum/gamelab_colosseum.py", "path/to/student_agent.py"]

The file is the course's: a class that extends `agents.agent.Agent`, registered with
`@register_agent("...")` from `store`, whose `step(chess_board, my_pos, adv_pos, max_step)`
returns `((row, col), direction)`. `chess_board` is a numpy array of shape (M, M, 4), True where
a cell has a barrier on side 0 up, 1 right, 2 down, 3 left; positions are (row, col) tuples.
The imports it expects (`agents`, `agents.agent`, `store`, `constants`, `utils`) come from the
course project the file sits in (its `agents/` package beside the project's own `store.py`, as
the course template ships it), and otherwise from gamelab's stand-ins in this folder; a file in
a folder named `agents/` may import its sibling modules from there. A new
agent object plays each game, as in the course's simulator. With several agents registered in
the file, `--agent NAME` picks one (default: the only one, or "student_agent").
"""
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def course_project(path):
    """The course project's folder when the agent file sits in its `agents/` package beside the
    project's own `store.py` (as the course template ships it); None otherwise."""
    folder = os.path.dirname(os.path.abspath(path))
    project = os.path.dirname(folder)
    if os.path.basename(folder) == "agents" and os.path.isfile(os.path.join(folder, "__init__.py")) and os.path.isfile(os.path.join(project, "store.py")):
        return project
    return None


# The course project's own `agents`, `store`, `constants` and `utils` first when the agent
# ships in one, else gamelab's stand-ins in this folder.
PROJECT = course_project(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
sys.path.insert(0, PROJECT or HERE)
sys.path.insert(1, os.path.dirname(HERE))

import numpy as np  # noqa: E402  (the course interface hands the agent numpy arrays)

import agents  # noqa: E402
import store  # noqa: E402
from gamelab_protocol import load_module, serve  # noqa: E402

SIDES = "urdl"


def parse_position(lines):
    """gamelab's Colosseum text (src/game/colosseum/text.rs) -> (board, {"A": pos, "B": pos},
    side to move, max_step)."""
    size, max_step, turn, drawing = None, None, "A", []
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key = stripped.split()[0]
        if key == "size":
            size = int(stripped.split()[1])
        elif key == "max_step":
            max_step = int(stripped.split()[1])
        elif key == "turn":
            turn = stripped.split()[1]
        else:
            drawing.append(line)
    if max_step is None:
        max_step = (size + 1) // 2
    width = 4 * size + 1
    rows = [row.ljust(width) for row in drawing]
    board = np.zeros((size, size, 4), dtype=bool)
    pos = {}
    for r in range(size):
        above, cells, below = rows[2 * r], rows[2 * r + 1], rows[2 * r + 2]
        for c in range(size):
            board[r, c, 0] = above[4 * c + 1:4 * c + 4] == "---"
            board[r, c, 2] = below[4 * c + 1:4 * c + 4] == "---"
            board[r, c, 3] = cells[4 * c] == "|"
            board[r, c, 1] = cells[4 * c + 4] == "|"
            mark = cells[4 * c + 2]
            if mark in "AB":
                pos[mark] = (r, c)
    return board, pos, turn, max_step


class CoursePlayer:
    def __init__(self, agent_class):
        self.agent_class = agent_class
        self.agent = None

    def newgame(self, game, seat, position):
        if game != "colosseum":
            raise SystemExit("this adapter plays colosseum, not " + game)
        self.agent = self.agent_class()

    def go(self, position, legal, ms):
        board, pos, turn, max_step = parse_position(position)
        me, adv = pos[turn], pos["B" if turn == "A" else "A"]
        (r, c), side = self.agent.step(board.copy(), tuple(me), tuple(adv), max_step)
        return "({},{},{})".format(int(r), int(c), SIDES[int(side)])


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    path = os.path.abspath(args[0])
    wanted = args[args.index("--agent") + 1] if "--agent" in args else None
    folder = os.path.dirname(path)
    name = os.path.splitext(os.path.basename(path))[0]
    if PROJECT is not None:
        # The course's own package: its __init__ imports its agents (this one among them).
        if "agents." + name not in sys.modules:
            importlib.import_module("agents." + name)
    else:
        # A file in a folder named agents/ may import its siblings as agents.<module>.
        if os.path.basename(folder) == "agents":
            agents.__path__.append(folder)
        sys.path.append(folder)
        load_module(path, "agents." + name if os.path.basename(folder) == "agents" else name)
    registry = store.AGENT_REGISTRY
    if wanted is None:
        wanted = next(iter(registry)) if len(registry) == 1 else "student_agent"
    if wanted not in registry:
        raise SystemExit("no agent registered as {!r} in {} (registered: {})".format(wanted, path, ", ".join(registry) or "none"))
    serve("{} ({})".format(wanted, os.path.basename(path)), CoursePlayer(registry[wanted]))


if __name__ == "__main__":
    main()
