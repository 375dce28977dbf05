/* The decision panel in the middle of the table: the bid grid, the discard bar, the
 * whist and defence calls, and a button for any other call the rules bring. */
import { t } from "./i18n.js";
import { openSheet } from "./sheet.js";
import { send, sendAction } from "./socket.js";
import { render } from "./channel.js";
import { app, dummySeat, me, myTurn, nameOf, watching } from "./state.js";
import { bidName, buttonText, callText } from "./words.js";
import { $, LEVELS, STRAINS, SUIT_SYMBOL, el, isCardToken, isDiscarding, legalTokens, parseCard, phaseOf } from "./util.js";

const strainMark = (strain) => el("span", { class: "strain", text: strain === "NT" ? t("strain.NT.short") : SUIT_SYMBOL[strain] });

/** NEXT DEAL, or at a table for friends this friend's READY (pressed: "READY ✓", waiting
 *  for the others). */
function nextDealButton(msg) {
  const friends = msg.stand_in !== undefined;
  const ready = friends && (msg.ready || []).includes(me());
  return el("button", {
    type: "button", class: `action primary${ready ? " ready" : ""}`, "data-action": "NEXT DEAL",
    "aria-pressed": friends ? String(ready) : null, disabled: ready ? "" : null,
    text: t(ready ? "button.readyDone" : friends ? "button.ready" : "button.nextDeal"),
    onclick: () => send({ type: "next_deal" }),
  });
}

export function renderPanel() {
  const box = $("panel");
  const hadFocus = box.contains(document.activeElement);
  box.replaceChildren();
  box.className = "panel";
  const msg = app.state;
  if (msg && msg.deal_over && !msg.game_over && !app.ui.sheetOpen) {
    // The player closed the sheet to look at the table: the way on stays at hand.
    box.classList.add("open", "panel-deal-over");
    box.append(el("div", { class: "calls" }, [
      el("div", { class: "grid-title", text: t("panel.dealOver") }),
      el("div", { class: "call-row" }, [
        el("button", {
          type: "button", class: "action", "data-action": "SHEET", text: t("button.sheet"),
          onclick: () => { openSheet(); render(); },
        }),
        // a spectator waits for the players to deal on; at a table for friends it is READY
        ...(watching() ? [] : [nextDealButton(msg)]),
      ]),
    ]));
    return;
  }
  if (!msg || !myTurn(msg) || msg.paused) return;
  const obs = msg.observation || {};
  const phase = phaseOf(obs);
  const legal = legalTokens(obs).map((tok) => tok.toUpperCase());
  // A misère declarer is not asked for a contract: main.js sends the only one.
  if (phase === "contract" && legal.length === 1 && legal[0] === "MISERE") return;
  let content = null;
  if (phase === "auction" || phase === "contract") content = bidGrid(legal, phase);
  else if (isDiscarding(phase)) content = discardBar(legal, phase);
  else if (phase === "defence" || phase === "defence_mode") content = callButtons(legal);
  else if (phase === "dealer_whist") content = dealerPanel(legal);
  else if (phase === "name") content = namePanel(legal);
  else if (phase === "write") content = writePanel(legal, obs);
  else if (phase !== "play" && legal.length) content = tokenButtons(legal);
  // Whatever the server offers that no control above shows still gets a button: the
  // player can never be stuck on a call this page does not know.
  const covered = coveredTokens(content, phase);
  const missing = legal.filter((token) => !covered.has(token));
  const extras = missing.length ? extraButtons(missing, !!content) : null;
  if (!content && !extras) return;
  box.classList.add("open", `panel-${phase}`);
  if (content) box.append(content);
  if (extras) box.append(extras);
  const active = document.activeElement;
  if (hadFocus || !active || active === document.body) {
    const first = box.querySelector("button:not([disabled])");
    if (first) first.focus({ preventScroll: true });
  }
}

/** The legal tokens a panel's controls already reach (cards are played from the hands,
 *  the discard bar builds every DISCARD token). */
