// The play page: the server draws the board (each cell a <g data-cell="r,c">); this module keeps the
// player's state, shows it by setting classes on the cells, and talks to the service:
//   check -> POST /puzzles/{id}/verify, hint -> POST /puzzles/{id}/hint (shown only for types that
//   /types lists with difficulties). It names no puzzle type: the page data says which shared widget the
//   type plays with (`mode`, the type's PuzzleType.play_mode) and where the genre's own module is, if it
//   has one (`module`, from PuzzleType.play_script). The shared widgets:
//   cycle : a cell cycles undecided -> filled -> empty -> undecided (any 0/1 answer grid)
//   square: pick the square to play (the answer is a move)
//   pieces: pick a piece, rotate/flip it, place it on the board; click a placed piece to lift it
//   digits: its own module, play-digits.js: select a cell, type its digit or pencil marks
//   edges : its own module, play-edges.js: draw lines and crosses on the edges between the grid's dots
//   links : its own module, play-links.js: join numbered cells along rows and columns by one or two links
// A genre's module (shipped in its folder, e.g. solvers/<genre>/play.js) exports
//   setup({ data, cells, state, rows, cols }) -> { fixed?, changed?, answer? }
// fixed: a Map "r,c" -> "filled" / "empty" of cells decided from the start (they cannot be changed); without
//   a module, the cells the picture draws with data-given="0" or "1" (pictures.grid.cell_group's `value`);
// changed(key): called after each cell's state changes (e.g. to grey a clue or reshape a drawing).
// answer(drawn, undecided): the genre's answer made of what the mode's widget drew (e.g. rectangles' ids from
//   the borders drawn with the edges widget), for check and hint.

const data = JSON.parse(document.getElementById("puzzle-data").textContent);
const MODES = ["cycle", "square", "pieces", "digits", "edges", "links"]; // what PuzzleType.play_mode may name
const mode = data.mode;
if (!MODES.includes(mode)) throw new Error(`The play page has no widget ${JSON.stringify(mode)}.`);
const HOW = {
  cycle: "Tap a cell to fill it, again to mark it empty, again to clear it. Keyboard: arrows move, Enter or Space changes the cell.",
  square: "Tap the square you would play, then Check. Keyboard: arrows move, Enter picks.",
  pieces: "Pick a piece, turn it with Rotate (R) or Flip (F), then tap the board cell for its first square (the leftmost of its top row). Tap a placed piece to take it back.",
};
// The piece colours of the server's pictures (pictures/grid.py), so tray and solution agree.
const PIECE_COLOURS = ["#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377", "#BBBBBB", "#E69F00",
  "#999933", "#882255", "#D55E00", "#44AA99"];

const result = document.querySelector("[data-result]");
const problems = document.getElementById("problems");
const cells = new Map([...document.querySelectorAll("[data-cell]")].map((el) => [el.dataset.cell, el]));
const keys = [...cells.keys()];
const rows = Math.max(...keys.map((k) => +k.split(",")[0])) + 1;
const cols = Math.max(...keys.map((k) => +k.split(",")[1])) + 1;
const state = new Map(keys.map((k) => [k, "unknown"]));
const NEXT = { unknown: "filled", filled: "empty", empty: "unknown" };
// The genre's own additions, in its module (its URL carries the page's version: assets are cached for a year).
const genre = data.module ? (await import(data.module)).setup({ data, cells, state, rows, cols }) || {} : {};

// A mode kept in its own module (same version query as this one: the assets are cached for a year).
const MODULES = {
  digits: ["./play-digits.js", "createDigitsMode"],
  edges: ["./play-edges.js", "createEdgesMode"],
  links: ["./play-links.js", "createLinksMode"],
};
const extra = MODULES[mode]
  ? (await import(MODULES[mode][0] + new URL(import.meta.url).search))[MODULES[mode][1]]({ data, cells, say, clearMarks, setState })
  : null;

document.getElementById("how").textContent = extra ? extra.how : HOW[mode];

function say(text, problemsList = []) {
  result.textContent = text;
  problems.replaceChildren(...problemsList.map((message) => Object.assign(document.createElement("li"), { textContent: message })));
}

function clearMarks(...names) {
  for (const el of cells.values()) el.classList.remove(...names);
}

function mark(list, name) {
  for (const [r, c] of list || []) cells.get(`${r},${c}`)?.classList.add(name);
}

function setState(key, value) {
  state.set(key, value);
  const el = cells.get(key);
  el.dataset.state = value;
  el.classList.toggle("filled", value === "filled");
  el.classList.toggle("empty", value === "empty");
  genre.changed?.(key);
}

// Cells decided from the start: the mode module's, else the genre module's, else those the picture draws with
// the value the puzzle gives them (data-given: a wall holds no light).
const drawnGiven = new Map([...cells].filter(([, el]) => el.dataset.given !== undefined)
  .map(([key, el]) => [key, el.dataset.given === "1" ? "filled" : "empty"]));
const fixed = extra?.fixed || genre.fixed || drawnGiven;

// --- cycle mode ----------------------------------------------------------------------------------

