// Links between numbered cells (a mode of the play page; play.js loads it): the picture draws each node as a
// <g data-cell="r,c"> whose .bg circle carries data-number, and an empty <g data-links> for the links.
//   Drag from a node to the next node along its row or column, or tap one then the other: no link -> 1 -> 2 ->
//   none. Keyboard: arrows move between nodes, Shift+arrow links to the next node that way, Enter or Space
//   picks a node and then joins it to the node focused next.
// The answer is `links` as a list of {"from": [r, c], "to": [r, c], "count"} (the field the page data names);
// a hint request also sends a pair known to have none as count 0 and what a hint ruled out as `excluded`.
// Hooks: a node whose links reach its number gets class "done", the picked node "selected"; each drawn line
// carries data-pair="r,c|r,c" and data-count.

const SVG_NS = "http://www.w3.org/2000/svg";
const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export function createLinksMode({ data, cells, say }) {
  const field = data.answer_field;
  const layer = document.querySelector("[data-links]");
  const counts = new Map(); // "r,c|r,c" (sorted) -> 0, 1 or 2; a pair not in it is undecided
  const excluded = new Map(); // pair -> Set of counts a hint ruled out
  let selected = null;
  const style = document.createElement("style");
  style.textContent = "[data-cell].done text { fill: #9a9a9a; } [data-links] .none { stroke: #c1121f; stroke-width: 2px; }";
  document.head.append(style);

  const at = (key) => key.split(",").map(Number);
  const centre = (key) => {
    const circle = cells.get(key).querySelector(".bg");
    return [+circle.getAttribute("cx"), +circle.getAttribute("cy"), +circle.getAttribute("r")];
  };
  const pairOf = (a, b) => [a, b].sort((x, y) => at(x)[0] - at(y)[0] || at(x)[1] - at(y)[1]).join("|");

  function next(key, [dr, dc]) {
    // The next node from `key` that way, or null; its limits are the nodes' own (no node lies beyond them).
    let [r, c] = at(key);
    const rows = Math.max(...[...cells.keys()].map((k) => at(k)[0])) + 1;
    const cols = Math.max(...[...cells.keys()].map((k) => at(k)[1])) + 1;
    for (r += dr, c += dc; r >= 0 && c >= 0 && r < rows && c < cols; r += dr, c += dc) {
      if (cells.has(`${r},${c}`)) return `${r},${c}`;
    }
    return null;
  }

  const sees = (a, b) => Object.values(STEPS).some((step) => next(a, step) === b);

  function draw() {
    layer.replaceChildren();
    const ends = new Map([...cells.keys()].map((key) => [key, 0]));
    for (const [pair, count] of counts) {
      const [a, b] = pair.split("|");
      const [x0, y0, radius] = centre(a);
      const [x1, y1] = centre(b);
      const vertical = x0 === x1;
      const sides = count === 2 ? [-1, 1] : [0];
      for (const side of sides) {
        const line = document.createElementNS(SVG_NS, "line");
        const [dx, dy] = vertical ? [side * radius * 0.16, 0] : [0, side * radius * 0.16];
        const [ax, ay] = vertical ? [0, radius] : [radius, 0];
        const gap = count === 0 ? 0.4 : 0; // a pair known to have none: a short red mark at its middle
        line.setAttribute("x1", x0 + dx + ax + gap * (x1 - x0 - 2 * ax));
        line.setAttribute("y1", y0 + dy + ay + gap * (y1 - y0 - 2 * ay));
        line.setAttribute("x2", x1 + dx - ax - gap * (x1 - x0 - 2 * ax));
        line.setAttribute("y2", y1 + dy - ay - gap * (y1 - y0 - 2 * ay));
        line.dataset.pair = pair;
        line.dataset.count = String(count);
        if (count === 0) line.classList.add("none");
        layer.append(line);
      }
      ends.set(a, ends.get(a) + count);
      ends.set(b, ends.get(b) + count);
    }
    for (const [key, el] of cells) {
      el.classList.toggle("done", ends.get(key) === +el.querySelector(".bg").dataset.number);
    }
  }

  function cycle(a, b) {
    const pair = pairOf(a, b);
    const count = counts.get(pair) || 0;
    if (count === 2) counts.delete(pair);
    else counts.set(pair, count + 1);
    excluded.delete(pair);
    draw();
    say("");
  }

  function select(key) {
    if (selected) cells.get(selected)?.classList.remove("selected");
    selected = key;
    if (key) cells.get(key)?.classList.add("selected");
  }

  function pick(key) {
    if (selected && selected !== key && sees(selected, key)) {
      cycle(selected, key);
      select(null);
    } else {
      select(selected === key ? null : key);
    }
  }

  // Dragging from one node to another: the click that follows lands on the board, not on a node.
  const board = layer.ownerSVGElement;
  let from = null;
  board.addEventListener("pointerdown", (event) => {
    from = event.target.closest?.("[data-cell]")?.dataset.cell || null;
  });
  board.addEventListener("pointerup", (event) => {
    const target = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-cell]");
    const to = target?.dataset.cell;
    if (from && to && from !== to) {
      if (sees(from, to)) cycle(from, to);
      else say("Links run along a row or column to the next node.");
      select(null);
    }
    from = null;
  });

  return {
    how: "Drag from an island to the next island along its row or column (or tap one, then the other): one bridge, "
      + "two, none. Keyboard: arrows move between islands, Shift+arrow adds a bridge that way, Enter picks an island.",
    fixed: new Map(),
    act(key) {
      pick(key);
    },
    keydown(event, key) {
      if (!event.shiftKey || !STEPS[event.key]) return false;
      const other = next(key, STEPS[event.key]);
      if (other) cycle(key, other);
      else say("No island that way.");
      return true;
    },
    answer(undecided) {
      const entry = (pair, count) => {
        const [a, b] = pair.split("|").map(at);
        return { from: a, to: b, count };
      };
      if (undecided !== null) return { [field]: [...counts].filter(([, n]) => n > 0).map(([p, n]) => entry(p, n)) };
      return {
        [field]: [...counts].map(([p, n]) => entry(p, n)),
        excluded: [...excluded].flatMap(([p, set]) => [...set].map((n) => entry(p, n))),
      };
    },
    applyHint(hint) {
      for (const { from: a, to: b, count, value } of hint.decide || []) {
        if (!a || !b) continue;
        const pair = pairOf(a.join(","), b.join(","));
        if (value) {
          counts.set(pair, count);
          excluded.delete(pair);
          continue;
        }
        const set = excluded.get(pair) || new Set();
        set.add(count);
        excluded.set(pair, set);
        if (set.has(1) && set.has(2)) {
          counts.set(pair, 0);
          excluded.delete(pair);
        }
      }
      draw();
    },
    clear() {
      counts.clear();
      excluded.clear();
      select(null);
      draw();
    },
  };
}
