// A Clue Arena bot in plain JavaScript, built as a WebAssembly component with
// componentize-js (through jco) against `clue:player@0.2.0`
// (plugin-api/wit/player.wit).
//
// It plays as plugins/python-example/bot.py does, on the typed bindings: the
// host calls the functions of the exported `player` object with the values
// jco's mapping of the WIT gives (records as objects with camelCase fields,
// variants as `{ tag, val }`, enums as kebab-case strings, `option` as the
// value or `undefined`, `u64` as a BigInt). It plays every variant legally:
// a notebook of the cards it has seen, suggestions of unseen cards, and an
// accusation once only the envelope's cards are left unseen.
//
// Build it (README, "Bots in other languages"):
//
//     scripts/setup --wasm-languages
//     plugins/js-wasm-example/build
//
// and seat it as `wasm:target/js-wasm-example/bot.wasm`.

const CATEGORIES = ["person", "weapon", "room", "item"];

// A small seeded generator (mulberry32), so that the seat's seed alone decides
// every choice: Math.random would draw on the host's random source instead.
function generator(seed) {
  let state = Number(BigInt.asUintN(32, seed ^ (seed >> 32n))) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Bot {
  constructor(setup) {
    this.setup = setup;
    this.seen = new Set(setup.hand); // cards known not to be in the envelope
    this.suggested = new Set(); // our own suggestions, as "a,b,c"
    this.random = generator(setup.seed);
  }

  choice(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  sample(list, count) {
    const pool = [...list];
    const picked = [];
    while (picked.length < count && pool.length > 0) {
      picked.push(pool.splice(Math.floor(this.random() * pool.length), 1)[0]);
    }
    return picked;
  }

  categories() {
    const present = new Set(this.setup.deck.map((c) => c.category));
    return CATEGORIES.filter((c) => present.has(c));
  }

  cardsOf(category) {
    const cards = [];
    this.setup.deck.forEach((c, i) => {
      if (c.category === category) cards.push(i);
    });
    return cards;
  }

  unseen(category) {
    return this.cardsOf(category).filter((c) => !this.seen.has(c));
  }

  solution() {
    const hidden = Array.from(this.setup.rules.hidden);
    const cards = [];
    for (const [i, category] of this.categories().entries()) {
      const left = this.unseen(category);
      if (left.length !== hidden[i]) return undefined;
      cards.push(...left);
    }
    return cards;
  }

  guess() {
    const hand = new Set(this.setup.hand);
    const hidden = Array.from(this.setup.rules.hidden);
    const cards = [];
    for (const [i, category] of this.categories().entries()) {
      let pool = this.unseen(category);
      if (pool.length === 0) pool = this.cardsOf(category).filter((c) => !hand.has(c));
      cards.push(...pool.slice(0, hidden[i]));
    }
    return cards;
  }

  accuse(request) {
    let cards = this.solution();
    if (cards === undefined && request.point === "forced") cards = this.guess();
    return cards === undefined ? undefined : { cards };
  }

  moveTo(request) {
    const targets = request.targets;
    const rooms = targets.filter((t) => t.tag === "room");
    return this.choice(rooms.length > 0 ? rooms : targets);
  }

  suggest(request) {
    const turn = request.turn;
    if (this.setup.gameVariant === "generalized") {
      const target = this.choice(Array.from(request.opponents));
      let pool = this.unseen("item");
      if (pool.length === 0) pool = this.cardsOf("item");
      return { cards: this.sample(pool, Math.min(pool.length, 3)), target };
    }
    let cards = [];
    let fresh = false;
    for (let attempt = 0; attempt < 200 && !fresh; attempt++) {
      cards = this.categories().map((category) => {
        if (category === "room" && turn.room !== undefined) return turn.room;
        const pool = this.unseen(category);
        return this.choice(pool.length > 0 ? pool : this.cardsOf(category));
      });
      fresh = !this.suggested.has(cards.join(","));
    }
    if (!fresh) {
      // Every nearby choice was made before: walk the whole space.
      const rooms = turn.room !== undefined ? [turn.room] : this.cardsOf("room");
      search: for (const p of this.cardsOf("person")) {
        for (const w of this.cardsOf("weapon")) {
          for (const r of rooms) {
            if (!this.suggested.has([p, w, r].join(","))) {
              cards = [p, w, r];
              break search;
            }
          }
        }
      }
    }
    this.suggested.add(cards.join(","));
    return { cards, target: undefined };
  }

  respond(request) {
    return request.matching.length > 0 ? request.matching[0] : undefined;
  }

  watch(event) {
    if (event.tag === "answered" && event.val.card !== undefined) {
      this.seen.add(event.val.card);
    } else if (event.tag === "hand-revealed") {
      for (const card of event.val.hand) this.seen.add(card);
    }
  }
}

// One component instance plays one game.
let bot;

export const player = {
  name() {
    return "js-wasm-example";
  },
  beginGame(setup) {
    bot = new Bot(setup);
  },
  accuse(request) {
    return bot.accuse(request);
  },
  moveTo(request) {
    return bot.moveTo(request);
  },
  suggest(request) {
    return bot.suggest(request);
  },
  respond(request) {
    return bot.respond(request);
  },
  watch(event) {
    bot.watch(event);
  },
};
