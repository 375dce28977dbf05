/* The table page's entry point: wires the modules together.  The server sends a complete
 * "state" message after every action (less what the page has already: see withKept);
 * onState() notes what changed (sounds, the trick to gather, the sheet to open) and
 * render() draws the whole table from it.  The server is
 * the only judge of legality: the page lights what observation.legal lists and explains
 * refusals with the server's why_not reasons.  Plain modern JavaScript modules, no build;
 * no module imports the table back (channel.js carries the panels' calls to it). */
import { setLanguage, t, translatePage } from "./i18n.js";
import { connectTable } from "./channel.js";
import { closeHelp, initHelp } from "./help.js";
import { initHint, onHint, onHintError } from "./hint.js";
import { noteAway } from "./away.js";
import { noteClock } from "./clock.js";
import { onChat, onChatHistory, renderChat } from "./chat.js";
import { shake } from "./hand.js";
import { initMenu, renderMenu } from "./menu.js";
import { followRematch, openSheet } from "./sheet.js";
import { connect, sendAction, showConnection } from "./socket.js";
import * as sound from "./sound.js";
import { render, setMessage, startGather } from "./table.js";
import { app, isMe, myTurn } from "./state.js";
import { $, isCardToken, isDiscarding, phaseOf, withKept } from "./util.js";

function onState(frame) {
  const previous = app.state;
  const msg = withKept(frame, previous);
  app.state = msg;
  noteClock(msg);
  noteAway(msg);
  renderChat();
  const obs = msg.observation || {};
  const event = msg.event || null;
  const ui = app.ui;
  ui.pendingShake = null;
  if (!isDiscarding(phaseOf(obs)) || !isMe(obs.to_act)) ui.selected.clear();
  if (event && !isMe(event.seat) && ui.message && ui.message.kind !== "info") ui.message = null;
  if (event && isMe(event.seat)) ui.message = null;
  if (event && event.stand_in && isMe(event.seat)) {
    ui.message = { text: t("status.standInDecided"), kind: "info", standIn: true };
  } else if (ui.message && ui.message.standIn && myTurn(msg)) ui.message = null;

  if (event) {
    if (event.kind === "card") sound.play("card");
    if (event.kind === "trick") {
      sound.play("trick");
      startGather(obs);
    }
    if (event.kind === "deal_scored") {
      sound.play("scored");
      if (!(obs.trick || []).length && isCardToken(event.token)) startGather(obs);
    }
    if (event.kind === "deal_started") {
      ui.gather = null;
      ui.sheetDismissed = false;
      if (ui.sheetOpen && !msg.deal_over) ui.sheetOpen = false;
    }
  }
  if (msg.deal_over && !(previous && previous.deal_over) && !ui.sheetDismissed) openSheet();
  if (!msg.deal_over && previous && previous.deal_over) ui.sheetOpen = false;
  if (msg.game_over) ui.sheetOpen = true;
  if (myTurn(msg) && !myTurn(previous)) sound.play("turn");
  render();
  sendTheOnlyContract(msg);
  followRematch(msg);
}

/** After a misère discard the only contract is the misère: nothing to ask, so the page
 *  sends it itself (once per state) and the contract grid never opens. */
function sendTheOnlyContract(msg) {
  const obs = msg.observation || {};
  const legal = (obs.legal || []).map((tok) => String(tok).toUpperCase());
  if (!myTurn(msg) || phaseOf(obs) !== "contract" || legal.length !== 1 || legal[0] !== "MISERE") return;
  if (app.ui.autoSent === msg.seq) return;
  app.ui.autoSent = msg.seq;
  sendAction("MISERE");
}

function onError(msg) {
  if (onHintError(msg)) return;
  setMessage(msg.message || t("error.refused"), "error");
  sound.play("error");
  if (app.ui.pendingShake) shake(app.ui.pendingShake);
  app.ui.pendingShake = null;
}

/** This browser's seat was opened on another device: from this frame on the page only
 *  watches (the server sends the spectator's view); a reconnection or a reload asks for the
 *  spectator's view too. */
function onSeatMoved(msg) {
  app.watch = msg.watch || "";
  if (app.watch) {
    history.replaceState(null, "", `/watch/${encodeURIComponent(app.gameId)}/${encodeURIComponent(app.watch)}`);
  }
  app.ui.menuOpen = false;
  setMessage(msg.message || t("connection.seatMoved"), "info");
  sound.play("error");
  render();
}

function gameIdFromPage() {
  const fromTemplate = $("app").dataset.gameId;
  if (fromTemplate) return fromTemplate;
  const match = /\/table\/([^/?#]+)/.exec(location.pathname);
  return match ? decodeURIComponent(match[1]) : "";
}

function onEscape() {
  if (app.ui.menuOpen) { app.ui.menuOpen = false; renderMenu(); $("menu-button").focus(); return; }
  if (app.ui.helpOpen) { closeHelp(); render(); return; }
  if (app.ui.sheetOpen && !(app.state && (app.state.deal_over || app.state.game_over))) {
    app.ui.sheetOpen = false;
    render();
  }
}

function init() {
  connectTable({ render, setMessage }); // the panels call the table back through channel.js
  setLanguage(document.documentElement.lang);
  translatePage();
  app.gameId = gameIdFromPage();
  app.watch = $("app").dataset.watch || ""; // a spectator's page: the watch code
  initMenu();
  initHelp();
  initHint();
  $("score-chip").addEventListener("click", () => {
    openSheet();
    render();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") onEscape();
  });
  document.addEventListener("pointerdown", () => sound.unlock(), { once: true });
  document.addEventListener("keydown", () => sound.unlock(), { once: true });
  if (!app.gameId) {
    showConnection(t("connection.noTable"), true);
    return;
  }
  render();
  connect({
    state: onState, error: onError, hint: onHint, chat: onChat, chat_history: onChatHistory,
    seatMoved: onSeatMoved,
    notConnected: (text) => setMessage(text, "error"),
    connection: (open) => { if (open) app.ui.message = null; render(); },
  });
}

// A read-only window onto the table for debugging and the browser tests.
window.preferansTable = {
  get state() { return app.state; },
  get ui() { return app.ui; },
};

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
