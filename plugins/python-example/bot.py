#!/usr/bin/env python3
"""A Clue Arena bot in Python, standard library only, speaking the JSON-lines
protocol of docs/protocol.md. It plays every variant legally: it keeps a
notebook of the cards it has seen, suggests cards it has not seen, and accuses
once only the envelope's cards are left unseen.

Run it as a seat:  clue play --variant speedclue --bot "jsonl:python3 plugins/python-example/bot.py"
"""

import json
import random
import sys

PROTOCOL = "1.0"


class Bot:
    def __init__(self):
        self.setup = None
        self.seen = set()        # cards known not to be in the envelope
        self.suggested = set()   # our own suggestions (no repeats under contest rules)
        self.rng = random.Random(0)

    # --- the deck -----------------------------------------------------------

    def categories(self):
        order = ["person", "weapon", "room", "item"]
        present = {c["category"] for c in self.setup["deck"]["cards"]}
        return [c for c in order if c in present]

    def cards_of(self, category):
        return [i for i, c in enumerate(self.setup["deck"]["cards"]) if c["category"] == category]

    def unseen(self, category):
        return [c for c in self.cards_of(category) if c not in self.seen]

    # --- requests -----------------------------------------------------------

    def begin_game(self, setup):
        self.setup = setup
        self.seen = set(setup["hand"])
        self.rng = random.Random(setup["seed"])

    def solution(self):
        """The accusation, if the notebook has pinned the envelope down."""
        hidden = self.setup["rules"]["hidden"]
        cards = []
        for category, count in zip(self.categories(), hidden):
            left = self.unseen(category)
            if len(left) != count:
                return None
            cards += left
        return cards

    def guess(self):
        """Our best guess: unseen cards, never one in our own hand."""
        hand = set(self.setup["hand"])
        cards = []
        for category, count in zip(self.categories(), self.setup["rules"]["hidden"]):
            pool = self.unseen(category) or [c for c in self.cards_of(category) if c not in hand]
            cards += pool[:count]
        return cards

    def accuse(self, request):
        cards = self.solution()
        if cards is None and request["point"] == "forced":
            cards = self.guess()
        return None if cards is None else {"cards": cards}

    def move(self, request):
        targets = request["targets"]
        rooms = [t for t in targets if "room" in t]
        return self.rng.choice(rooms or targets)

    def suggest(self, request):
        turn = request["turn"]
        if self.setup["variant"] == "generalized":
            target = self.rng.choice(request["opponents"])
            pool = self.unseen("item") or self.cards_of("item")
            return {"cards": self.rng.sample(pool, min(len(pool), 3)), "target": target}
        for _ in range(200):
            cards = []
            for category in self.categories():
                if category == "room" and turn.get("room") is not None:
                    cards.append(turn["room"])
                else:
                    pool = self.unseen(category) or self.cards_of(category)
                    cards.append(self.rng.choice(pool))
            if tuple(cards) not in self.suggested:
                break
        else:
            # Every nearby choice was made before: walk the whole space.
            for p in self.cards_of("person"):
                for w in self.cards_of("weapon"):
                    rooms = [turn["room"]] if turn.get("room") is not None else self.cards_of("room")
                    for r in rooms:
                        if (p, w, r) not in self.suggested:
                            cards = [p, w, r]
                            break
        self.suggested.add(tuple(cards))
        return {"cards": cards}

    def respond(self, request):
        return request["matching"][0]

    def watch(self, event):
        kind = event["event"]
        if kind == "answered" and event.get("card") is not None:
            self.seen.add(event["card"])
        elif kind == "hand-revealed":
            self.seen.update(event["hand"])

    def answer(self, request):
        kind = request["request"]
        if kind == "begin-game":
            self.begin_game(request["setup"])
            return {"reply": "ok"}
        if kind == "accuse":
            return {"reply": "accuse", "accusation": self.accuse(request)}
        if kind == "move":
            return {"reply": "move", "to": self.move(request)}
        if kind == "suggest":
            return {"reply": "suggest", "suggestion": self.suggest(request)}
        if kind == "respond":
            return {"reply": "respond", "card": self.respond(request)}
        if kind == "watch":
            self.watch(request["event"])
            return {"reply": "ok"}
        raise ValueError("unknown request " + kind)


def main():
    hello = json.loads(sys.stdin.readline())
    print(json.dumps({"hello": "clue-arena", "protocol": PROTOCOL, "name": "python-example"}), flush=True)
    if hello.get("hello") != "clue-arena" or hello.get("protocol", "").split(".")[0] != PROTOCOL.split(".")[0]:
        sys.exit("host speaks protocol %s; this bot speaks %s" % (hello.get("protocol"), PROTOCOL))
    bot = Bot()
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(bot.answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
