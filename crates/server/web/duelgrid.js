// Duel's grid in words, shared by the game page and its replay: cell names (`a1` is the top
// left) and what a cell holds.

export const colName = (col) => String.fromCharCode(97 + col);
export const cellName = (col, row) => `${colName(col)}${row + 1}`;

export function parseCell(name) {
  return { col: name.charCodeAt(0) - 97, row: Number(name.slice(1)) - 1 };
}

export function describeCell(cell) {
  if (!cell || cell.kind === 'empty') return 'empty';
  if (cell.kind === 'block') return 'block';
  return `${cell.side} ${cell.rank}`;
}
