// Drawing a loop's lines (loop genres), a mode of the play page (play.js loads it).
//   The picture draws each line as <g data-edge="field,r,c"> (the answer's field and the index in it) over the
//   board's cells: along the grid's edges between its dots, or, where an element of the picture says
//   data-joins="centres", between the centres of neighbouring cells. A tap on a line cycles it: nothing -> line
//   -> cross -> nothing. Keyboard: arrows move between cells as everywhere, Shift+arrow cycles the edge on that
//   side of the focused cell (between centres: the line from it toward that side); a line a tap focused cycles
//   with Enter or Space too.
//   Check sends each field as a 0/1 grid (a line 1, anything else 0); a hint request sends undrawn edges as
//   null, so crosses count as decided.
// Hooks: each edge keeps data-state (unknown / line / cross) and the classes `line` / `cross`.

const NEXT = { unknown: "line", line: "cross", cross: "unknown" };
// Per arrow, the line on that side of cell (r, c): its offset from (r, c) and its field (the first or second).
const SIDES = {
  dots: { ArrowUp: [0, 0, "h"], ArrowDown: [1, 0, "h"], ArrowLeft: [0, 0, "v"], ArrowRight: [0, 1, "v"] },
  centres: { ArrowUp: [-1, 0, "v"], ArrowDown: [0, 0, "v"], ArrowLeft: [0, -1, "h"], ArrowRight: [0, 0, "h"] },
};
const HOW = {
  dots: "Tap between two dots to draw a line there, again to cross it out, again to clear it.",
  centres: "Tap between two cells' centres to draw a line there, again to cross it out, again to clear it.",
};

export function createEdgesMode({ say, clearMarks }) {
  const edges = new Map([...document.querySelectorAll("[data-edge]")].map((el) => [el.dataset.edge, el]));
  const joins = document.querySelector("[data-joins]")?.dataset.joins === "centres" ? "centres" : "dots";
  const state = new Map([...edges.keys()].map((key) => [key, "unknown"]));
  // The fields in the order the picture draws them (the first the horizontal edges, the second the vertical)
  // and each field's shape, read off the edges' names.
  const shape = new Map();
  for (const key of edges.keys()) {
    const [field, r, c] = key.split(",");
    const [rows, cols] = shape.get(field) || [0, 0];
    shape.set(field, [Math.max(rows, +r + 1), Math.max(cols, +c + 1)]);
  }
  const [across, down] = [...shape.keys()];

  function set(key, value) {
    state.set(key, value);
    const el = edges.get(key);
    el.dataset.state = value;
    el.classList.toggle("line", value === "line");
    el.classList.toggle("cross", value === "cross");
  }

  function cycle(key) {
    clearMarks("violation", "because", "mistake");
    set(key, NEXT[state.get(key)]);
  }

  for (const [key, el] of edges) {
    set(key, "unknown");
    el.addEventListener("click", () => {
      el.focus();
      cycle(key);
    });
    el.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      cycle(key);
    });
  }

  function grids(undecided) {
    const out = {};
    for (const [field, [rows, cols]] of shape) {
      out[field] = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => {
        const value = state.get(`${field},${r},${c}`);
        return value === "line" ? 1 : value === "cross" ? 0 : undecided;
      }));
    }
    return out;
  }

  return {
    how: `${HOW[joins]} Keyboard: arrows move between cells, Shift+arrow changes that side of the cell; on an edge, Enter or Space changes it.`,
    fixed: new Map(),
    act() {
      say(joins === "dots" ? "Tap the edge between two dots to draw the loop there."
        : "Tap between two cells' centres to draw the loop there.");
    },
    keydown(event, key) {
      if (!event.shiftKey || !SIDES[joins][event.key]) return false;
      const [r, c] = key.split(",").map(Number);
      const [dr, dc, which] = SIDES[joins][event.key];
      const edge = `${which === "h" ? across : down},${r + dr},${c + dc}`;
      if (edges.has(edge)) cycle(edge);
      return true;
    },
    answer(undecided) {
      return grids(undecided);
    },
    applyHint(hint) {
      for (const { field, at, value } of hint.decide || []) {
        if (!at) continue; // a decision about cells, not edges (the genre's module reads edges as regions)
        const key = `${field},${at[0]},${at[1]}`;
        if (edges.has(key)) set(key, value ? "line" : "cross");
      }
    },
    clear() {
      for (const key of edges.keys()) set(key, "unknown");
    },
  };
}
