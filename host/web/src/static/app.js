// Clue Arena in the browser: plain JavaScript, no framework, no network but
// this server. Draws the board as SVG and talks to the JSON API of web/mod.rs.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const SEAT_COLOURS = ['#d62828', '#f4c430', '#2a9d8f', '#e9e9e9', '#3a6ea5', '#8e44ad',
  '#f77f00', '#6a994e', '#ff70a6', '#8d99ae', '#bc6c25', '#00b4d8'];

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch (_) { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function toast(message) {
  const t = $('toast');
  t.textContent = message;
  t.classList.remove('hidden');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.add('hidden'), 5000);
}

function samePos(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
function roomColour(i) { return `hsl(${(i * 47) % 360} 42% 72%)`; }

// ---------------------------------------------------------------- the board

// Draws any board into `host`. `positions[seat]` are the tokens; `targets`
// are clickable (each calls onPick with its position).
function drawBoard(host, game, positions, targets, onPick) {
  host.replaceChildren();
  const board = game.board;
  const names = game.names;
  if (!board) { host.append(drawTable(game, positions)); return; }
  if (board.rooms) host.append(drawRooms(board.rooms, game, positions, targets, onPick));
  else if (board.grid) host.append(drawGrid(board.grid, game, positions, targets, onPick));
  else if (board.ring) host.append(drawRing(board.ring, game, positions, targets, onPick));
  const legend = el('div', { class: 'legend' });
  names.forEach((n, s) => legend.append(el('span', { class: 'legend-item' + (s === game.seat ? ' me' : '') +
    (s === game.turn ? ' turn' : ''), title: s === game.turn ? 'their turn' : null },
    el('i', { style: `background:${SEAT_COLOURS[s % SEAT_COLOURS.length]}` }), n)));
  host.append(legend);
}

// A seat's token at (x, y); the seat whose turn it is gets a ring.
function token(g, x, y, r, seat, game) {
  const name = game.names[seat] || `seat ${seat}`;
  if (seat === game.turn) {
    const ring = svg('circle', { cx: x, cy: y, r: r * 1.45, class: 'turn-ring', 'data-turn': seat });
    ring.append(svg('title', {}, `${name}: their turn`));
    g.append(ring);
  }
  const c = svg('circle', { cx: x, cy: y, r, fill: SEAT_COLOURS[seat % SEAT_COLOURS.length],
    class: 'token' + (seat === game.seat ? ' me' : ''), 'data-seat': seat });
  c.append(svg('title', {}, name));
  g.append(c);
  const label = initials(name);
  g.append(svg('text', { x, y: y + r * 0.36, class: 'token-label', 'font-size': r * (label.length > 1 ? 0.9 : 1.1) }, label));
}

// What a token shows: the seat's number ("seat 3 (...)"), else the
// initials of its person ("Miss Scarlet (...)": MS), so no two look alike.
function initials(name) {
  const seat = /^seat (\d+)/.exec(name);
  if (seat) return seat[1];
  const words = name.split(' (')[0].split(/\s+/).filter((w) => /^[A-Za-z]/.test(w));
  return words.slice(0, 2).map((w) => w[0].toUpperCase()).join('') || '?';
}

// The last move: a dashed arrow in the mover's colour from where the token
// stood (a faint ring there) to where it went. `at(position)` is the centre
// of a position in the drawing's coordinates.
function lastMove(s, game, at, r) {
  const m = game.last_move;
  if (!m) return;
  const to = at(m.to);
  if (!to) return;
  const colour = SEAT_COLOURS[m.seat % SEAT_COLOURS.length];
  const g = svg('g', { class: 'last-move', 'data-seat': m.seat });
  g.append(svg('title', {}, `last move: ${game.names[m.seat] || `seat ${m.seat}`}`));
  const from = m.from ? at(m.from) : null;
  if (from && (from[0] !== to[0] || from[1] !== to[1])) {
    g.append(svg('circle', { cx: from[0], cy: from[1], r, class: 'last-from', stroke: colour }));
    const dx = to[0] - from[0], dy = to[1] - from[1], len = Math.hypot(dx, dy);
    const ex = to[0] - (dx / len) * r * 1.3, ey = to[1] - (dy / len) * r * 1.3;
    g.append(svg('line', { x1: from[0], y1: from[1], x2: ex, y2: ey, class: 'last-path', stroke: colour }));
    // The arrowhead, drawn by hand so each seat's is in its own colour.
    const ax = -dx / len, ay = -dy / len, w = r * 0.7;
    g.append(svg('polygon', { class: 'last-head', fill: colour, points:
      `${ex},${ey} ${ex + ax * w * 1.6 - ay * w},${ey + ay * w * 1.6 + ax * w} ${ex + ax * w * 1.6 + ay * w},${ey + ay * w * 1.6 - ax * w}` }));
  }
  g.append(svg('circle', { cx: to[0], cy: to[1], r: r * 1.9, class: 'last-to', stroke: colour }));
  s.append(g);
}

function drawRooms(b, game, positions, targets, onPick) {
  const S = 26, rows = b.rows, cols = b.cols;
  const s = svg('svg', { viewBox: `0 0 ${cols * S} ${rows * S}`, class: 'board rooms' });
  const roomOf = (r, c) => (r < 0 || c < 0 || r >= rows || c >= cols) ? undefined : b.cells[r * cols + c].room;
  const centre = {};
  const rooms = {};
  b.cells.forEach((cell, i) => {
    const r = Math.floor(i / cols), c = i % cols;
    let cls = 'cell wall', fill = null;
    if (cell.room !== null && cell.room !== undefined) {
      if (!(cell.room in rooms)) rooms[cell.room] = Object.keys(rooms).length;
      cls = 'cell room'; fill = roomColour(rooms[cell.room]);
      if (cell.centre) centre[cell.room] = [r, c];
    } else if (cell.walkway) cls = 'cell walk';
    const rect = svg('rect', { x: c * S, y: r * S, width: S, height: S, class: cls, 'data-row': r, 'data-col': c });
    if (fill) rect.setAttribute('fill', fill);
    s.append(rect);
  });
  // Walls between a room and anything else; doors on top.
  const walls = svg('g', { class: 'walls' });
  b.cells.forEach((cell, i) => {
    if (cell.room === null || cell.room === undefined) return;
    const r = Math.floor(i / cols), c = i % cols;
    const x = c * S, y = r * S;
    if (roomOf(r - 1, c) !== cell.room) walls.append(svg('line', { x1: x, y1: y, x2: x + S, y2: y }));
    if (roomOf(r + 1, c) !== cell.room) walls.append(svg('line', { x1: x, y1: y + S, x2: x + S, y2: y + S }));
    if (roomOf(r, c - 1) !== cell.room) walls.append(svg('line', { x1: x, y1: y, x2: x, y2: y + S }));
    if (roomOf(r, c + 1) !== cell.room) walls.append(svg('line', { x1: x + S, y1: y, x2: x + S, y2: y + S }));
  });
  s.append(walls);
  const doors = svg('g', { class: 'doors' });
  b.cells.forEach((cell, i) => {
    if (!cell.door) return;
    const r = Math.floor(i / cols), c = i % cols, x = c * S, y = r * S, t = 5;
    const d = { up: [x + 3, y - t / 2, S - 6, t], down: [x + 3, y + S - t / 2, S - 6, t],
      left: [x - t / 2, y + 3, t, S - 6], right: [x + S - t / 2, y + 3, t, S - 6] }[cell.door];
    if (d) doors.append(svg('rect', { x: d[0], y: d[1], width: d[2], height: d[3], class: 'door', rx: 2 }));
  });
  s.append(doors);
  b.cells.forEach((cell, i) => {
    const r = Math.floor(i / cols), c = i % cols;
    if (cell.passage !== null && cell.passage !== undefined) {
      const p = svg('g', { class: 'passage' });
      p.append(svg('rect', { x: c * S + 3, y: r * S + 3, width: S - 6, height: S - 6, rx: 4 }));
      p.append(svg('text', { x: c * S + S / 2, y: r * S + S / 2 + 4 }, '⇄'));
      p.append(svg('title', {}, `secret passage to the ${cardName(game, cell.passage)}`));
      s.append(p);
    }
  });
  b.cells.forEach((cell, i) => {
    if (!cell.label) return;
    const r = Math.floor(i / cols), c = i % cols;
    s.append(svg('text', { x: c * S + 2, y: r * S + S * 0.7, class: 'room-label' }, cardName(game, cell.room)));
  });
  // Targets: walkway cells, and whole rooms.
  const tg = svg('g', { class: 'targets' });
  for (const t of targets || []) {
    if (t.cell) {
      const rect = svg('rect', { x: t.cell.col * S + 1, y: t.cell.row * S + 1, width: S - 2, height: S - 2, rx: 4,
        class: 'target', 'data-target': JSON.stringify(t) });
      rect.addEventListener('click', () => onPick(t));
      tg.append(rect);
    } else if (t.room !== undefined) {
      b.cells.forEach((cell, i) => {
        if (cell.room !== t.room) return;
        const r = Math.floor(i / cols), c = i % cols;
        const rect = svg('rect', { x: c * S, y: r * S, width: S, height: S, class: 'target-room' });
        rect.addEventListener('click', () => onPick(t));
        tg.append(rect);
      });
      const at = centre[t.room];
      if (at) {
        const m = svg('circle', { cx: at[1] * S + S / 2, cy: at[0] * S + S / 2, r: S * 0.45, class: 'target',
          'data-target': JSON.stringify(t) });
        m.append(svg('title', {}, `enter the ${cardName(game, t.room)}`));
        m.addEventListener('click', () => onPick(t));
        tg.append(m);
      }
    }
  }
  s.append(tg);
  lastMove(s, game, (p) => p.cell ? [p.cell.col * S + S / 2, p.cell.row * S + S / 2]
    : centre[p.room] ? [centre[p.room][1] * S + S / 2, centre[p.room][0] * S + S / 2] : null, S * 0.36);
  // Tokens: on cells, or around a room's centre.
  const tokens = svg('g', { class: 'tokens' });
  const inRoom = {};
  positions.forEach((p, seat) => {
    if (!p) return;
    if (p.cell) token(tokens, p.cell.col * S + S / 2, p.cell.row * S + S / 2, S * 0.36, seat, game);
    else if (p.room !== undefined) (inRoom[p.room] = inRoom[p.room] || []).push(seat);
  });
  for (const [room, seats] of Object.entries(inRoom)) {
    const at = centre[room];
    if (!at) continue;
    seats.forEach((seat, k) => {
      const dx = ((k % 3) - 1) * S * 0.8, dy = (Math.floor(k / 3) - 0.5 * (seats.length > 3)) * S * 0.8;
      token(tokens, at[1] * S + S / 2 + dx, at[0] * S + S / 2 + dy, S * 0.36, seat, game);
    });
  }
  s.append(tokens);
  return s;
}

// The framework grid: rooms outlined, each named once on top of its cells,
// tokens large enough to tell apart (side by side when they share a cell).
function drawGrid(g, game, positions, targets, onPick) {
  const S = 40, w = g.width;
  const s = svg('svg', { viewBox: `0 0 ${w * S} ${w * S}`, class: 'board grid' });
  const roomAt = (r, c) => (r < 0 || c < 0 || r >= w || c >= w) ? -1 : g.cells[r * w + c];
  const cellsOf = {};
  g.cells.forEach((v, i) => {
    const r = Math.floor(i / w), c = i % w;
    const rect = svg('rect', { x: c * S, y: r * S, width: S, height: S, class: v ? 'cell room' : 'cell walk' });
    if (v) {
      rect.setAttribute('fill', roomColour(v - 1));
      (cellsOf[v] = cellsOf[v] || []).push([r, c]);
    }
    s.append(rect);
  });
  const walls = svg('g', { class: 'walls' });
  g.cells.forEach((v, i) => {
    if (!v) return;
    const r = Math.floor(i / w), c = i % w, x = c * S, y = r * S;
    if (roomAt(r - 1, c) !== v) walls.append(svg('line', { x1: x, y1: y, x2: x + S, y2: y }));
    if (roomAt(r + 1, c) !== v) walls.append(svg('line', { x1: x, y1: y + S, x2: x + S, y2: y + S }));
    if (roomAt(r, c - 1) !== v) walls.append(svg('line', { x1: x, y1: y, x2: x, y2: y + S }));
    if (roomAt(r, c + 1) !== v) walls.append(svg('line', { x1: x + S, y1: y, x2: x + S, y2: y + S }));
  });
  s.append(walls);
  for (const t of targets || []) {
    if (!t.cell) continue;
    const rect = svg('rect', { x: t.cell.col * S + 2, y: t.cell.row * S + 2, width: S - 4, height: S - 4, rx: 5,
      class: 'target', 'data-target': JSON.stringify(t) });
    rect.addEventListener('click', () => onPick(t));
    s.append(rect);
  }
  // Each room's name on the cell of the room nearest its middle.
  const labels = svg('g', { class: 'grid-labels' });
  for (const [v, cells] of Object.entries(cellsOf)) {
    const mr = cells.reduce((a, p) => a + p[0], 0) / cells.length;
    const mc = cells.reduce((a, p) => a + p[1], 0) / cells.length;
    const [r, c] = cells.reduce((best, p) =>
      Math.hypot(p[0] - mr, p[1] - mc) < Math.hypot(best[0] - mr, best[1] - mc) ? p : best);
    labels.append(svg('text', { x: c * S + S / 2, y: r * S + S / 2 + 5, class: 'grid-label', 'data-room': v - 1 },
      cardName(game, g.rooms[v - 1])));
  }
  s.append(labels);
  const centre = (p) => p.cell ? [p.cell.col * S + S / 2, p.cell.row * S + S / 2] : null;
  lastMove(s, game, centre, S * 0.3);
  const bySquare = {};
  positions.forEach((p, seat) => {
    if (p && p.cell) (bySquare[`${p.cell.row},${p.cell.col}`] = bySquare[`${p.cell.row},${p.cell.col}`] || []).push(seat);
  });
  const tokens = svg('g', { class: 'tokens' });
  for (const seats of Object.values(bySquare)) {
    const first = positions[seats[0]].cell, x0 = first.col * S, y0 = first.row * S;
    const per = Math.ceil(Math.sqrt(seats.length)), step = S / per;
    seats.forEach((seat, k) => {
      const x = x0 + step * (k % per) + step / 2, y = y0 + step * Math.floor(k / per) + step / 2;
      token(tokens, x, y, per === 1 ? S * 0.3 : step * 0.42, seat, game);
    });
  }
  s.append(tokens);
  return s;
}

function drawRing(ring, game, positions, targets, onPick) {
  const n = ring.computers.length, R = 200, C = 260;
  const s = svg('svg', { viewBox: `0 0 ${2 * C} ${2 * C}`, class: 'board ring' });
  s.append(svg('circle', { cx: C, cy: C, r: R, class: 'ring-line' }));
  const place = (card) => {
    const i = ring.computers.indexOf(card);
    if (i < 0) return null;
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return [C + R * Math.cos(a), C + R * Math.sin(a)];
  };
  const moves = svg('g', {});
  s.append(moves);
  lastMove(moves, game, (p) => p.room !== undefined ? place(p.room) : null, 20);
  ring.computers.forEach((card, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    const x = C + R * Math.cos(a), y = C + R * Math.sin(a);
    const pos = { room: card };
    const isTarget = (targets || []).some((t) => samePos(t, pos));
    const node = svg('rect', { x: x - 48, y: y - 18, width: 96, height: 36, rx: 8,
      class: 'computer' + (isTarget ? ' target' : ''), fill: roomColour(i) });
    if (isTarget) {
      node.setAttribute('data-target', JSON.stringify(pos));
      node.addEventListener('click', () => onPick(pos));
    }
    s.append(node);
    s.append(svg('text', { x, y: y + 4, class: 'computer-label' }, cardName(game, card)));
    positions.forEach((p, seat) => {
      if (p && p.room === card) {
        const k = positions.slice(0, seat).filter((q) => q && q.room === card).length;
        token(s, x - 30 + k * 15, y + 30, 7, seat, game);
      }
    });
  });
  return s;
}

// Variants without a board: the seats round a table.
function drawTable(game) {
  const t = el('table', { class: 'list seats' },
    el('thead', {}, el('tr', {}, el('th', {}, 'seat'), el('th', {}, 'player'), el('th', {}, 'cards'))));
  const body = el('tbody');
  game.names.forEach((n, s) => body.append(el('tr', { class: s === game.seat ? 'me' : '' },
    el('td', {}, el('i', { class: 'dot', style: `background:${SEAT_COLOURS[s % SEAT_COLOURS.length]}` }), ` ${s}`),
    el('td', {}, n), el('td', {}, game.hand_sizes ? game.hand_sizes[s] : (game.hands ? game.hands[s].length : '')))));
  t.append(body);
  return el('div', { class: 'table-view' }, el('p', { class: 'hint' }, `${game.variant} is played without a board.`), t);
}

function cardName(game, id) {
  const c = game.deck[id];
  return c ? c.name : `#${id}`;
}

// ---------------------------------------------------------------- playing

const play = { id: null, state: null, version: 0, polling: false, shownPending: null };

async function startGame(ev) {
  ev.preventDefault();
  $('start-error').textContent = '';
  const body = {
    variant: $('variant').value,
    players: Number($('players').value),
    seat: Number($('seat').value),
    delay_ms: Number($('delay').value || 0),
    bots: $('bots').value.split('\n').map((l) => l.trim()).filter((l) => l),
  };
  // As a string: a JavaScript number keeps 53 bits, and seeds have 64.
  if ($('seed').value.trim() !== '') body.seed = $('seed').value.trim();
  // Only the board variants take a board (the server refuses one for the others).
  const boards = body.variant === 'csci306' || body.variant === 'classic';
  const lf = $('layout-file').files[0], sf = $('setup-file').files[0];
  if (!boards) {
    // The board row is greyed out: nothing of it is sent.
  } else if (lf || sf) {
    if (!lf || !sf) { $('start-error').textContent = 'upload both the layout and the setup file'; return; }
    body.layout = { name: lf.name, text: await lf.text() };
    body.setup = { name: sf.name, text: await sf.text() };
  } else if ($('board').value) body.board = $('board').value;
  try {
    const started = await api('POST', '/api/games', body);
    joinGame(started.id);
  } catch (e) {
    $('start-error').textContent = e.message;
  }
}

// Shows game `id` and follows it; its URL (#game/ID) rejoins it after a reload.
function joinGame(id) {
  play.id = id;
  play.state = null;
  play.version = 0;
  play.shownPending = null;
  if (location.hash !== `#game/${id}`) history.replaceState(null, '', `#game/${id}`);
  $('new-game').classList.add('collapsed');
  $('game').classList.remove('hidden');
  poll();
}

async function poll() {
  const id = play.id;
  if (play.polling) return;
  play.polling = true;
  try {
    while (play.id === id) {
      let state;
      try {
        state = await api('GET', `/api/games/${id}?since=${play.version}`);
      } catch (e) {
        toast(e.message);
        if (e.status === 404) { leaveGameView(); break; }
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (play.id !== id) break;
      if (state.version !== play.version || !play.state) {
        play.version = state.version;
        play.state = state;
        renderGame(state);
      }
      if (state.finished || state.error) break;
    }
  } finally {
    play.polling = false;
  }
}

function renderGame(g) {
  if (!g.deck) {
    $('prompt-text').textContent = g.error ? `the game stopped: ${g.error}` : 'Starting…';
    return;
  }
  const pending = g.pending ? g.pending.request : null;
  const targets = pending && pending.request === 'move' ? pending.targets : [];
  drawBoard($('board-view'), g, g.positions, targets, (to) => answer('move', { to }));
  // Hand.
  $('hand').replaceChildren(...g.hand.map((c) => cardChip(g, c)));
  renderNotebook(g);
  // Events, newest last.
  const list = $('events');
  list.replaceChildren(...g.events.map((t) => el('li', {}, t)));
  list.scrollTop = list.scrollHeight;
  // Status line.
  const last = [...g.events].reverse().find((t) => t.startsWith('round '));
  $('game-seed').textContent = `game ${play.id}, seed ${g.seed}`;
  $('turn-info').textContent = g.finished
    ? (g.finished.winner === null ? 'Game over: no winner' : `Game over: ${g.names[g.finished.winner]} wins`)
    : (last || 'The game begins');
  renderPrompt(g);
}

function cardChip(g, c) {
  const card = g.deck[c];
  return el('span', { class: `chip ${card.category}`, 'data-card': c }, card.name);
}

function renderNotebook(g) {
  const cats = [...new Set(g.deck.map((c) => c.category))];
  const table = el('table', { class: 'notebook' });
  const head = el('tr', {}, el('th', {}, ''));
  g.names.forEach((n, s) => head.append(el('th', { title: n, class: s === g.seat ? 'me' : '' },
    el('i', { class: 'dot', style: `background:${SEAT_COLOURS[s % SEAT_COLOURS.length]}` }))));
  table.append(el('thead', {}, head));
  const body = el('tbody');
  let solvedCats = 0;
  for (const cat of cats) {
    const rows = g.notebook.filter((r) => r.category === cat);
    if (rows.filter((r) => r.envelope).length >= 1 && cat !== 'item') solvedCats++;
    body.append(el('tr', { class: 'cat' }, el('th', { colspan: g.players + 1 }, cat)));
    for (const r of rows) {
      const tr = el('tr', { class: r.envelope ? 'envelope' : (r.marks.includes('holds') ? 'held' : '') },
        el('td', { class: 'name' }, r.name));
      r.marks.forEach((m) => tr.append(el('td', { class: `mark ${m}` }, m === 'holds' ? '✔' : m === 'lacks' ? '·' : '')));
      body.append(tr);
    }
  }
  table.append(body);
  $('notebook').replaceChildren(table);
  const solved = solvedCats === cats.length && !cats.includes('item');
  $('solved').classList.toggle('hidden', !solved);
  $('prompt').dataset.solved = solved ? 'true' : 'false';
}

// The cards the notebook says are in the envelope, one per category.
function envelopeGuess(g) {
  const guess = {};
  for (const r of g.notebook) if (r.envelope && !(r.category in guess)) guess[r.category] = r.card;
  return guess;
}

function leaveGameView() {
  play.id = null;
  if (location.hash.startsWith('#game/')) history.replaceState(null, '', location.pathname);
  $('new-game').classList.remove('collapsed');
  $('game').classList.add('hidden');
}

function renderPrompt(g) {
  const p = $('prompt');
  const text = $('prompt-text');
  const actions = $('prompt-actions');
  actions.replaceChildren();
  $('final-hands').replaceChildren();
  const pending = g.pending;
  if (g.finished) {
    p.dataset.kind = 'over';
    const env = g.finished.envelope.map((c) => cardName(g, c)).join(', ');
    $('final-hands').replaceChildren(...(g.finished.hands || []).map((h, s) => el('div', { class: 'hand-row' },
      el('b', {}, `${g.names[s]}: `), ...h.map((c) => cardChip(g, c)))));
    text.textContent = (g.finished.winner === g.seat ? 'You win! ' : g.finished.winner === null ? 'No winner. ' :
      `${g.names[g.finished.winner]} wins. `) + `The envelope held ${env}.`;
    actions.append(el('button', { class: 'primary', id: 'new-game-again', onclick: leaveGameView }, 'New game'));
    closeModal();
    return;
  }
  if (g.error) { p.dataset.kind = 'error'; text.textContent = `the game stopped: ${g.error}`; return; }
  if (!pending) {
    p.dataset.kind = 'wait';
    text.textContent = 'The others are playing…';
    closeModal();
    return;
  }
  const r = pending.request;
  p.dataset.kind = r.request;
  p.dataset.request = pending.id;
  const fresh = play.shownPending !== pending.id;
  play.shownPending = pending.id;
  // A dialog left open for an earlier request is out of date.
  if (fresh) closeModal();
  if (r.request === 'move') {
    text.textContent = `You rolled ${r.turn.roll}. Click a highlighted square or room to move there.`;
  } else if (r.request === 'accuse') {
    const forced = r.point === 'forced';
    text.textContent = forced ? 'You must accuse now.' :
      r.point === 'start-of-turn' ? 'Your turn. Accuse now, or play on?' : 'Accuse now, or end your turn?';
    actions.append(el('button', { id: 'accuse-yes', class: forced ? 'primary' : '', onclick: () => accuseDialog(g, pending) }, 'Accuse…'));
    if (!forced) actions.append(el('button', { id: 'accuse-no', class: 'primary', onclick: () => answer('accuse', { accusation: null }) },
      r.point === 'start-of-turn' ? 'Play on' : 'End turn'));
    if (fresh && forced) accuseDialog(g, pending);
  } else if (r.request === 'suggest') {
    text.textContent = r.turn.room !== null && r.turn.room !== undefined
      ? `You are in the ${cardName(g, r.turn.room)}. Make a suggestion.` : 'Make a suggestion.';
    actions.append(el('button', { id: 'suggest-open', class: 'primary', onclick: () => suggestDialog(g, pending) }, 'Suggest…'));
    if (fresh) suggestDialog(g, pending);
  } else if (r.request === 'respond') {
    text.textContent = `${g.names[r.suggester.valueOf()]} suggests ${r.suggestion.cards.map((c) => cardName(g, c)).join(', ')}. Show a card.`;
    actions.append(el('button', { id: 'respond-open', class: 'primary', onclick: () => respondDialog(g, pending) }, 'Show a card…'));
    if (fresh) respondDialog(g, pending);
  }
}

// Answers request `id` (by default the one pending now): a dialog answers
// the request it was opened for, so a late click is refused as stale.
async function answer(action, body, id) {
  const pending = play.state && play.state.pending;
  const request = id !== undefined ? id : pending && pending.id;
  if (request === undefined || request === null) return false;
  try {
    await api('POST', `/api/games/${play.id}/${action}`, { request, ...body });
    closeModalFor(request);
    return true;
  } catch (e) {
    if ($('modal').classList.contains('hidden')) toast(e.message);
    else $('modal-error').textContent = e.message;
    return false;
  }
}

// ---------------------------------------------------------------- dialogs

function openModal(title, body, onOk, onSkip, okText, request) {
  $('modal').dataset.request = request === undefined ? '' : String(request);
  $('modal-title').textContent = title;
  $('modal-body').replaceChildren(body);
  $('modal-error').textContent = '';
  $('modal-ok').textContent = okText || 'OK';
  $('modal-ok').onclick = onOk;
  $('modal-skip').classList.toggle('hidden', !onSkip);
  $('modal-skip').onclick = onSkip || null;
  $('modal').classList.remove('hidden');
}

function closeModal() { $('modal').classList.add('hidden'); }

// Closes the dialog only if it is still the one opened for `request`: a late
// reply must not close the dialog of the request that came after it.
function closeModalFor(request) {
  if ($('modal').dataset.request === String(request)) closeModal();
}

function categorySelect(g, cat, fixed, preferred) {
  const sel = el('select', { id: `pick-${cat}`, 'data-category': cat });
  g.deck.forEach((c, i) => {
    if (c.category !== cat) return;
    if (fixed !== null && fixed !== undefined && i !== fixed) return;
    sel.append(el('option', { value: i, selected: i === preferred ? 'selected' : null }, c.name));
  });
  if (fixed !== null && fixed !== undefined) sel.disabled = true;
  return el('label', { class: 'pick' }, cat, sel);
}

// Suggestion: one card per category (the room fixed where the turn names
// one); in generalized, an opponent and a list of items.
function suggestDialog(g, pending) {
  const r = pending.request;
  const cats = [...new Set(g.deck.map((c) => c.category))];
  const box = el('div', { class: 'picks' });
  // Prefer a card nobody is known to hold, not one of ours.
  const unknown = (cat) => {
    const row = g.notebook.find((n) => n.category === cat && !n.marks.includes('holds'));
    return row ? row.card : undefined;
  };
  if (cats.includes('item')) {
    const opp = el('select', { id: 'pick-opponent' }, ...r.opponents.map((s) => el('option', { value: s }, g.names[s])));
    box.append(el('label', { class: 'pick' }, 'ask', opp));
    const items = el('div', { class: 'items' });
    g.deck.forEach((c, i) => items.append(el('label', { class: 'item' },
      el('input', { type: 'checkbox', value: i, checked: i === unknown('item') ? 'checked' : null }), c.name)));
    box.append(items);
    openModal('Interrogate', box, () => {
      const cards = [...items.querySelectorAll('input:checked')].map((x) => Number(x.value));
      answer('suggest', { suggestion: { cards, target: Number(opp.value) } }, pending.id);
    }, r.optional ? () => answer('suggest', { suggestion: null }, pending.id) : null, 'Ask', pending.id);
    return;
  }
  for (const cat of cats) box.append(categorySelect(g, cat, cat === 'room' ? r.turn.room : null, unknown(cat)));
  openModal('Suggest', box, () => {
    const cards = cats.map((cat) => Number($(`pick-${cat}`).value));
    answer('suggest', { suggestion: { cards } }, pending.id);
  }, r.optional ? () => answer('suggest', { suggestion: null }, pending.id) : null, 'Suggest', pending.id);
}

function accuseDialog(g, pending) {
  const cats = [...new Set(g.deck.map((c) => c.category))];
  const guess = envelopeGuess(g);
  const box = el('div', { class: 'picks' });
  if (cats.includes('item')) {
    const hidden = g.rules.hidden[0];
    const items = el('div', { class: 'items' });
    const known = g.notebook.filter((n) => n.envelope).map((n) => n.card);
    g.deck.forEach((c, i) => items.append(el('label', { class: 'item' },
      el('input', { type: 'checkbox', value: i, checked: known.includes(i) ? 'checked' : null }), c.name)));
    box.append(el('p', {}, `Name the ${hidden} hidden items.`), items);
    openModal('Accuse', box, () => {
      const cards = [...items.querySelectorAll('input:checked')].map((x) => Number(x.value));
      answer('accuse', { accusation: { cards } }, pending.id);
    }, pending.request.point === 'forced' ? null : closeModal, 'Accuse', pending.id);
    return;
  }
  // Preset to the notebook's answer, else to a card you do not hold.
  const notHeld = (cat) => g.deck.findIndex((c, i) => c.category === cat && !g.hand.includes(i));
  for (const cat of cats) box.append(categorySelect(g, cat, null, guess[cat] !== undefined ? guess[cat] : notHeld(cat)));
  box.append(el('p', { class: 'hint' }, 'A wrong accusation can cost you the game.'));
  openModal('Accuse', box, () => {
    const cards = cats.map((cat) => Number($(`pick-${cat}`).value));
    answer('accuse', { accusation: { cards } }, pending.id);
  }, pending.request.point === 'forced' ? null : closeModal, 'Accuse', pending.id);
}

function respondDialog(g, pending) {
  const r = pending.request;
  const box = el('div', { class: 'picks' });
  box.append(el('p', {}, `${g.names[r.suggester]} suggests ${r.suggestion.cards.map((c) => cardName(g, c)).join(', ')}.`));
  r.matching.forEach((c, k) => box.append(el('label', { class: 'item' },
    el('input', { type: 'radio', name: 'show', value: c, checked: k === 0 ? 'checked' : null }), cardName(g, c))));
  openModal('Show a card', box, () => {
    const picked = box.querySelector('input[name=show]:checked');
    answer('respond', { card: Number(picked ? picked.value : r.matching[0]) }, pending.id);
  }, null, 'Show', pending.id);
}

// ---------------------------------------------------------------- replays

const replay = { data: null, step: 0, timer: null, listTimer: null, liveTimer: null, page: 0, etag: null };

// The list of stored games, one page at a time. The page asks every few
// seconds with the ETag of what it shows: an unchanged list is answered
// 304 with no body, and nothing is drawn again.
async function loadReplays() {
  let list;
  try {
    const res = await fetch(`/api/replays?page=${replay.page}`,
      { headers: replay.etag ? { 'if-none-match': replay.etag } : {} });
    if (res.status === 304) return;
    list = await res.json().catch(() => null);
    if (!res.ok) throw new Error((list && list.error) || `${res.status} ${res.statusText}`);
    replay.etag = res.headers.get('etag');
  } catch (e) {
    toast(e.message);
    return;
  }
  replay.page = list.page;
  $('db-name').textContent = list.db ? `(${list.db})` : '(no store: start clue serve with --db results.sqlite)';
  const live = list.live || [];
  $('live-list').classList.toggle('hidden', live.length === 0);
  $('live-list').querySelector('tbody').replaceChildren(...live.map((g) => el('tr', { 'data-index': g.index },
    el('td', {}, g.index), el('td', {}, g.variant), el('td', {}, g.seed), el('td', {}, g.bots.join(', ')),
    el('td', {}, g.events),
    el('td', {}, el('button', { class: 'watch-live', onclick: () => openReplay(g.index, 'follow') }, 'watch live')))));
  $('replay-list').querySelector('tbody').replaceChildren(...list.games.map((g) => el('tr', { 'data-index': g.index },
    el('td', {}, g.index), el('td', {}, g.seed), el('td', {}, g.rounds),
    el('td', {}, g.seats.map((s) => s.bot || 'server').join(', ')),
    el('td', { class: 'winner' }, winnerOf(g)),
    el('td', {}, el('button', { class: 'watch', onclick: () => openReplay(g.index) }, 'watch')))));
  $('pager').classList.toggle('hidden', list.pages <= 1);
  $('page-info').textContent = list.total === 0 ? '' :
    `games ${list.page * list.per_page + 1}–${list.page * list.per_page + list.games.length} of ${list.total}, page ${list.page + 1} of ${list.pages}`;
  $('page-prev').disabled = list.page === 0;
  $('page-next').disabled = list.page + 1 >= list.pages;
}

// A stored game's winner in the list: the bot by its name in the
// tournament, and its seat (a bot may sit twice under two names, never one
// name twice).
function winnerOf(g) {
  if (g.winner === null || g.winner === undefined) return 'draw';
  const seat = g.seats[g.winner];
  return `${(seat && seat.bot) || 'server'} (seat ${g.winner})`;
}

function turnPage(by) {
  replay.page = Math.max(0, replay.page + by);
  replay.etag = null;
  loadReplays();
}

// Opens a stored game, or one in play: that one is fetched again every
// second, following its newest event while the viewer is at the end, until
// it is stored whole.
async function openReplay(index, keepStep) {
  let data;
  try {
    data = await api('GET', `/api/replays/${index}`);
  } catch (e) { toast(e.message); return; }
  const following = replay.data && replay.data.index === index && replay.step >= replay.data.frames.length;
  replay.data = data;
  const d = replay.data;
  clearTimeout(replay.liveTimer);
  if (d.live) replay.liveTimer = setTimeout(() => {
    if (replay.data && replay.data.index === index) openReplay(index, true);
  }, 1000);
  $('viewer').classList.remove('hidden');
  $('rw-slider').max = d.frames.length;
  $('rw-title').textContent = `Game ${d.index}: ${d.variant}, seed ${d.seed}` + (d.live ? ' (in play)' : '');
  $('rw-live').classList.toggle('hidden', !d.live);
  const hands = el('div', {});
  (d.hands || []).forEach((h, s) => hands.append(el('div', { class: 'hand-row' },
    el('b', {}, d.names[s] + ': '), ...h.map((c) => cardChip(d, c)))));
  if (d.envelope) hands.append(el('div', { class: 'hand-row envelope' }, el('b', {}, 'envelope: '), ...d.envelope.map((c) => cardChip(d, c))));
  $('rw-hands').replaceChildren(hands);
  $('rw-events').replaceChildren(...d.frames.map((f, i) => el('li', { 'data-step': i + 1, onclick: () => showStep(i + 1) }, f.text)));
  if (keepStep === true) showStep(following ? d.frames.length : replay.step);
  else {
    // Opened from the list: a live game from its newest event, a stored one
    // from the start; the viewer comes into sight either way.
    showStep(keepStep === 'follow' && d.live ? d.frames.length : 0);
    $('viewer').scrollIntoView({ block: 'start' });
  }
}

function showStep(step) {
  const d = replay.data;
  if (!d) return;
  replay.step = Math.max(0, Math.min(step, d.frames.length));
  const frame = replay.step === 0 ? null : d.frames[replay.step - 1];
  const positions = frame ? frame.positions : d.starts;
  drawBoard($('replay-board'), { ...d, seat: -1, turn: frame ? frame.turn : null,
    last_move: frame ? frame.last_move : null }, positions, [], () => {});
  $('rw-slider').value = replay.step;
  $('rw-step').textContent = `event ${replay.step} of ${d.frames.length}`;
  const items = $('rw-events').children;
  for (let i = 0; i < items.length; i++) items[i].classList.toggle('current', i === replay.step - 1);
  if (replay.step > 0 && items[replay.step - 1]) items[replay.step - 1].scrollIntoView({ block: 'nearest' });
}

function togglePlay() {
  if (replay.timer) { clearInterval(replay.timer); replay.timer = null; $('rw-play').textContent = '▶︎ play'; return; }
  $('rw-play').textContent = '⏸ pause';
  replay.timer = setInterval(() => {
    if (!replay.data || replay.step >= replay.data.frames.length) { togglePlay(); return; }
    showStep(replay.step + 1);
  }, 350);
}

// ---------------------------------------------------------------- wiring

function showTab(name) {
  document.querySelectorAll('.tab').forEach((t) => t.classList.toggle('active', t.dataset.tab === name));
  document.querySelectorAll('.page').forEach((p) => p.classList.toggle('hidden', p.id !== name));
  clearInterval(replay.listTimer);
  if (name === 'replays') {
    loadReplays();
    replay.listTimer = setInterval(loadReplays, 3000);
  }
}

async function init() {
  document.querySelectorAll('.tab').forEach((t) => t.addEventListener('click', () => showTab(t.dataset.tab)));
  $('new-game').addEventListener('submit', startGame);
  $('rw-first').onclick = () => showStep(0);
  $('rw-back').onclick = () => showStep(replay.step - 1);
  $('rw-fwd').onclick = () => showStep(replay.step + 1);
  $('rw-last').onclick = () => showStep(Infinity);
  $('rw-play').onclick = togglePlay;
  $('page-prev').onclick = () => turnPage(-1);
  $('page-next').onclick = () => turnPage(1);
  $('rw-slider').oninput = () => showStep(Number($('rw-slider').value));
  document.addEventListener('keydown', (e) => {
    if ($('replays').classList.contains('hidden') || !replay.data) return;
    // A focused slider or field moves on its own: stepping here too would
    // step twice.
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === 'ArrowRight') showStep(replay.step + 1);
    if (e.key === 'ArrowLeft') showStep(replay.step - 1);
  });
  const opts = await api('GET', '/api/options');
  $('variant').replaceChildren(...opts.variants.map((v) => el('option', { value: v.name,
    selected: v.name === opts.default.variant ? 'selected' : null }, v.name)));
  $('board').replaceChildren(...opts.boards.map((b) => el('option', { value: b,
    selected: b === opts.default.board ? 'selected' : null }, b)));
  // The bots this server seats, one button each, which adds its spec as
  // the next seat's line: the built-in bots, then those of the tournament
  // file given with --tournament (any spec besides only with --allow-bots).
  const seatable = [...new Set([...opts.builtins, ...opts.bots])];
  $('bot-picks').append(...seatable.map((spec) => el('button', {
    type: 'button', class: 'pick', title: `seat ${spec}`,
    onclick: () => {
      const lines = $('bots').value.split('\n').map((l) => l.trim()).filter((l) => l);
      $('bots').value = [...lines, spec].join('\n');
    },
  }, spec)));
  if (opts.allow_bots) {
    $('bot-picks').append(el('span', { class: 'hint' }, 'or type any bot spec (jsonl:..., wasm:..., native:...)'));
  }
  $('variant').addEventListener('change', () => {
    const v = opts.variants.find((x) => x.name === $('variant').value);
    $('players').value = v.players;
    const boards = v.name === 'csci306' || v.name === 'classic';
    $('board-row').classList.toggle('disabled', !boards);
    if (boards) $('board').value = v.name;
  });
  if (location.hash === '#replays') showTab('replays');
  const rejoin = () => {
    const game = /^#game\/(\d+)$/.exec(location.hash);
    if (game && Number(game[1]) !== play.id) joinGame(Number(game[1]));
  };
  window.addEventListener('hashchange', rejoin);
  rejoin();
}

init().catch((e) => toast(e.message));