function coveredTokens(content, phase) {
  const covered = new Set();
  if (content) {
    for (const node of content.querySelectorAll("button[data-token]:not([disabled])")) {
      covered.add(node.dataset.token.toUpperCase());
    }
  }
  const legal = legalTokens(app.state && app.state.observation).map((tok) => tok.toUpperCase());
  for (const token of legal) {
    if (phase === "play" && isCardToken(token)) covered.add(token);
    if (isDiscarding(phase) && token.startsWith("DISCARD")) covered.add(token);
  }
  return covered;
}

/** A labelled button for each legal call without a control of its own. */
function extraButtons(tokens, under) {
  const row = el("div", { class: "call-row extra-calls" });
  for (const token of tokens) {
    row.append(el("button", {
      type: "button", class: "action extra", "data-action": token, "data-token": token,
      title: callText(token), onclick: () => sendAction(token), text: buttonText(token),
    }));
  }
  return el("div", { class: "calls extras" }, [
    el("div", { class: "grid-title", text: t(under ? "panel.or" : "panel.yourCall") }), row,
  ]);
}

/** The Rogue: the soloist names a game left on his list (a whole contract, a misère, or
 *  "any n" whose trump he names after the discard). */
function namePanel(legal) {
  const obs = app.state.observation || {};
  const list = (obs.rogue_list || []).map((item) => (/^\d+$/.test(String(item)) ? t("call.anyLower", { n: item }) : callText(item)));
  const row = el("div", { class: "call-row" });
  for (const token of legal) {
    row.append(el("button", {
      type: "button", class: "action", "data-action": token, "data-token": token,
      title: /^TRICKS/.test(token) ? t("panel.anyGame", { n: token.split(" ")[1] }) : null,
      onclick: () => sendAction(token), text: callText(token),
    }));
  }
  return el("div", { class: "calls" }, [
    el("div", { class: "grid-title", text: t("panel.nameGame") }),
    list.length ? el("small", { class: "help rogue-list", text: t("panel.rogueLeft", { list: list.join(", ") }) }) : null,
    row,
  ]);
}

/** The blind decision (Classical's second half): the cards are face down, so the panel
 *  offers SEE and BLIND PASS first, then the blind grid; the seeing grid, useless until
 *  SEE, is left out so that the whole choice fits on the screen. */
function blindPanel(legal) {
  const lit = new Set(legal);
  const grid = el("div", {
    class: "bid-grid blind-only", role: "group", onkeydown: onGridKey, "aria-label": t("panel.blindLabel"),
  });
  grid.append(el("div", { class: "grid-title", text: t("panel.faceDown") }));
  const row = el("div", { class: "grid-row blind-calls" });
  if (lit.has("SEE")) {
    row.append(el("button", {
      type: "button", class: "action primary wide see", "data-action": "SEE", "data-token": "SEE",
      title: t("panel.seeTitle"), onclick: () => sendAction("SEE"), text: t("panel.see"),
    }));
  }
  if (lit.has("BLIND PASS")) {
    row.append(el("button", {
      type: "button", class: "action wide", "data-action": "BLIND PASS", "data-token": "BLIND PASS",
      title: t("panel.blindPassTitle"), onclick: () => sendAction("BLIND PASS"), text: t("button.BLIND PASS"),
    }));
  }
  grid.append(row);
  grid.append(blindCells(lit, t("panel.blindDouble")));
  return grid;
}

/** The grid of blind bids, each lit when legal. */
function blindCells(lit, title) {
  const box = el("div", { class: "blind-box" });
  box.append(el("div", { class: "grid-title blind-title", text: title }));
  const blind = el("div", { class: "grid-cells blind-cells" });
  for (const level of LEVELS) {
    for (const strain of STRAINS) {
      const token = `BLIND ${level}${strain}`;
      const red = strain === "D" || strain === "H";
      blind.append(el("button", {
        type: "button", class: `bid blind${red ? " red" : ""}${lit.has(token) ? " lit" : ""}`,
        "data-token": token, disabled: !lit.has(token),
        "aria-label": t("bid.blindName", { bid: bidName(level, strain) }),
        onclick: () => sendAction(token),
      }, [String(level), strainMark(strain)]));
    }
  }
  box.append(blind);
  return box;
}

