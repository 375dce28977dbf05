/* The table's two calls that the panels (bidding, hand, help, menu, sheet) make back:
 * redraw the whole table, and show a line in its status band.  table.js draws the panels,
 * so a panel that imported the table would close an import circle; instead main.js hands
 * the table's functions in here at start-up (connectTable) and the panels import these. */

let table = null;

/** Called once by main.js, before anything is drawn: the table's render and setMessage. */
export function connectTable(calls) {
  table = calls;
}

function theTable() {
  if (!table) throw new Error("channel.js: the table is not connected yet (main.js connectTable)");
  return table;
}

/** Redraw the whole table from app.state and app.ui. */
export function render() {
  theTable().render();
}

/** Show a line in the table's status band (kind: "info", "why" or "error"). */
export function setMessage(text, kind = "info") {
  theTable().setMessage(text, kind);
}
