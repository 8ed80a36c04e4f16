// Shikaku on the play page: the shared edges widget draws the rectangles' borders on the inner grid lines
// (fields `horizontal`, the line above row r's cell c, and `vertical`, the line left of it); this module turns
// them into the `regions` answer. Cells joined without a border between them are one region; a region holding
// one number takes that number's id (its place in reading order, 1 first), any other a fresh id. A hint request
// sends only the regions already finished (one number, as many cells as it says), the other cells null.

export function setup({ data, rows, cols }) {
  const numbers = data.puzzle.numbers;
  const ids = new Map();
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (numbers[r][c] !== null) ids.set(`${r},${c}`, ids.size + 1);

  function regions(edges, undecided) {
    const seen = Array.from({ length: rows }, () => Array(cols).fill(false));
    const out = Array.from({ length: rows }, () => Array(cols).fill(undecided));
    let fresh = ids.size + 1;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (seen[r][c]) continue;
        const group = [[r, c]];
        seen[r][c] = true;
        for (let i = 0; i < group.length; i++) {
          const [y, x] = group[i];
          const steps = [
            [y - 1, x, edges.horizontal[y][x]], [y + 1, x, edges.horizontal[y + 1]?.[x]],
            [y, x - 1, edges.vertical[y][x]], [y, x + 1, edges.vertical[y][x + 1]],
          ];
          for (const [ny, nx, border] of steps) {
            if (ny < 0 || nx < 0 || ny >= rows || nx >= cols || seen[ny][nx] || border === 1) continue;
            seen[ny][nx] = true;
            group.push([ny, nx]);
          }
        }
        const held = group.filter(([y, x]) => numbers[y][x] !== null);
        const finished = held.length === 1 && numbers[held[0][0]][held[0][1]] === group.length;
        const id = held.length === 1 ? ids.get(`${held[0][0]},${held[0][1]}`) : fresh++;
        for (const [y, x] of group) out[y][x] = undecided === null && !finished ? null : id;
      }
    }
    return { regions: out };
  }

  return { answer: regions };
}
