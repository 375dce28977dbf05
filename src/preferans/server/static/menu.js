/* The menu ☰ of the top band: pause, the sheet, the sound, the help, a new game. */
import { t } from "./i18n.js";
import { guideHref, openHelp } from "./help.js";
import { openSheet } from "./sheet.js";
import { absolute } from "./links.js";
import { send } from "./socket.js";
import * as sound from "./sound.js";
import { render, setMessage } from "./channel.js";
import { app, nameOf, setSound } from "./state.js";
import { $, el } from "./util.js";

export function renderMenu() {
  const menu = $("menu");
  const button = $("menu-button");
  menu.hidden = !app.ui.menuOpen;
  button.setAttribute("aria-expanded", String(app.ui.menuOpen));
  const paused = !!(app.state && app.state.paused);
  const pause = menu.querySelector('[data-menu="pause"]');
  pause.textContent = t(paused ? "menu.resume" : "menu.pause");
  // Nothing to pause once the game is over, nor while the server cannot hear it.
  pause.hidden = !app.state || !!app.state.game_over || app.ui.connected === false;
  menu.querySelector('[data-menu="sound"]').textContent = t(app.ui.sound ? "menu.soundOn" : "menu.soundOff");
  const guide = menu.querySelector('a[href^="/guide"]');
  if (guide && app.state) guide.setAttribute("href", guideHref());
  renderHandOver(menu);
  renderFinish(menu);
  renderWatchLink(menu);
  renderSeatLinks(menu);
  renderAddress(menu);
}

/** At a table for friends, a seated friend may change how the Russian sentences speak of
 *  him («он» / «она»): every page follows at once (the server sends the new state). */
function renderAddress(menu) {
  menu.querySelectorAll('[data-menu="address"]').forEach((node) => node.remove());
  const msg = app.state;
  if (!msg || !msg.humans || msg.seat === null || msg.seat === undefined
      || !msg.humans.includes(msg.seat) || !msg.genders) return;
  const other = msg.genders[msg.seat] === "f" ? "m" : "f";
  menu.querySelector('[data-menu="new"]').before(el("button", {
    type: "button", role: "menuitem", "data-menu": "address", "data-gender": other,
    text: t(other === "f" ? "menu.addressF" : "menu.addressM"),
  }));
}

async function changeAddress(gender) {
  try {
    const response = await fetch(`/api/friends/${encodeURIComponent(app.gameId)}/address`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ gender }),
    });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({}));
      setMessage(answer.message || answer.detail || t("connection.notYet"), "error");
    }
  } catch (problem) {
    setMessage(t("connection.notYet"), "error");
  }
}

/** At a table for friends, each human may copy the link that opens his own seat on another
 *  device (the state gives ``device`` only to that seat's page); the creator may make a new
 *  one for a friend who lost his (the old one stops working). */
function renderSeatLinks(menu) {
  menu.querySelectorAll('[data-menu="device_copy"], [data-menu="seat_link_new"]').forEach((node) => node.remove());
  const msg = app.state;
  if (!msg || msg.seat === null || msg.seat === undefined || msg.game_over || !msg.humans) return;
  const anchor = menu.querySelector('[data-menu="new"]');
  if (msg.device) {
    anchor.before(el("button", { type: "button", role: "menuitem", "data-menu": "device_copy", text: t("menu.deviceCopy") }));
  }
  if (msg.seat !== 0) return;
  const handed = msg.handed || [];
  for (const seat of msg.humans.filter((s) => s !== 0 && !handed.includes(s))) {
    anchor.before(el("button", {
      type: "button", role: "menuitem", "data-menu": "seat_link_new", "data-seat": seat,
      text: t("menu.seatLinkNew", { name: nameOf(seat) }),
    }));
  }
}

async function newSeatLink(seat) {
  try {
    const response = await fetch(`/api/friends/${encodeURIComponent(app.gameId)}/seat_link`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seat }),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) { setMessage(answer.message || answer.detail || t("connection.notYet"), "error"); return; }
    await copyLink(answer.device, "menu.seatLinkRenewed", "menu.seatLinkShown", { name: nameOf(seat) });
  } catch (problem) {
    setMessage(t("connection.notYet"), "error");
  }
}

/** At a table for friends, its creator (the only page the state gives ``watch``) may copy
 *  the watch-only link, or make a new one (the old one stops working). */
function renderWatchLink(menu) {
  menu.querySelectorAll('[data-menu="watch_copy"], [data-menu="watch_new"]').forEach((node) => node.remove());
  const msg = app.state;
  if (!msg || !msg.watch || msg.game_over) return;
  const anchor = menu.querySelector('[data-menu="new"]');
  for (const [action, key] of [["watch_copy", "menu.watchCopy"], ["watch_new", "menu.watchNew"]]) {
    anchor.before(el("button", { type: "button", role: "menuitem", "data-menu": action, text: t(key) }));
  }
}

