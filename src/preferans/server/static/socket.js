/* The connection to the server: one WebSocket per table, reconnecting with back-off.
 * Messages in go to the handlers given to connect(); actions out go through send(). */
import { t } from "./i18n.js";
import { app } from "./state.js";
import { $, el } from "./util.js";

let ws = null;
let retry = 0;
let handlers = { state: () => {}, error: () => {}, hint: () => {}, chat: () => {}, seatMoved: () => {}, notConnected: () => {}, connection: () => {} };

export function connect(given) {
  if (given) handlers = { ...handlers, ...given };
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // The socket speaks the page's language (the player's choice: ?lang=, the cookie, the
  // RU / EN switch), whatever Accept-Language the browser sends with the socket's handshake;
  // a spectator's socket names the table's watch code.
  const lang = encodeURIComponent(document.documentElement.lang || "en");
  const watch = app.watch ? `&watch=${encodeURIComponent(app.watch)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(app.gameId)}?lang=${lang}${watch}`);
  ws = socket;
  socket.addEventListener("open", () => {
    retry = 0;
    app.ui.connected = true;
    showConnection(null);
    handlers.connection(true);
  });
  socket.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch (err) { return; }
    if (msg.type === "state") handlers.state(msg);
    else if (msg.type === "error") handlers.error(msg);
    else if (msg.type === "hint") handlers.hint(msg);
    else if (msg.type === "chat") handlers.chat(msg);
    else if (msg.type === "seat_moved") handlers.seatMoved(msg); // the seat went to another device
  });
  socket.addEventListener("close", (event) => {
    if (ws !== socket) return;
    const was = app.ui.connected;
    app.ui.connected = false;
    if (was !== false) handlers.connection(false);
    const fatal = { 4410: "connection.watchChanged", 4403: "connection.notYours", 4404: "connection.noGame", 1008: "connection.noGame" };
    if (fatal[event.code]) { // 4410: a spectator's watch link was replaced by a new one
      app.ui.closedForGood = true; // the status line stops saying "reconnecting"
      showConnection(t(fatal[event.code]), true);
      handlers.connection(false);
      return;
    }
    retry = Math.min(retry + 1, 6);
    // At a table already drawn the status line says it (the table stays in sight); the
    // box speaks only before the first state.
    showConnection(app.state ? null : t("connection.lost"));
    setTimeout(() => connect(), 300 * 2 ** retry);
  });
}

export function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    handlers.notConnected(t("connection.notYet"));
    return false;
  }
  ws.send(JSON.stringify(msg));
  return true;
}

export function sendAction(token) {
  app.ui.message = null;
  send({ type: "action", token });
}

export function showConnection(text, fatal = false) {
  const box = $("connection");
  box.hidden = !text;
  box.replaceChildren();
  if (!text) return;
  box.append(el("span", { text }));
  if (fatal) box.append(" ", el("a", { href: "/", text: t("connection.settings") }));
}
