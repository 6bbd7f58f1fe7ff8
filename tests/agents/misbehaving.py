#!/usr/bin/env python3
"""A test agent that plays random legal moves until its move number N (argv[2], counting from
1 within a game), then misbehaves as argv[1] says: illegal (a move that is not legal), sleep
(no answer until long past its time), crash (exits with status 3), garbage (a line that is not
the protocol), ok (never misbehaves), onegame (plays well, then exits after each game, as an
agent that ignores the protocol's newgame might), longline (a 100 MB move line, written in
pieces), spam (20 MB of standard error with every move), fork (starts a child that sleeps with
argv[3] on its command line, then plays well), escape (starts 20 children that leave its process
group and session with setsid(), ignore SIGTERM and keep its standard output and error open,
with argv[3] on their command lines; then plays well), stubborn (ignores SIGTERM and the end of its
input, with argv[3] on its command line; plays well), hog (takes 300 MB at move N and keeps playing),
nonewline (200 MB of a move line without its newline, then silence with its output open), closedout
(closes its standard output and stays alive, silent), heavy (takes 300 MB before its handshake, as
an agent importing numpy and a big table, and plays well), heavyhog (heavy, then hog), heavyline
(heavy, but says `info memory-line` from before the 300 MB, as a course counts an agent's imports), nap (at move
N sleeps argv[3] seconds, using no CPU, then plays), burn (at move N computes for argv[3] seconds
of CPU time, then plays).
Used by tests/external.rs."""
import random
import signal
import subprocess
import sys
import time

mode = sys.argv[1]
at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
rng = random.Random(7)
print("started", file=sys.stderr, flush=True)
if mode == "fork":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", sys.argv[3]])
if mode == "escape":
    for _ in range(20):
        subprocess.Popen(
            [sys.executable, "-c",
             "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)",
             sys.argv[3]],
            start_new_session=True)
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
memory_line = None
if mode == "heavyline":  # says its memory line is from before the 300 MB (as a course counts an import)
    memory_line = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmSize:"))
if mode in ("heavy", "heavyhog", "heavyline"):
    held = bytearray(300_000_000)
legal, moves = [], 0
while True:
    line = sys.stdin.readline()
    if not line:
        if mode == "stubborn":
            time.sleep(300)
        break
    words = line.split()
    if not words:
        continue
    if words[0] == "gamelab":
        if memory_line is not None:
            print("info memory-line", memory_line, flush=True)
        print("ready 1 misbehaving-" + mode, flush=True)
    elif words[0] == "newgame":
        moves = 0
        if len(words) > 3:  # the game's seed: the same moves in a resumed run's new process
            rng.seed(int(words[3]))
    elif words[0] == "position":
        for _ in range(int(words[1])):
            sys.stdin.readline()
    elif words[0] == "legal":
        legal = [sys.stdin.readline().strip() for _ in range(int(words[1]))]
    elif words[0] == "go":
        moves += 1
        if moves == at and mode == "illegal":
            print("move zz99", flush=True)
        elif moves == at and mode == "sleep":
            time.sleep(30)
        elif moves == at and mode == "crash":
            print("about to crash", file=sys.stderr, flush=True)
            sys.exit(3)
        elif moves == at and mode == "garbage":
            print("hello there", flush=True)
        elif moves == at and mode == "nap":
            time.sleep(float(sys.argv[3]))
            print("move", rng.choice(legal), flush=True)
        elif moves == at and mode == "burn":
            end = time.process_time() + float(sys.argv[3])
            while time.process_time() < end:
                pass
            print("move", rng.choice(legal), flush=True)
        elif moves == at and mode in ("hog", "heavyhog"):
            hog = bytearray(300_000_000)
            time.sleep(0.2)
            print("move", rng.choice(legal), flush=True)
        elif moves == at and mode == "longline":
            sys.stdout.write("move ")
            for _ in range(100):
                sys.stdout.write("x" * 1_000_000)
            sys.stdout.write("\n")
            sys.stdout.flush()
        elif moves == at and mode == "nonewline":
            # 200 MB of a move line that never ends, then silence with the pipe open.
            sys.stdout.write("move ")
            for _ in range(200):
                sys.stdout.write("x" * 1_000_000)
            sys.stdout.flush()
            time.sleep(30)
        elif moves == at and mode == "closedout":
            # Standard output closed, the process alive and silent.
            sys.stdout.flush()
            import os
            os.close(1)
            time.sleep(30)
        elif mode == "spam":
            for _ in range(20):
                sys.stderr.write("y" * 1_000_000)
            sys.stderr.flush()
            print("move", rng.choice(legal), flush=True)
        else:
            print("info thinking about", len(legal), "moves", flush=True)
            print("move", rng.choice(legal), flush=True)
    elif words[0] == "gameover" and mode == "onegame":
        break
    elif words[0] == "quit":
        break
