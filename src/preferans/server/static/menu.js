/* The menu ☰ of the top band: pause, the sheet, the sound, the help, a new game. */
import { t } from "./i18n.js";
import { guideHref, openHelp } from "./help.js";
import { openSheet } from "./sheet.js";
import { send } from "./socket.js";
import * as sound from "./sound.js";
import { render } from "./table.js";
import { app, setSound } from "./state.js";
import { $ } from "./util.js";

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
}

function onMenu(action) {
  const ui = app.ui;
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
    if (item) onMenu(item.dataset.menu);
  });
  document.addEventListener("click", (event) => {
    if (app.ui.menuOpen && !event.target.closest(".menu-wrap")) {
      app.ui.menuOpen = false;
      renderMenu();
    }
  });
}
