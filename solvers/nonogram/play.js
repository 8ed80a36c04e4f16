// Nonogram's addition to the play page's cycle widget (PuzzleType.play_script; app/static/play.js loads it):
// a row's or column's clue greys out when the filled cells of that line make exactly its runs (the SVG,
// solvers/nonogram/picture.py, gives each clue a <g data-clue="row,R|col,C" data-runs="3 1">).

function runsOf(values) {
  const runs = [];
  let run = 0;
  for (const value of values) {
    if (value === "filled") run += 1;
    else if (run) { runs.push(run); run = 0; }
  }
  if (run) runs.push(run);
  return runs.join(" ");
}

export function setup({ state, rows, cols }) {
  const clues = new Map([...document.querySelectorAll("[data-clue]")].map((el) => [el.dataset.clue, el]));
  const line = (kind, index) => kind === "row"
    ? Array.from({ length: cols }, (_, c) => state.get(`${index},${c}`))
    : Array.from({ length: rows }, (_, r) => state.get(`${r},${index}`));
  const update = (kind, index) => {
    const el = clues.get(`${kind},${index}`);
    if (el) el.classList.toggle("done", runsOf(line(kind, index)) === el.dataset.runs);
  };
  return {
    changed(key) {
      const [r, c] = key.split(",").map(Number);
      update("row", r);
      update("col", c);
    },
  };
}
