// Battleship's addition to the play page's cycle widget (PuzzleType.play_script; app/static/play.js loads it):
//   - the revealed cells are decided from the start (water empty, any ship segment filled) and cannot be
//     changed;
//   - a ship cell is drawn as the segment its ship neighbours make (end, middle, submarine): the SVG,
//     solvers/battleship/picture.py, gives each open cell a <use class="m-ship"> and defines one symbol
//     per segment, #ship-top / -bottom / -left / -right / -middle / -sub.

export function setup({ data, cells, state }) {
  const fixed = new Map();
  for (const item of data.puzzle.revealed || []) {
    fixed.set(`${item.cell[0]},${item.cell[1]}`, item.kind === "water" ? "empty" : "filled");
  }

  function shapeShip(r, c) {
    const el = cells.get(`${r},${c}`);
    const use = el?.querySelector(".m-ship");
    if (!use) return;
    const ship = (rr, cc) => state.get(`${rr},${cc}`) === "filled";
    const [up, down, left, right] = [ship(r - 1, c), ship(r + 1, c), ship(r, c - 1), ship(r, c + 1)];
    const shape = (up || down) && (left || right) ? "middle" : up && down ? "middle" : left && right ? "middle"
      : down ? "top" : up ? "bottom" : right ? "left" : left ? "right" : "sub";
    el.dataset.shape = shape;
    use.setAttribute("href", `#ship-${shape}`);
  }

  return {
    fixed,
    changed(key) {
      const [r, c] = key.split(",").map(Number);
      for (const [dr, dc] of [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]]) shapeShip(r + dr, c + dc);
    },
  };
}