/** Copy a link to the clipboard; the status line shows it either way (a page served over
 *  plain http from another machine may not reach the clipboard). */
async function copyLink(path, copiedKey, shownKey = "menu.watchShown", fields = {}) {
  const url = absolute(path);
  try {
    await navigator.clipboard.writeText(url);
    setMessage(t(copiedKey, { ...fields, url }), "info");
  } catch (problem) {
    setMessage(t(shownKey, { ...fields, url }), "info");
  }
}

async function newWatchLink() {
  try {
    const response = await fetch(`/api/friends/${encodeURIComponent(app.gameId)}/watch`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) { setMessage(answer.message || answer.detail || t("connection.notYet"), "error"); return; }
    await copyLink(answer.watch, "menu.watchRenewed");
  } catch (problem) {
    setMessage(t("connection.notYet"), "error");
  }
}

/** At a table for friends, each human may ask to finish the game early (it ends when every
 *  human at the table agrees), agree to a friend's request, or say no ("Keep playing"). */
function renderFinish(menu) {
  menu.querySelectorAll('[data-menu="finish"], [data-menu="finish_no"]').forEach((node) => node.remove());
  const msg = app.state;
  if (!msg || msg.finish_asked === undefined || msg.seat === null || msg.seat === undefined
      || msg.game_over || app.ui.connected === false) return;
  const asked = msg.finish_asked || [];
  const anchor = menu.querySelector('[data-menu="new"]');
  if (!asked.includes(msg.seat)) {
    anchor.before(el("button", {
      type: "button", role: "menuitem", "data-menu": "finish",
      text: t(asked.length ? "menu.finishAgree" : "menu.finish"),
    }));
  }
  if (asked.length) {
    anchor.before(el("button", { type: "button", role: "menuitem", "data-menu": "finish_no", text: t("menu.finishNo") }));
  }
}

/** At a table for friends, its creator (seat 0) may give the seat of a friend who is away
 *  (the stand-in plays it) to the computer for the rest of the game. */
function renderHandOver(menu) {
  menu.querySelectorAll('[data-menu="hand_over"]').forEach((node) => node.remove());
  const msg = app.state;
  if (!msg || msg.seat !== 0 || !msg.stand_in) return;
  const handed = msg.handed || [];
  const anchor = menu.querySelector('[data-menu="new"]');
  for (const seat of msg.stand_in.filter((s) => !handed.includes(s))) {
    anchor.before(el("button", {
      type: "button", role: "menuitem", "data-menu": "hand_over", "data-seat": seat,
      text: t("menu.handOver", { name: nameOf(seat) }),
    }));
  }
}

function onMenu(action, item) {
  const ui = app.ui;
  if (action === "hand_over") {
    // the friend's seat goes to the computer for the rest of the game: asked first
    const seat = Number(item.dataset.seat);
    if (window.confirm(t("menu.handOverConfirm", { name: nameOf(seat) }))) send({ type: "hand_over", seat });
  }
  if (action === "finish") send({ type: "finish" });
  if (action === "finish_no") send({ type: "finish", agree: false });
  if (action === "watch_copy" && app.state && app.state.watch) copyLink(app.state.watch, "menu.watchCopied");
  if (action === "watch_new") newWatchLink();
  if (action === "device_copy" && app.state && app.state.device) copyLink(app.state.device, "menu.deviceCopied", "menu.deviceShown");
  if (action === "seat_link_new") newSeatLink(Number(item.dataset.seat));
  if (action === "address") changeAddress(item.dataset.gender);
  if (action === "pause") send({ type: app.state && app.state.paused ? "resume" : "pause" });
  if (action === "sheet") openSheet();
  if (action === "help") openHelp();
  if (action === "sound") {
    setSound(!ui.sound);
    sound.unlock();
  }
  if (action === "new") { location.href = "/"; return; }
  ui.menuOpen = false;
  render();
}

export function toggleMenu(open = !app.ui.menuOpen) {
  app.ui.menuOpen = open;
  renderMenu();
  if (open) $("menu").querySelector("button").focus();
}

export function initMenu() {
  $("menu-button").addEventListener("click", () => toggleMenu());
  $("menu").addEventListener("click", (event) => {
    const item = event.target.closest("[data-menu]");
    if (item) onMenu(item.dataset.menu, item);
  });
  document.addEventListener("click", (event) => {
    if (app.ui.menuOpen && !event.target.closest(".menu-wrap")) {
      app.ui.menuOpen = false;
      renderMenu();
    }
  });
}
