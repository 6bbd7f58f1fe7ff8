#!/usr/bin/env python3
"""A hostile gamelab agent for the sandbox's tests (tests/sandbox.rs): it plays the first legal
move, and before its first move tries what an agent must not do. What it tries is read from the
JSON file that the environment variable HOSTILE_ATTACKS names (so the job, whose hash covers the
files the command names and not that one's bytes, is the same with and without the attacks):

  {"attacks": ["write", "read", "procfds", "env", "net", "kill", "setsid", "forkbomb",
               "memory", "disk", "stopkeeper"],
   "paths_to_write": [...], "paths_to_read": [...], "tcp_port": N, "udp_port": N,
   "secret": "NAME", "marker": "TEXT"}

Whatever it reached is written to standard error as a line `REACHED <what>`; the tests read the
log and check the effects themselves. It refuses to attack (and says REACHED not-sandboxed) when
its pid is not a small one of a pid namespace of its own: outside a sandbox, `kill` would reach
every process of the machine's user.
"""
import json
import os
import signal
import socket
import sys
import time

config = {}
if os.environ.get("HOSTILE_ATTACKS"):
    try:
        with open(os.environ["HOSTILE_ATTACKS"]) as f:
            config = json.load(f)
    except OSError as e:
        print("cannot read the attack file:", e, file=sys.stderr)


def reached(what):
    print("REACHED", what, file=sys.stderr, flush=True)


def attack_write():
    for p in config.get("paths_to_write", []):
        targets = [p]
        if os.path.isdir(p):
            for root, _dirs, files in os.walk(p):
                targets += [os.path.join(root, f) for f in files]
            targets.append(os.path.join(p, "FORGED-by-hostile"))
        for t in targets:
            try:
                with open(t, "ab") as f:
                    f.write(b"forged\n")
                reached("write " + t)
            except OSError:
                pass


def attack_read():
    for p in config.get("paths_to_read", []):
        try:
            if os.path.isdir(p):
                if os.listdir(p):
                    reached("list " + p)
            else:
                with open(p, "rb") as f:
                    f.read(1)
                reached("read " + p)
        except OSError:
            pass


def pids():
    return [int(d) for d in os.listdir("/proc") if d.isdigit() and int(d) != os.getpid()]


def attack_procfds():
    for pid in pids():
        try:
            fds = os.listdir("/proc/%d/fd" % pid)
        except OSError:
            continue
        for fd in fds:
            path = "/proc/%d/fd/%s" % (pid, fd)
            for mode in (os.O_WRONLY | os.O_NONBLOCK, os.O_RDONLY | os.O_NONBLOCK):
                try:
                    g = os.open(path, mode)
                    if mode & os.O_WRONLY:
                        os.write(g, b"move z99\n")
                    os.close(g)
                    reached("fd %s of pid %d" % (fd, pid))
                except OSError:
                    pass


def attack_env():
    name = config.get("secret", "")
    if name and name in os.environ:
        reached("env " + name)
    for pid in pids():
        try:
            with open("/proc/%d/environ" % pid, "rb") as f:
                if name.encode() in f.read():
                    reached("environ of pid %d" % pid)
        except OSError:
            pass


def attack_net():
    if config.get("tcp_port"):
        try:
            s = socket.create_connection(("127.0.0.1", config["tcp_port"]), timeout=1)
            s.sendall(b"hello from the sandbox\n")
            s.close()
            reached("tcp")
        except OSError:
            pass
    if config.get("udp_port"):
        try:
            u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            # A datagram leaves without an answer: whether it arrived, only the listener can
            # say (the test's socket on the host; in its own network namespace it goes nowhere).
            u.sendto(b"hello", ("127.0.0.1", config["udp_port"]))
        except OSError:
            pass


def attack_kill():
    for pid in pids():
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(pid, sig)
                reached("signal %d to pid %d" % (sig, pid))
            except OSError:
                pass
    try:
        os.kill(os.getppid(), signal.SIGSTOP)
    except OSError:
        pass


def attack_setsid():
    marker = config.get("marker", "hostile-marker")
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            # Holds standard output and error open, and sleeps for ever under a marker name.
            os.execvp("sh", ["sh", "-c", "exec -a %s sleep 100000" % marker])
        os._exit(0)


def attack_stopkeeper():
    # Outside a sandbox the parent is gamelab's keeper of this program: stopped, it answers
    # nothing, and gamelab must not wait on it for ever.
    os.kill(os.getppid(), signal.SIGSTOP)


def attack_forkbomb():
    n = 0
    while n < 100000:
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        n += 1
    print("forked", n, file=sys.stderr, flush=True)
    if n >= 100000:
        reached("forkbomb")


def attack_memory():
    hoard = []
    while True:
        hoard.append(bytearray(20 * 1000 * 1000))


def attack_disk():
    # The private /tmp fills (its size is the limit), then one file past the file size limit.
    try:
        with open("/tmp/fill", "wb") as f:
            while True:
                f.write(b"\0" * 1000000)
                f.flush()
    except OSError:
        pass
    os.remove("/tmp/fill")
    with open("/tmp/big", "wb") as f:
        while True:
            f.write(b"\0" * 1000000)
            f.flush()


ATTACKS = {
    "write": attack_write,
    "read": attack_read,
    "procfds": attack_procfds,
    "env": attack_env,
    "net": attack_net,
    "kill": attack_kill,
    "setsid": attack_setsid,
    "forkbomb": attack_forkbomb,
    "stopkeeper": attack_stopkeeper,
    "memory": attack_memory,
    "disk": attack_disk,
}

attacked = False
legal = []
while True:
    line = sys.stdin.readline()
    if not line:
        break
    words = line.split()
    if not words:
        continue
    if words[0] == "gamelab":
        print("ready 1 hostile", flush=True)
    elif words[0] == "position":
        for _ in range(int(words[1])):
            sys.stdin.readline()
    elif words[0] == "legal":
        legal = [sys.stdin.readline().strip() for _ in range(int(words[1]))]
    elif words[0] == "go":
        if not attacked:
            attacked = True
            # Only stopping its own keeper is safe to try outside a sandbox.
            if config.get("attacks") and config["attacks"] != ["stopkeeper"]:
                if os.getpid() > 50:
                    reached("not-sandboxed (pid %d)" % os.getpid())
                else:
                    for a in config["attacks"]:
                        ATTACKS[a]()
            elif config.get("attacks"):
                attack_stopkeeper()
        print("move", legal[0], flush=True)
    elif words[0] == "quit":
        break
