#!/usr/bin/env python3
"""Plays an Othello agent written against gamelab's small Python interface.

    command = ["python3", "adapters/othello/gamelab_othello.py", "path/to/my_othello.py"]

The file defines one function, and may define a second:

    def choose_move(board, me, legal, time_ms):
        # board: list of rows, top first, of 'X' (black), 'O' (white), '#' (blocked), '.' (empty)
        # me: "black" or "white"; legal: the legal moves ("f5", "pass"); time_ms: this move's time
        return legal[0]

    def new_game(me, board, rules):   # optional; rules: {"ignore_occlusion": bool,
        ...                           #                    "fewer_pieces_continue": bool}

Moves are named column letter + row number, `a1` at the top left.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from gamelab_protocol import load_module, serve  # noqa: E402


def parse_position(lines):
    """gamelab's Othello text (src/game/othello/text.rs) -> (side to move, rules, board rows)."""
    turn, rules, board = "black", {"ignore_occlusion": False, "fewer_pieces_continue": False}, []
    for line in lines:
        words = line.split()
        if not words or line.startswith("# "):
            continue
        if words[0] == "turn":
            turn = words[1]
        elif words[0] in rules:
            rules[words[0]] = words[1] == "yes"
        else:
            board.append(words[0])
    return turn, rules, board


class FunctionPlayer:
    def __init__(self, module):
        self.module = module

    def newgame(self, game, seat, position):
        if game != "othello":
            raise SystemExit("this adapter plays othello, not " + game)
        self.me = "black" if seat == "first" else "white"
        if hasattr(self.module, "new_game"):
            _, rules, board = parse_position(position)
            self.module.new_game(self.me, board, rules)

    def go(self, position, legal, ms):
        _, _, board = parse_position(position)
        return str(self.module.choose_move(board, self.me, list(legal), ms))


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    path = os.path.abspath(sys.argv[1])
    sys.path.append(os.path.dirname(path))
    module = load_module(path, os.path.splitext(os.path.basename(path))[0])
    if not hasattr(module, "choose_move"):
        raise SystemExit(path + " defines no choose_move(board, me, legal, time_ms)")
    serve(os.path.basename(path), FunctionPlayer(module))


if __name__ == "__main__":
    main()
