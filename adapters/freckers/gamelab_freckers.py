#!/usr/bin/env python3
"""Plays a COMP30024 Freckers agent, unmodified, as a gamelab external agent.

    command = ["python3", "adapters/freckers/gamelab_freckers.py", "path/to/agent"]
    command = ["python3", "adapters/freckers/gamelab_freckers.py", "path/to/agent", "--stand-in"]

`path/to/agent` is the course's agent package (the folder with `program.py`, or that file):
its `Agent(color, **referee)` is built for each game, `action(**referee)` asked for each move
and `update(color, action, **referee)` told every action of both players, as the course
referee does; `referee` holds `time_remaining` (seconds left on the game clock), with
`space_remaining` and `space_limit` None (gamelab holds the agent to `memory_mb` from
outside). The `referee.game` types it imports come from the course's own `referee` package
when the agent ships one beside its `agent/` folder (as the course template does), and
otherwise from gamelab's stand-ins in this folder (the types, Board and CellState, the
exceptions, constants and the events). When the course's package is there but does not import
(a module its requirements install is missing), the adapter answers the handshake with
`error ...` and gamelab stops before any game, naming the module and how to install it;
`--stand-in` after the agent's path plays with the stand-ins instead. A MoveAction is matched
to the legal move with the same frog and destination, so any direction list the referee would
accept (a single direction over an adjacent frog is a jump) is understood.
"""
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def agent_package(arg):
    """The agent package's folder, from the command-line argument (the folder or its program.py)."""
    path = os.path.abspath(arg)
    return path if os.path.isdir(path) else os.path.dirname(path)


def own_referee(package):
    """The folder holding the course's own `referee` package, when the agent ships it beside
    its `agent/` folder (as the course template does); None otherwise."""
    parent = os.path.dirname(package)
    return parent if os.path.isfile(os.path.join(parent, "referee", "__init__.py")) else None


# `--stand-in` after the agent's path: play with gamelab's stand-in referee even when the agent
# ships the course's own package that does not import here.
STAND_IN = "--stand-in" in sys.argv[2:]

# The course's own referee package first when the agent has one (its Board, events and
# constants are then the course's), else gamelab's stand-in in this folder.
_OWN = own_referee(agent_package(sys.argv[1])) if len(sys.argv) > 1 else None
sys.path.insert(0, _OWN or HERE)
sys.path.insert(1, os.path.dirname(HERE))

from gamelab_protocol import memory_now, refuse, serve  # noqa: E402

try:
    import referee.game  # noqa: E402,F401
except ImportError as e:
    if _OWN is None:
        raise
    # The course's package needs what the course's requirements install (its referee imports
    # websockets for its server). Never replaced silently: without `--stand-in` the run stops
    # before any game, naming the module and the command that installs it.
    if not STAND_IN:
        missing = getattr(e, "name", None)
        install = "{} -m pip install {}".format(os.path.basename(sys.executable), missing) if missing else "the course's requirements"
        refuse("the course's referee package does not import ({}): install it with `{}`, or add "
               "\"--stand-in\" after the agent's path for gamelab's stand-in referee; the package: {}"
               .format(e, install, os.path.join(_OWN, "referee")))
        sys.exit(0)
    print("gamelab: the agent's own referee package does not import ({}); --stand-in: using gamelab's stand-in".format(e), file=sys.stderr)
    sys.path.remove(_OWN)
    for name in [m for m in sys.modules if m == "referee" or m.startswith("referee.")]:
        del sys.modules[name]
    sys.path.insert(0, HERE)

from referee.game import Coord, Direction, GrowAction, MoveAction, PlayerColor  # noqa: E402

# The course's referee draws its memory line here: numpy imported when present (so it is in the
# line), then the line, then the agent's module imported and its Agent built.
try:
    import numpy  # noqa: E402,F401
except ImportError:
    pass
MEMORY_LINE = memory_now()

# gamelab's direction names (src/game/freckers/mod.rs) and the course's.
NAMES = {
    "UP": Direction.Up, "UP-RIGHT": Direction.UpRight, "RIGHT": Direction.Right, "DOWN-RIGHT": Direction.DownRight,
    "DOWN": Direction.Down, "DOWN-LEFT": Direction.DownLeft, "LEFT": Direction.Left, "UP-LEFT": Direction.UpLeft,
}


def frogs_of(position):
    """The cells holding a frog, from gamelab's Freckers text (src/game/freckers/text.rs)."""
    rows = [line.split() for line in position if line.strip() and line.split()[0] in ("*", ".", "R", "B")]
    return {(r, c) for r, row in enumerate(rows) for c, cell in enumerate(row) if cell in ("R", "B")}


def destination(frogs, start, directions):
    """Where a move ends: one step, or a jump over a frog per direction (the referee reads a
    single direction over an adjacent frog as a jump)."""
    r, c = start
    if len(directions) == 1:
        dr, dc = directions[0].r, directions[0].c
        if (r + dr, c + dc) not in frogs:
            return (r + dr, c + dc)
    for d in directions:
        r, c = r + 2 * d.r, c + 2 * d.c
    return (r, c)


def parse_move(name):
    """gamelab's notation -> the course's action."""
    if name == "GROW":
        return GrowAction()
    head, dirs = name[len("MOVE "):].split(" [")
    r, c = (int(x) for x in head.strip("()").split(","))
    directions = tuple(NAMES[d.strip()] for d in dirs.rstrip("]").split(","))
    return MoveAction(Coord(r, c), directions if len(directions) > 1 else directions[0])


class CoursePlayer:
    def __init__(self, agent_class):
        self.agent_class = agent_class

    def referee(self, ms=None):
        return {"time_remaining": None if ms is None else ms / 1000.0, "space_remaining": None, "space_limit": None}

    def newgame(self, game, seat, position):
        if game != "freckers":
            raise SystemExit("this adapter plays freckers, not " + game)
        self.color = PlayerColor.RED if seat == "first" else PlayerColor.BLUE
        self.agent = self.agent_class(self.color, **self.referee(180_000))
        self.left = None

    def go(self, position, legal, ms):
        self.left = ms
        action = self.agent.action(**self.referee(ms))
        if isinstance(action, GrowAction):
            name = "GROW"
        else:
            frogs = frogs_of(position)
            start = (action.coord.r, action.coord.c)
            end = destination(frogs, start, action.directions)
            name = None
            for m in legal:
                if m == "GROW":
                    continue
                candidate = parse_move(m)
                if (candidate.coord.r, candidate.coord.c) == start and destination(frogs, start, candidate.directions) == end:
                    name = m
                    break
            if name is None:
                name = str(action)  # not a legal move: gamelab records it as illegal
        self.agent.update(self.color, action, **self.referee(ms))
        return name

    def opponent(self, move):
        self.agent.update(self.color.opponent, parse_move(move), **self.referee(self.left))


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    package = agent_package(sys.argv[1])
    sys.path.insert(2, os.path.dirname(package))
    module = importlib.import_module(os.path.basename(package) + ".program")
    serve("{} ({})".format(getattr(module.Agent, "__name__", "Agent"), os.path.basename(package)), CoursePlayer(module.Agent),
          memory_line=MEMORY_LINE)


if __name__ == "__main__":
    main()
