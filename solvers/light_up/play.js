// Light Up's addition to the play page's cycle widget (PuzzleType.play_script; app/static/play.js loads it):
// the cells the player's lights reach are tinted as they are placed, along rows and columns up to a wall (the
// SVG, solvers/light_up/picture.py, marks each wall <g data-given="0">).

const TINT = "#fdf3c4"; // the solution picture's lit colour

export function setup({ cells, state, rows, cols }) {
  const wall = (r, c) => cells.get(`${r},${c}`)?.dataset.given !== undefined;
  const style = document.createElement("style");
  style.textContent = `.cell.lit:not(.filled) .bg { fill: ${TINT}; }`;
  document.head.append(style);
  return {
    changed() {
      const lit = new Set();
      for (const [key, value] of state) {
        if (value !== "filled") continue;
        const [r0, c0] = key.split(",").map(Number);
        lit.add(key);
        for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          for (let r = r0 + dr, c = c0 + dc; r >= 0 && r < rows && c >= 0 && c < cols && !wall(r, c); r += dr, c += dc) {
            lit.add(`${r},${c}`);
          }
        }
      }
      for (const [key, el] of cells) el.classList.toggle("lit", lit.has(key));
    },
  };
}