function bidGrid(legal, phase) {
  const lit = new Set(legal);
  const obs = (app.state && app.state.observation) || {};
  if (phase === "auction" && obs.hand_hidden && legal.some((tok) => tok === "SEE" || tok.startsWith("BLIND "))) {
    return blindPanel(legal);
  }
  const grid = el("div", {
    class: "bid-grid", role: "group", onkeydown: onGridKey,
    "aria-label": t(phase === "contract" ? "panel.contractLabel" : "panel.bidLabel"),
  });
  grid.append(el("div", { class: "grid-title", text: t(phase === "contract" ? "panel.contract" : "panel.bid") }));
  const cells = el("div", { class: "grid-cells" });
  for (const level of LEVELS) {
    for (const strain of STRAINS) {
      const token = `${level}${strain}`;
      const red = strain === "D" || strain === "H";
      cells.append(el("button", {
        type: "button", class: `bid${red ? " red" : ""}${lit.has(token) ? " lit" : ""}`,
        "data-token": token, disabled: !lit.has(token), "aria-label": bidName(level, strain),
        onclick: () => sendAction(token),
      }, [String(level), strainMark(strain)]));
    }
  }
  grid.append(cells);
  const row = el("div", { class: "grid-row" });
  row.append(el("button", {
    type: "button", class: `bid wide${lit.has("MISERE") ? " lit" : ""}`, "data-token": "MISERE",
    disabled: !lit.has("MISERE"), onclick: () => sendAction("MISERE"), text: t("button.MISERE"),
  }));
  if (phase === "auction" || lit.has("PASS")) {
    row.append(el("button", {
      type: "button", class: `bid wide pass${lit.has("PASS") ? " lit" : ""}`, "data-token": "PASS",
      disabled: !lit.has("PASS"), onclick: () => sendAction("PASS"), text: t("button.PASS"),
    }));
  }
  grid.append(row);
  if (LEVELS.some((level) => STRAINS.some((strain) => lit.has(`BLIND ${level}${strain}`)))) {
    grid.append(blindCells(lit, t("panel.blind")));
  }
  if (lit.has("RESIGN")) grid.append(optionalCalls(legal));
  return grid;
}

/** RESIGN and REFUSE, when the rules allow them, each with its one-line explanation. */
function optionalCalls(legal) {
  const box = el("div", { class: "optional-calls" });
  for (const token of ["REFUSE", "RESIGN"]) {
    if (!legal.includes(token)) continue;
    const help = t(`help.${token}`);
    box.append(el("div", { class: "optional-call" }, [
      el("button", {
        type: "button", class: "action", "data-action": token, "data-token": token,
        title: help, onclick: () => sendAction(token), text: t(`label.${token}`),
      }),
      el("small", { class: "help", text: help }),
    ]));
  }
  return box.childElementCount ? box : null;
}

/** The four-player dealer's right to whist: look at one defender's hand, then WHIST or PASS. */
function dealerPanel(legal) {
  const obs = app.state.observation || {};
  const row = el("div", { class: "call-row" });
  const looks = legal.filter((tok) => tok.startsWith("LOOK"));
  for (const token of looks) {
    const seat = Number(token.split(/\s+/)[1]);
    row.append(el("button", {
      type: "button", class: "action", "data-action": token, "data-token": token,
      onclick: () => sendAction(token), text: t("panel.lookAt", { name: nameOf(seat) }),
    }));
  }
  for (const token of ["WHIST", "PASS"]) {
    if (!legal.includes(token)) continue;
    row.append(el("button", {
      type: "button", class: `action${token === "WHIST" ? " primary" : ""}`, "data-action": token,
      "data-token": token, title: t(`help.dealer.${token}`), onclick: () => sendAction(token), text: t(`label.${token}`),
    }));
  }
  const params = { name: nameOf(obs.declarer), contract: callText(obs.contract) };
  const title = t(looks.length ? "panel.dealerLook" : "panel.dealerWhist", params);
  const note = looks.length ? null : el("small", { class: "help", text: `${t("help.dealer.WHIST")}. ${t("help.dealer.PASS")}.` });
  return el("div", { class: "calls" }, [el("div", { class: "grid-title", text: title }), row, note]);
}

/** POOL or HILL, with what is at stake: the points, and under VMK's rule the pool's room,
 *  the surplus and the mountain (the deal's ``write`` preview); under Racing's the
 *  mountain comes from the sheet. */
