#!/usr/bin/env python3
"""A gamelab agent in about 30 lines: plays a uniformly random legal move, for any game.

gamelab runs it as `python3 examples/agents/random_agent.py` (see docs/protocol.md). It reads
gamelab's lines on standard input and answers on standard output; anything for people goes
to standard error, which gamelab keeps in results/<experiment>/logs/.
"""
import random
import sys

base = sys.argv[1] if len(sys.argv) > 1 else None
rng = random.Random(base)
legal = []
while True:
    line = sys.stdin.readline()
    if not line:                              # gamelab has gone: stop
        break
    words = line.split()
    if not words:
        continue
    if words[0] == "gamelab":                 # handshake: protocol version
        print("ready 1 random-python", flush=True)
    elif words[0] == "newgame":               # newgame <game> <side> <seed>: each game its own
        rng = random.Random(f"{base}-{words[3]}" if base is not None else None)
    elif words[0] == "position":              # the position: N lines in the game's text format
        position = [sys.stdin.readline() for _ in range(int(words[1]))]
    elif words[0] == "legal":                 # the legal moves: N lines, one move each
        legal = [sys.stdin.readline().strip() for _ in range(int(words[1]))]
    elif words[0] == "go":                    # our move: go <milliseconds>
        print("move", rng.choice(legal), flush=True)
    elif words[0] == "quit":
        break
    # opponent, gameover: not needed to play at random
