"""The gamelab line protocol (docs/protocol.md) for Python adapters.

`serve(name, player)` answers the handshake and calls the player's methods as gamelab's
messages arrive:

    player.newgame(game, seat, position)   # seat "first" or "second"; position: list of lines
                                           # (random and numpy's global generator are seeded
                                           # with the game's seed first)
    player.go(position, legal, ms) -> str  # the move, one of `legal`, as gamelab names it
    player.opponent(move)                  # optional: the opponent's move, as gamelab names it
    player.gameover(result)                # optional: "win", "loss" or "draw"

Only protocol lines reach gamelab: the real standard output is kept for them, and everything
else printed (print calls in a course agent, libraries) goes to standard error, which gamelab
keeps in results/<experiment>/logs/. An exception in `go` is answered with `error TYPE: MESSAGE`
(its traceback in the log): gamelab records a `crash` ("the agent raised: ..."), which loses the
game, or under Colosseum's course rule costs the move (a random move is played for it) and the
agent plays on; an exception elsewhere ends the program with a traceback there.
"""
import os
import sys
import traceback


def _protocol_streams():
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return sys.stdin, out


def refuse(message):
    """Answers gamelab's handshake with `error MESSAGE` (the agent cannot play as set up: gamelab
    stops before any game and shows the message) and returns."""
    inp, out = _protocol_streams()
    for line in inp:
        if line.split(maxsplit=1)[:1] == ["gamelab"]:
            out.write("error " + " ".join(message.split()) + "\n")
            out.flush()
            return


def seed_generators(seed):
    """Seeds the generators course agents draw from (Python's `random`, and numpy's global one
    when the agent has imported numpy) with gamelab's seed for this game and seat, so an agent
    with an iteration budget plays the same game on any thread count and after a resume."""
    import random

    random.seed(seed)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(seed % (2 ** 32))


def memory_now():
    """This process's virtual memory now (VmSize, bytes), or None off Linux."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def serve(name, player, memory_line=None):
    """`memory_line`: where the course draws its memory line (bytes of VmSize), said to gamelab
    before the handshake's answer (`info memory-line BYTES`) for `memory_measure = "above_start"`."""
    inp, out = _protocol_streams()

    def say(line):
        out.write(line + "\n")
        out.flush()

    position, legal, starting = [], [], None
    while True:
        line = inp.readline()
        if not line:
            return
        words = line.split(maxsplit=1)
        if not words:
            continue
        command, rest = words[0], (words[1].strip() if len(words) > 1 else "")
        if command == "gamelab":
            if memory_line is not None:
                say("info memory-line {}".format(memory_line))
            say("ready 1 " + name)
        elif command == "newgame":
            starting = rest.split()
            if len(starting) > 2:
                seed_generators(int(starting[2]))
        elif command == "position":
            position = [inp.readline().rstrip("\n") for _ in range(int(rest))]
            if starting:
                player.newgame(starting[0], starting[1], position)
                starting = None
        elif command == "legal":
            legal = [inp.readline().strip() for _ in range(int(rest))]
        elif command == "go":
            try:
                move = player.go(position, legal, int(rest))
            except Exception as e:  # the agent's exception: its traceback to the log, a word to gamelab
                traceback.print_exc()
                say("error " + " ".join("{}: {}".format(type(e).__name__, e).split())[:1000])
                continue
            say("move " + move)
        elif command == "opponent" and hasattr(player, "opponent"):
            player.opponent(rest)
        elif command == "gameover" and hasattr(player, "gameover"):
            player.gameover(rest)
        elif command == "quit":
            return


def load_module(path, name):
    """Imports the Python file at `path` as module `name`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise SystemExit("cannot load " + path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
