#!/usr/bin/env python3
"""A scripted framework bot (seeds/000) for the tests.

usage: framework_script.py MODE [LOG]

MODE:
  every-form  turn 1 `Guess`, turn 2 `Move y x p w r` (staying in room 0),
              turn 3 `Move y x` into the hallway, turn 4 back with a guess,
              turns 5 and 6 `Guess`, turn 7 `Accusation`;
              answers `Disprove` truthfully, alternating `Disprove N` and `N`
  garbage     answers `Move` with a line that is not a move
  half-move   answers `Move` with `Move y`, a move cut short
  chatty      prints `got LINE` for its first `Move`, a debugging print
  no-guess    stays in room 0 with `Move y x` and no guess
  too-far     moves to the far corner, beyond any roll
  off-board   moves to a row below the board
  liar        guesses in room 0 every turn; answers every `Disprove` with -1
LOG gets every line received (`< `) and sent (`> `).
"""
import sys

mode = sys.argv[1]
log = open(sys.argv[2], "w") if len(sys.argv) > 2 else None


def note(line):
    if log:
        log.write(line + "\n")
        log.flush()


def say(line):
    note("> " + line)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


board = []
hand = set()
turn = 0
answers = 0
y = x = 0
start = (0, 0)


def read():
    line = sys.stdin.readline()
    if line:
        note("< " + line.rstrip("\n"))
    return line


def hallway_next_to(cy, cx):
    for dy, dx in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        ny, nx = cy + dy, cx + dx
        if 0 <= ny < len(board) and 0 <= nx < len(board) and board[ny][nx] == 0:
            return ny, nx
    return cy, cx


def move(roll):
    global y, x
    if mode == "garbage":
        return "Hello there"
    if mode == "half-move":
        return f"Move {y}"
    if mode == "no-guess":
        return f"Move {y} {x}"
    if mode == "too-far":
        far = len(board) - 1
        return f"Move {far} {far}"
    if mode == "off-board":
        return f"Move {len(board)} 0"
    if mode == "liar":
        return "Guess 0 0 0"
    if turn == 1:
        return "Guess 0 0 0"
    if turn == 2:
        return f"Move {y} {x} 1 1 0"
    if turn == 3:
        y, x = hallway_next_to(y, x)
        return f"Move {y} {x}"
    if turn == 4:
        y, x = start
        return f"Move {y} {x} 2 2 0"
    if turn < 7:
        return f"Guess {turn - 2} {turn - 2} 0"
    return "Accusation 0 0 0"


while True:
    line = read()
    if not line:
        break
    words = line.split()
    if not words:
        continue
    kind = words[0]
    if kind == "Board":
        for _ in range(int(words[1])):
            board.append([int(v) for v in read().split()])
        start = next((r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == 1)
        y, x = start
    elif kind == "Name":
        say("Script " + mode)
    elif kind == "Card" and words[1] != "From":
        hand.add((int(words[1]), int(words[2])))
    elif kind == "Move":
        turn += 1
        if mode == "chatty" and turn == 1:
            say("got " + line.rstrip("\n"))
        say(move(int(words[2])))
    elif kind == "Disprove":
        ids = [int(v) for v in words[2:5]]
        held = [t for t in range(3) if (t, ids[t]) in hand]
        if mode == "liar":
            say("-1")
        else:
            answers += 1
            n = held[0] if held else -1
            say(f"Disprove {n}" if answers % 2 else f"  {n} ")
