// Digit entry with pencil marks (any Latin square, with boxes where the picture draws them; or a Kakuro's white cells), a mode of the play page (play.js loads it).
//   Tap a cell to select it, then type its digit: keys 1-9, and on a 16x16 A-G for 10-16 (the board and
//   the keypad show 10-16); 0, Backspace or Delete clears. The Pencil button (or the P key) switches
//   between writing digits and toggling pencil marks. The keypad below the board does the same by taps.
//   Givens are fixed. Check sends `digits` (0 for an empty cell); a hint request also sends the pencil
//   marks as `candidates`, so an elimination already made is not hinted again.
// Hooks: each cell keeps data-state (unknown / filled) and data-digit; a pencilled cell lists its marks in
// data-marks ("1 5 9"); the buttons carry data-action="pencil" (aria-pressed) and data-digit="d".

const SVG_NS = "http://www.w3.org/2000/svg";
// Pencil marks: rows x columns in a cell (6: 2 x 3, 9: 3 x 3), for any N.
const markLayout = (n) => [Math.ceil(n / Math.ceil(Math.sqrt(n))), Math.ceil(Math.sqrt(n))];

export function createDigitsMode({ data, cells, say, clearMarks, setState }) {
  // A Latin square names its size N (digits 1..N); a board of other digits (Kakuro) its rows and columns, digits
  // 1..9, no givens, and only its white cells are cells.
  const latin = data.puzzle.size !== undefined;
  const n = latin ? data.puzzle.size : 9;
  const rows = latin ? n : data.puzzle.rows;
  const cols = latin ? n : data.puzzle.cols;
  const givens = data.puzzle.givens || [];
  const given = (r, c) => (givens[r] && givens[r][c]) || 0;
  const digits = new Map(); // key -> digit the player wrote (givens included)
  const marks = new Map(); // key -> Set of pencilled digits
  let selected = null;
  let pencil = false;

  const keyOf = (r, c) => `${r},${c}`;
  const isGiven = (key) => { const [r, c] = key.split(",").map(Number); return given(r, c) > 0; };
  // Boxes only where the picture draws them (its `.boxes` lines): a Latin square without boxes has rows and columns.
  const BOX = document.querySelector("#board .boxes") ? { 4: [2, 2], 6: [2, 3], 9: [3, 3], 16: [4, 4] }[n] : null;

  function allowed(key) {
    // Digits the filled cells of the row, column and box leave for this cell (what a person pencils).
    const [r, c] = key.split(",").map(Number);
    const seen = new Set();
    if (!latin) return [...Array(n).keys()].map((d) => d + 1);
    for (let k = 0; k < n; k++) {
      seen.add(digits.get(keyOf(r, k)));
      seen.add(digits.get(keyOf(k, c)));
    }
    if (!BOX) return [...Array(n).keys()].map((d) => d + 1).filter((d) => !seen.has(d));
    const r0 = r - (r % BOX[0]);
    const c0 = c - (c % BOX[1]);
    for (let i = r0; i < r0 + BOX[0]; i++) for (let j = c0; j < c0 + BOX[1]; j++) seen.add(digits.get(keyOf(i, j)));
    return [...Array(n).keys()].map((d) => d + 1).filter((d) => !seen.has(d));
  }

  function draw(key) {
    const el = cells.get(key);
    const digit = digits.get(key) || 0;
    if (!isGiven(key)) el.querySelector(".entry").textContent = digit ? String(digit) : "";
    el.dataset.digit = String(digit);
    setState(key, digit ? "filled" : "unknown");
    el.querySelectorAll(".mark").forEach((m) => m.remove());
    const set = marks.get(key);
    if (digit || !set || !set.size) {
      delete el.dataset.marks;
      return;
    }
    el.dataset.marks = [...set].sort((a, b) => a - b).join(" ");
    const bg = el.querySelector(".bg");
    const x0 = +bg.getAttribute("x");
    const y0 = +bg.getAttribute("y");
    const size = +bg.getAttribute("width");
    const [mr, mc] = markLayout(n);
    for (const d of set) {
      const t = document.createElementNS(SVG_NS, "text");
      const row = Math.floor((d - 1) / mc);
      const col = (d - 1) % mc;
      t.setAttribute("x", x0 + ((col + 0.5) * size) / mc);
      t.setAttribute("y", y0 + ((row + 0.5) * size) / mr + size * 0.07);
      t.setAttribute("font-size", size / (mr + 1.2));
      t.setAttribute("text-anchor", "middle");
      t.setAttribute("class", "mark");
      t.textContent = String(d);
      el.append(t);
    }
  }

  function write(key, d) {
    if (isGiven(key)) return say("That cell is given.");
    clearMarks("violation", "because", "mistake");
    if (pencil && d) {
      if (digits.get(key)) return say("Clear the digit first to pencil this cell.");
      const set = marks.get(key) || new Set();
      if (set.has(d)) set.delete(d); else set.add(d);
      marks.set(key, set);
    } else {
      digits.set(key, d);
      if (!d) marks.delete(key);
    }
    draw(key);
  }

  function select(key) {
    if (selected) cells.get(selected)?.classList.remove("selected");
    selected = key;
    cells.get(key)?.classList.add("selected");
  }

  function typed(key) {
    // "1".."9" -> 1..9; on a 16x16 "a".."g" -> 10..16; "0" clears. Anything else: null.
    if (/^[0-9]$/.test(key)) return +key <= n ? +key : null;
    const letter = key.toLowerCase();
    if (n === 16 && letter >= "a" && letter <= "g" && letter.length === 1) return 10 + letter.charCodeAt(0) - 97;
    return null;
  }

  // The keypad and the pencil toggle, under the board.
  const pad = document.createElement("div");
  pad.className = "keypad";
  pad.setAttribute("aria-label", "Digits");
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.dataset.action = "pencil";
  toggle.setAttribute("aria-pressed", "false");
  toggle.textContent = "Pencil (P)";
  toggle.addEventListener("click", () => setPencil(!pencil));
  for (let d = 1; d <= n; d++) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.digit = String(d);
    button.textContent = String(d);
    if (d >= 10) button.title = `key ${String.fromCharCode(87 + d).toUpperCase()}`;
    button.addEventListener("click", () => (selected ? write(selected, d) : say("Pick a cell first.")));
    pad.append(button);
  }
  const erase = document.createElement("button");
  erase.type = "button";
  erase.dataset.digit = "0";
  erase.textContent = "Erase";
  erase.addEventListener("click", () => (selected ? write(selected, 0) : say("Pick a cell first.")));
  pad.append(erase, toggle);
  document.getElementById("board").after(pad);

  function setPencil(on) {
    pencil = on;
    toggle.setAttribute("aria-pressed", String(on));
    document.body.classList.toggle("pencil", on);
  }

  for (const [key, el] of cells) {
    const [r, c] = key.split(",").map(Number);
    if (given(r, c)) digits.set(key, given(r, c));
    el.dataset.digit = String(given(r, c));
  }

  // Typing reaches the selected cell wherever the focus is (e.g. on the Pencil button after a tap);
  // a key the focused cell already handled is marked by its preventDefault.
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || !selected || event.target.tagName === "INPUT") return;
    if (mode.keydown(event, selected)) event.preventDefault();
  });

  const mode = {
    how: n === 16
      ? "Tap a cell, then type its digit: 1-9, and A-G for 10-16 (or use the keypad); 0 or Backspace clears. Pencil (P) switches to pencil marks. Arrows move."
      : `Tap a cell, then type its digit 1-${n} (or use the keypad); 0 or Backspace clears. Pencil (P) switches to pencil marks. Arrows move.`,
    fixed: new Map([...cells.keys()].filter(isGiven).map((key) => [key, "filled"])),
    act(key) {
      select(key);
    },
    keydown(event, key) {
      if (event.key === "p" || event.key === "P") {
        setPencil(!pencil);
        return true;
      }
      if (event.key === "Backspace" || event.key === "Delete") {
        write(key, 0);
        return true;
      }
      const d = typed(event.key);
      if (d === null) return false;
      select(key);
      write(key, d);
      return true;
    },
    answer(undecided) {
      const grid = [];
      const notes = [];
      for (let r = 0; r < rows; r++) {
        grid.push([]);
        notes.push([]);
        for (let c = 0; c < cols; c++) {
          const d = digits.get(keyOf(r, c)) || 0;
          grid[r].push(d || (undecided === null ? null : 0));
          const set = marks.get(keyOf(r, c));
          notes[r].push(!d && set && set.size ? [...set].sort((a, b) => a - b) : null);
        }
      }
      return undecided === null ? { digits: grid, candidates: notes } : { digits: grid };
    },
    applyHint(hint) {
      for (const { cell, value, eliminate } of hint.decide || []) {
        const key = keyOf(cell[0], cell[1]);
        if (!cells.has(key) || isGiven(key)) continue;
        if (eliminate) {
          const set = marks.get(key) || new Set(allowed(key));
          set.delete(value);
          marks.set(key, set);
        } else {
          digits.set(key, value);
          marks.delete(key);
        }
        draw(key);
      }
    },
    clear() {
      for (const key of cells.keys()) {
        if (isGiven(key)) continue;
        digits.delete(key);
        marks.delete(key);
        draw(key);
      }
      setPencil(false);
    },
  };
  return mode;
}