function gridAnswer(undecided) {
  const grid = [];
  for (let r = 0; r < rows; r++) {
    grid.push([]);
    for (let c = 0; c < cols; c++) {
      const value = state.get(`${r},${c}`);
      grid[r].push(value === "filled" ? 1 : value === "empty" ? 0 : undecided);
    }
  }
  return { [data.answer_field]: grid };
}

// --- square mode --------------------------------------------------------------------------------

let chosen = null;
const squareName = (key) => {
  const [r, c] = key.split(",").map(Number);
  return String.fromCharCode(65 + c) + (r + 1);
};

function choose(key) {
  if (data.puzzle.board[+key.split(",")[0] * 8 + +key.split(",")[1]] !== "-") {
    say(`${squareName(key)} is taken: pick an empty square.`);
    return;
  }
  if (chosen) setState(chosen, "unknown");
  chosen = chosen === key ? null : key;
  if (chosen) setState(chosen, "filled");
  say(chosen ? `Your move: ${squareName(chosen)}` : "");
}

// --- pieces mode --------------------------------------------------------------------------------

let catalogue = [];
let picked = null; // {name, cells} in the current orientation
const placed = new Map(); // piece name -> its board cells
const tray = document.getElementById("tray");

function normalise(shape) {
  const r0 = Math.min(...shape.map(([r]) => r));
  const c0 = Math.min(...shape.map(([, c]) => c));
  return shape.map(([r, c]) => [r - r0, c - c0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
const rotate = (shape) => normalise(shape.map(([r, c]) => [c, -r]));
const flip = (shape) => normalise(shape.map(([r, c]) => [r, -c]));
const colourOf = (name) => PIECE_COLOURS[catalogue.findIndex((p) => p.name === name) % PIECE_COLOURS.length];

function pieceSvg(shape, colour, size = 18) {
  const h = Math.max(...shape.map(([r]) => r)) + 1;
  const w = Math.max(...shape.map(([, c]) => c)) + 1;
  const squares = shape.map(([r, c]) =>
    `<rect x="${c * size}" y="${r * size}" width="${size}" height="${size}" fill="${colour}" stroke="#1a1a1a" stroke-width="1.5"/>`);
  return `<svg viewBox="-1 -1 ${w * size + 2} ${h * size + 2}" width="${w * size + 2}" height="${h * size + 2}" aria-hidden="true">${squares.join("")}</svg>`;
}

function drawTray() {
  const available = data.puzzle.mode === "given" ? data.puzzle.pieces : catalogue.map((p) => p.name);
  const header = data.puzzle.mode === "given"
    ? `Use all ${available.length} pieces.`
    : `Use any ${data.puzzle.piece_count} of these pieces.`;
  tray.hidden = false;
  tray.innerHTML = `<p>${header}</p>`;
  const list = document.createElement("div");
  list.className = "pieces";
  for (const name of available) {
    const piece = catalogue.find((p) => p.name === name);
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.piece = name;
    button.setAttribute("aria-pressed", String(picked?.name === name));
    button.disabled = placed.has(name);
    button.innerHTML = `${pieceSvg(normalise(piece.cells), colourOf(name))}<span>${name}</span>`;
    button.addEventListener("click", () => pick(name));
    list.append(button);
  }
  tray.append(list);
  const tools = document.createElement("div");
  tools.className = "tools";
  tools.innerHTML = `<button type="button" data-action="rotate">Rotate (R)</button>
    <button type="button" data-action="flip">Flip (F)</button>
    <span class="preview" aria-live="polite">${picked ? pieceSvg(picked.cells, colourOf(picked.name), 14) + " " + picked.name : "No piece picked"}</span>`;
  tools.querySelector('[data-action="rotate"]').addEventListener("click", () => turn(rotate));
  tools.querySelector('[data-action="flip"]').addEventListener("click", () => turn(flip));
  tray.append(tools);
}

function pick(name) {
  const piece = catalogue.find((p) => p.name === name);
  picked = picked?.name === name ? null : { name, cells: normalise(piece.cells) };
  drawTray();
}

function turn(how) {
  if (!picked) return say("Pick a piece first.");
  picked.cells = how(picked.cells);
  drawTray();
}

function place(key) {
  const [r, c] = key.split(",").map(Number);
  const owner = [...placed].find(([, at]) => at.some(([pr, pc]) => pr === r && pc === c));
  if (owner) return lift(owner[0]);
  if (!picked) return say("Pick a piece first.");
  const [ar, ac] = picked.cells[0];
  const at = picked.cells.map(([pr, pc]) => [pr - ar + r, pc - ac + c]);
  const taken = new Set([...placed.values()].flat().map(([pr, pc]) => `${pr},${pc}`));
  if (at.some(([pr, pc]) => !cells.has(`${pr},${pc}`) || taken.has(`${pr},${pc}`))) {
    return say(`${picked.name} does not fit there.`);
  }
  placed.set(picked.name, at);
  for (const [pr, pc] of at) paint(`${pr},${pc}`, picked.name);
  picked = null;
  say("");
  drawTray();
}

function lift(name) {
  for (const [pr, pc] of placed.get(name)) paint(`${pr},${pc}`, null);
  placed.delete(name);
  drawTray();
}

function paint(key, name) {
  const el = cells.get(key);
  el.querySelector(".bg").style.fill = name ? colourOf(name) : "";
  if (name) el.dataset.piece = name;
  else delete el.dataset.piece;
  setState(key, name ? "filled" : "unknown");
}

// --- shared: input, check, hint -------------------------------------------------------------------

function answer(undecided = 0) {
  if (extra) return genre.answer ? genre.answer(extra.answer(undecided), undecided) : extra.answer(undecided);
  if (mode === "square") return { move: chosen ? squareName(chosen) : null };
  if (mode === "pieces") return { placements: [...placed].map(([piece, at]) => ({ piece, cells: at })) };
  return gridAnswer(undecided);
}

function act(key) {
  clearMarks("violation", "because", "mistake");
  if (extra) return extra.act(key);
  if (mode === "square") return choose(key);
  if (mode === "pieces") return place(key);
  if (fixed.has(key)) return say("That cell is given.");
  setState(key, NEXT[state.get(key)]);
}

async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const payload = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = Array.isArray(payload.detail) ? payload.detail.map((d) => d.msg).join("; ") : payload.detail;
    throw new Error(detail || `the service answered ${response.status}`);
  }
  return payload;
}

async function check() {
  clearMarks("violation", "because", "mistake");
  if (mode === "square" && !chosen) return say("Pick a square first.");
  say("Checking…");
  try {
    const verdict = await post(`/puzzles/${data.id}/verify`, { answer: answer(0) });
    if (verdict.solved) return say("solved: well done!");
    for (const v of verdict.violations) mark(v.cells, "violation");
    const count = verdict.violations.length;
    say(`Not solved yet: ${count} rule${count === 1 ? "" : "s"} broken.`, verdict.violations.map((v) => v.message));
  } catch (error) {
    say(`Could not check: ${error.message}`);
  }
}

async function hint() {
  clearMarks("violation", "because", "mistake");
  try {
    const given = await post(`/puzzles/${data.id}/hint`, { state: answer(null) });
    mark(given.because, "because");
    mark(given.mistakes, "mistake");
    if (extra) extra.applyHint(given);
    else for (const { cell, value } of given.decide || []) {
      const key = `${cell[0]},${cell[1]}`;
      if (mode === "cycle" && cells.has(key) && !fixed.has(key)) setState(key, value ? "filled" : "empty");
    }
    say(given.technique ? `Hint (${given.technique}): ${given.message}` : `Hint: ${given.message}`);
  } catch (error) {
    say(`No hint: ${error.message}`);
  }
}

function clearAll() {
  clearMarks("violation", "because", "mistake");
  if (mode === "pieces") [...placed.keys()].forEach(lift);
  else if (extra) extra.clear();
  else for (const key of keys) if (!fixed.has(key)) setState(key, "unknown");
  chosen = null;
  say("");
}

// Keyboard: one cell is in the tab order at a time (roving focus), arrows move it.
let focusKey = keys[0];
function focusCell(key, move = true) {
  cells.get(focusKey)?.setAttribute("tabindex", "-1");
  focusKey = key;
  const el = cells.get(key);
  el.setAttribute("tabindex", "0");
  if (move) el.focus();
}
const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

for (const [key, el] of cells) {
  setState(key, fixed.get(key) || "unknown");
  el.addEventListener("click", () => {
    focusCell(key, false);
    act(key);
  });
  el.addEventListener("keydown", (event) => {
    if (extra?.keydown(event, key)) {
      event.preventDefault();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      act(key);
    } else if (STEPS[event.key]) {
      event.preventDefault();
      let [r, c] = key.split(",").map(Number);
      const [dr, dc] = STEPS[event.key];
      for (let i = 0; i < Math.max(rows, cols); i++) {  // skip holes in an irregular board
        r += dr;
        c += dc;
        if (cells.has(`${r},${c}`)) return focusCell(`${r},${c}`);
      }
    }
  });
}
focusCell(focusKey, false);

document.addEventListener("keydown", (event) => {
  if (mode !== "pieces" || event.target.tagName === "INPUT") return;
  if (event.key === "r" || event.key === "R") turn(rotate);
  if (event.key === "f" || event.key === "F") turn(flip);
});
document.querySelector('[data-action="check"]').addEventListener("click", check);
document.querySelector('[data-action="hint"]').addEventListener("click", hint);
document.querySelector('[data-action="clear"]').addEventListener("click", clearAll);

// The catalogue (pieces) and whether this type has hints both come from GET /types.
fetch("/types")
  .then((response) => response.json())
  .then((types) => {
    const info = types.find((t) => t.name === data.type) || {};
    document.querySelector('[data-action="hint"]').hidden = !(info.difficulties && info.difficulties.length);
    if (mode === "pieces") {
      catalogue = info.catalogue.catalogues[data.puzzle.catalogue];
      drawTray();
    }
  })
  .catch(() => say("Could not reach the service: checking may not work."))
  .finally(() => { document.body.dataset.ready = "true"; });