function writePanel(legal, obs) {
  const panel = tokenButtons(legal, t("panel.where"));
  const w = obs.write;
  if (!w) return panel;
  const n = (x) => { const v = Number(x); return Number.isInteger(v) ? String(v) : v.toFixed(1); };
  let text;
  if (w.surplus !== undefined) {
    text = t("panel.writeSurplus", { points: t("points", { count: w.points, n: n(w.points) }), room: n(w.room), surplus: n(w.surplus), mountain: n(w.mountain) });
  } else {
    const sheet = obs.sheet || {};
    const mountain = sheet.mountain ? sheet.mountain[obs.seat] : null;
    text = t("panel.writePlain", { points: t("points", { count: w.points, n: n(w.points) }) })
      + (mountain === null || mountain === undefined ? "." : ` ${t("panel.writeMountain", { mountain: n(mountain) })}`);
  }
  panel.append(el("small", { class: "help write-help", text }));
  return panel;
}

/** Any other decision the rules bring: one button per legal token. */
function tokenButtons(legal, title = t("panel.yourCall")) {
  const row = el("div", { class: "call-row" });
  for (const token of legal) {
    row.append(el("button", {
      type: "button", class: "action", "data-action": token, "data-token": token,
      onclick: () => sendAction(token), text: buttonText(token),
    }));
  }
  return el("div", { class: "calls" }, [el("div", { class: "grid-title", text: title }), row]);
}

function discardBar(legal, phase = "discard") {
  const chosen = [...app.ui.selected];
  const token = discardToken(chosen, legal);
  const ready = chosen.length === 2;
  const hint = ready
    ? t("panel.discardReady", { cards: chosen.map(callText).join(t("and")) })
    : t(phase === "exchange" ? "panel.chooseExchange" : "panel.chooseDiscard", { count: 2 - chosen.length });
  const bar = el("div", { class: "discard-bar" }, [
    el("span", { class: "hint", text: hint }),
    el("button", {
      type: "button", class: "action primary", "data-action": "DISCARD", disabled: !ready,
      onclick: () => { if (ready) sendAction(token); },
      text: t("button.discard"),
    }),
  ]);
  const optional = optionalCalls(legal);
  return optional ? el("div", { class: "discard-panel" }, [bar, optional]) : bar;
}

/** The legal DISCARD token naming these two cards (in whatever order the engine wrote it). */
function discardToken(chosen, legal) {
  const want = [...chosen].sort().join(" ");
  for (const token of legal) {
    if (!token.startsWith("DISCARD")) continue;
    const cards = token.split(/\s+/).slice(1).map((c) => c.toUpperCase()).sort().join(" ");
    if (cards === want) return token;
  }
  const ordered = [...chosen].sort((a, b) => parseCard(a).order - parseCard(b).order);
  return `DISCARD ${ordered.join(" ")}`;
}

function callButtons(legal) {
  const order = ["WHIST", "HALF", "PASS", "OPEN", "CLOSED", "ALONE"];
  const obs = app.state.observation || {};
  const helpKey = (token) => (token === "OPEN" && dummySeat() !== null ? "help.OPEN.dummy" : `help.${token}`);
  const title = phaseOf(obs) === "defence_mode"
    ? (dummySeat() !== null ? t("panel.whistDummy", { contract: callText(obs.contract) }) : t("panel.whistAlone"))
    : t("panel.plays", { name: nameOf(obs.declarer), contract: callText(obs.contract) });
  const row = el("div", { class: "call-row" });
  for (const token of order) {
    if (!legal.includes(token)) continue;
    row.append(el("button", {
      type: "button", class: `action${token === "WHIST" || token === "OPEN" ? " primary" : ""}`,
      "data-action": token, "data-token": token, title: t(helpKey(token)), onclick: () => sendAction(token), text: t(`label.${token}`),
    }));
  }
  return el("div", { class: "calls" }, [el("div", { class: "grid-title", text: title }), row]);
}

function onGridKey(event) {
  const buttons = [...event.currentTarget.querySelectorAll("button:not([disabled])")];
  const index = buttons.indexOf(document.activeElement);
  if (index < 0) return;
  let to = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") to = Math.min(buttons.length - 1, index + 1);
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") to = Math.max(0, index - 1);
  if (to === null) return;
  event.preventDefault();
  buttons[to].focus();
}
