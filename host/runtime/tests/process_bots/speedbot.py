#!/usr/bin/env python3
"""A 2014-style Speed Clue bot: `speedbot.py [--buffer] ID PORT`, TCP, standard library only.

By default it speaks lines, as the contest's Python port's `LineMessager`
(`makefile('r').readline()`, `msg + '\\n'`). With `--buffer` it speaks as its
`BufMessager`: each message is one `sock.recv(512)`, sent with `sendall` and
no line terminator (the framing of the contest's Java server). With
`--buffer --split` it sends each answer of more than one word in two writes
50 ms apart, cut right after its first word (`suggest` | ` Gr Kn Di`): what
TCP may do to any message.

Two modes make the mistakes a new author makes, for the host's hint: with
`--no-flush` it writes its lines to a `makefile('w')` writer it never
flushes; with `--bare-alive` it reads lines but says `ID alive` without a
newline (so it is sent bare messages, and its `readline` never returns).
With `--repeat` it makes the same suggestion every turn, which the
contest's rules forbid."""
import random
import socket
import sys
import time

SUSPECTS = "Gr Mu Pe Pl Sc Wh".split()
WEAPONS = "Ca Kn Pi Re Ro Wr".split()
ROOMS = "Ba Bi Co Di Ha Ki Li Lo St".split()
CATEGORIES = [SUSPECTS, WEAPONS, ROOMS]


def main():
    args = sys.argv[1:]
    flags = set()
    while args and args[0].startswith("--"):
        flags.add(args.pop(0))
    buffered, split = "--buffer" in flags, "--split" in flags
    ident, port = args[0], int(args[1])
    conn = socket.create_connection(("127.0.0.1", port))
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    if buffered:
        def say(line):
            word, space, rest = line.partition(" ")
            if split and space and word != ident:
                conn.sendall(word.encode())
                time.sleep(0.05)
                conn.sendall((space + rest).encode())
            else:
                conn.sendall(line.encode())

        def messages():
            while True:
                msg = conn.recv(512).decode()
                if not msg:
                    return
                yield msg.rstrip("\0")
        reader = messages()
    elif "--no-flush" in flags:
        writer = conn.makefile("w")

        def say(line):
            writer.write(line + "\n")
        reader = conn.makefile("r")
    else:
        def say(line):
            conn.sendall((line + "\n").encode())
        reader = conn.makefile("r")

    if "--bare-alive" in flags:
        conn.sendall((ident + " alive").encode())
    else:
        say(ident + " alive")
    me, hand, seen, made, forced = None, set(), set(), set(), None
    rng = random.Random(ident)
    for line in reader:
        words = line.split()
        if not words:
            continue
        kind = words[0]
        if kind == "reset":
            me, hand = int(words[2]), set(words[3:])
            seen, made, forced = set(hand), set(), None
            say("ok")
        elif kind == "suggest" and "--repeat" in flags:
            say("suggest Gr Kn Di")
        elif kind == "suggest":
            for _ in range(500):
                pick = tuple(rng.choice([c for c in cat if c not in seen] or cat) for cat in CATEGORIES)
                if pick not in made:
                    break
            else:
                pick = next((s, w, r) for s in SUSPECTS for w in WEAPONS for r in ROOMS if (s, w, r) not in made)
            made.add(pick)
            say("suggest " + " ".join(pick))
        elif kind == "disprove":
            say("show " + next(c for c in words[2:5] if c in hand))
        elif kind == "suggestion":
            who, cards, shower = int(words[1]), words[2:5], words[5]
            if len(words) > 6:
                seen.add(words[6])
            if who == me and shower == "-" and not hand.intersection(cards):
                forced = cards
            say("ok")
        elif kind == "accuse":
            left = [[c for c in cat if c not in seen] for cat in CATEGORIES]
            if forced:
                say("accuse " + " ".join(forced))
            elif all(len(l) == 1 for l in left):
                say("accuse " + " ".join(l[0] for l in left))
            else:
                say("-")
        elif kind == "accusation":
            say("ok")
        elif kind == "done":
            say("dead")
            return
        else:
            sys.stderr.write("unknown message: " + line)


if __name__ == "__main__":
    main()
