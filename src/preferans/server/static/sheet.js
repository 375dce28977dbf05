/* The pulya sheet: the overlay opened after every deal and from the menu, with the deal's
 * entry, the classic pulya drawing (pool, mountain and whists per player around the
 * circle of the rules) and the table of totals. */
import { has, language, t } from "./i18n.js";
import { analysisTab } from "./analysis.js";
import { ratingLine } from "./rating_change.js";
import { send } from "./socket.js";
import { render, setMessage } from "./channel.js";
import { app, colour, isMe, me, nameOf, names, watching, whom } from "./state.js";
import { callText, houseRuleLines, rulesSummary, showOption } from "./words.js";
import { $, el, formatNumber, sheetOf } from "./util.js";

export function openSheet() {
  app.ui.sheetOpen = true;
  app.ui.sheetDismissed = false;
}

/** Close the sheet.  Closed after a deal (SEE THE TABLE) it stays closed for that deal;
 *  closed during a deal it opens again when the deal ends. */
export function closeSheet() {
  app.ui.sheetOpen = false;
  app.ui.sheetDismissed = !!(app.state && app.state.deal_over);
}

export function renderSheet() {
  const overlay = $("sheet-overlay");
  const msg = app.state;
  const open = app.ui.sheetOpen && !!msg;
  overlay.hidden = !open;
  const body = $("sheet-body");
  if (!open) {
    body.replaceChildren();
    return;
  }
  const hadFocus = overlay.contains(document.activeElement);
  const focusedKey = hadFocus && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  body.replaceChildren();
  const sheet = sheetOf(msg) || {};
  const entry = msg.last_entry;
  const number = Number(msg.deal_number) || 0;
  const title = msg.game_over ? t(msg.stopped ? "sheet.stopped" : "sheet.gameOver")
    : msg.deal_over ? (number ? t("sheet.dealNumberOver", { number }) : t("sheet.dealOver"))
      : t("sheet.title");
  body.append(el("h2", { id: "sheet-title", text: title }));
  // a table for friends: who is ready for the next deal (or the rematch), in sight at once
  const friends = msg.stand_in !== undefined;
  const readyNote = friends && (msg.deal_over || msg.game_over) && !msg.rematch ? readyBlock(msg) : null;
  if (readyNote) body.append(readyNote);
  if (msg.game_over) body.append(resultBlock(msg, sheet));
  if (entry && msg.deal_over) body.append(entryBlock(entry, sheet));
  const helped = (msg.deal_over && msg.stand_in_seats) || [];
  if (helped.length) {
    body.append(el("p", { class: "stand-in-note", "data-stand-in": helped.join(","),
      text: t("sheet.standInDeal", { names: helped.map((seat) => nameOf(seat)).join(", ") }) }));
  }

  const tabs = el("div", { class: "tabs", role: "tablist" });
  const tabKeys = msg.deal_over && Number(msg.deal_number) ? ["pulya", "totals", "analysis"] : ["pulya", "totals"];
  if (!tabKeys.includes(app.ui.sheetTab)) app.ui.sheetTab = "pulya";
  for (const key of tabKeys) {
    tabs.append(el("button", {
      type: "button", role: "tab", class: "tab", "data-tab": key, "data-key": `tab-${key}`,
      "aria-selected": String(app.ui.sheetTab === key),
      onclick: () => { app.ui.sheetTab = key; renderSheet(); },
      text: key === "analysis" ? t("analysis.tab") : t(`sheet.tab.${key}`),
    }));
  }
  body.append(tabs);
  const panel = el("div", { class: "tab-panel", role: "tabpanel" });
  if (app.ui.sheetTab === "pulya") {
    panel.append(pulyaDrawing(sheet, msg), el("p", { id: "sheet-history", class: "sheet-history", "aria-live": "polite", text: t("sheet.historyHint") }));
  }
  else if (app.ui.sheetTab === "analysis") panel.append(analysisTab(msg, app.gameId, renderSheet));
  else panel.append(totalsTable(sheet), rulesBlock(msg));
  body.append(panel);

  const actions = el("div", { class: "sheet-actions" });
  const iAmReady = isReady(msg);
  if (msg.game_over && friends && msg.seat !== null) {
    // a table for friends: the same seats again, once every friend at the table is ready
    if (msg.rematch) {
      actions.append(el("a", { class: "action primary", href: msg.rematch, "data-key": "rematch", "data-action": "REMATCH", text: t("button.rematchGo") }));
    } else {
      actions.append(el("button", {
        type: "button", class: `action primary${iAmReady ? " ready" : ""}`, "data-action": "REMATCH", "data-key": "rematch",
        "aria-pressed": String(iAmReady), disabled: iAmReady ? "" : null,
        onclick: () => rematch(), text: t(iAmReady ? "button.readyDone" : "button.rematch"),
      }));
    }
  }
  if (msg.game_over) {
    actions.append(el("a", { class: `action${msg.stand_in !== undefined ? "" : " primary"}`, href: "/", "data-key": "new-game", "data-action": "NEW GAME", text: t("button.newGame") }));
    // the replay is the players' (a spectator's page has none: it holds no seat)
    if (app.gameId && !watching()) actions.append(el("a", { class: "action", href: `/replay/${encodeURIComponent(app.gameId)}`, "data-key": "replay", "data-action": "REPLAY", text: t("replay.gameButton") }));
  } else if (msg.deal_over && !watching()) {
    // at a table for friends NEXT DEAL is this friend's READY: the deal waits for everyone
    actions.append(el("button", {
      type: "button", class: `action primary${iAmReady ? " ready" : ""}`, "data-action": "NEXT DEAL", "data-key": "next",
      "aria-pressed": friends ? String(iAmReady) : null, disabled: iAmReady ? "" : null,
      onclick: () => { send({ type: "next_deal" }); },
      text: t(iAmReady ? "button.readyDone" : friends ? "button.ready" : "button.nextDeal"),
    }));
  }
  if (!msg.game_over) {
    actions.append(el("button", {
      type: "button", class: "action", "data-action": "CLOSE", "data-key": "close",
      onclick: () => { closeSheet(); render(); },
      text: t(msg.deal_over ? "button.seeTable" : "button.close"),
    }));
  }
  body.append(actions);
  const again = focusedKey && body.querySelector(`[data-key="${focusedKey}"]`);
  if (again) again.focus({ preventScroll: true });
  else if (!hadFocus) {
    const primary = body.querySelector(".action.primary") || body.querySelector(".action");
    if (primary) primary.focus({ preventScroll: true });
  }
}

/** Whether this page's friend has said READY (for the next deal, or REMATCH). */
function isReady(msg) {
  return msg.stand_in !== undefined && !watching() && (msg.ready || []).includes(me());
}

/** At a table for friends, between deals and after the result: who is ready, who is still
 *  reading (every page shows it, the spectators' too). */
function readyBlock(msg) {
  const ready = msg.ready || [];
  const waiting = msg.ready_waiting || [];
  if (!ready.length && !waiting.length) return null;
  const who = (seat) => nameOf(seat);
  const list = el("ul", { class: "ready-list", "aria-live": "polite" });
  for (const seat of [...ready, ...waiting].sort((a, b) => a - b)) {
    const done = ready.includes(seat);
    list.append(el("li", { class: done ? "is-ready" : "not-ready", "data-seat": seat, "data-ready": String(done), style: `--seat-colour:${colour(seat)}` }, [
      el("span", { class: "ready-mark", "aria-hidden": "true", text: done ? "✓" : "…" }),
      el("span", { text: isMe(seat) ? t(done ? "ready.youReady" : "ready.youReading")
        : t(done ? "ready.isReady" : "ready.reading", { name: who(seat) }) }),
    ]));
  }
  const line = waiting.length && isReady(msg)
    ? t(msg.game_over ? "ready.rematchWaiting" : "ready.waiting", { names: waiting.map(who).join(", ") })
    : t(msg.game_over ? "ready.rematchHow" : "ready.how");
  return el("section", { class: "ready-block", "data-ready": ready.join(","), "data-waiting": waiting.join(",") }, [
    el("p", { class: "ready-line", text: line }), list,
  ]);
}

let rematchAsked = false;
let goingTo = null;

/** Go to the new game once: the answer to this friend's REMATCH and the state that follows it
 *  both name it, and a second navigation would abort the first. */
function goToRematch(url) {
  if (goingTo) return;
  goingTo = url;
  location.assign(url);
}

/** REMATCH: this friend's READY for the same seats at a new game; the last friend's makes
 *  it and every page goes there (the state's `rematch`). */
async function rematch() {
  rematchAsked = true;
  try {
    const response = await fetch(`/api/friends/${encodeURIComponent(app.gameId)}/rematch`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok && answer.url) goToRematch(answer.url);
    else if (!response.ok) setMessage(answer.message || answer.detail || t("error.refused"), "error");
  } catch (problem) {
    setMessage(t("error.refused"), "error");
  }
}

/** After a state: this friend said REMATCH and the new game is made (by the last friend's
 *  READY): go there.  Everybody left at the table is ready but the game is not made yet (the
 *  friend waited for went away): ask once more, which makes it. */
export function followRematch(msg) {
  if (!msg || !msg.game_over || msg.stand_in === undefined || watching()) return;
  const mine = (msg.ready || []).includes(me());
  if (msg.rematch && (mine || rematchAsked)) {
    goToRematch(msg.rematch);
    return;
  }
  if (!msg.rematch && mine && !(msg.ready_waiting || []).length && !followRematch.asking) {
    followRematch.asking = true;
    rematch().finally(() => { followRematch.asking = false; });
  }
}

const deltaText = (value) => (Number(value) ? formatNumber(value, true) : "—");

/** The deal's entry: its summary, and each player's pool, mountain and whists written in the
 *  deal, the change it made to his balance and the balance it leaves. */
function entryBlock(entry, sheet = {}) {
  const block = el("section", { class: "entry" });
  block.append(el("p", { class: "summary", text: serverSummary(entry) || describeEntry(entry) }));
  const overruled = overruledInEntry(entry);
  if (overruled) block.append(el("p", { class: "overruled", "data-overruled": "true", text: overruled }));
  const bonuses = entry.bonuses || {};
  for (const [key, seat] of Object.entries(bonuses)) {
    const words = has(`bonus.${key}`) ? t(`bonus.${key}`) : t("bonus.other");
    block.append(el("p", { class: "bonus", "data-bonus": key }, t("bonus.line", { name: nameOf(Number(seat)), words })));
  }
  const change = entry.change || {};
  const table = el("table", { class: "change" });
  table.append(el("thead", {}, el("tr", {}, [
    el("th", { text: "" }), el("th", { text: t("sheet.pool") }), el("th", { text: t("sheet.mountain") }),
    el("th", { text: t("sheet.whistsWritten") }),
    entry.balance_change ? el("th", { "data-column": "change", text: t("sheet.balanceChange") }) : null,
    sheet.balance ? el("th", { "data-column": "balance", text: t("sheet.balance") }) : null,
  ])));
  const tbody = el("tbody");
  names().forEach((name, seat) => {
    const written = (change.whists || [])[seat] || [];
    const parts = written.map((v, j) => (Number(v) ? t("sheet.whistsOn", { value: formatNumber(v, true), name: nameOf(j), whom: whom(j) }) : null)).filter(Boolean);
    tbody.append(el("tr", { "data-seat": seat }, [
      el("th", { style: `color:${colour(seat)}`, text: name }),
      el("td", { text: deltaText((change.pool || [])[seat]) }),
      el("td", { text: deltaText((change.mountain || [])[seat]) }),
      el("td", { text: parts.length ? parts.join(", ") : "—" }),
      entry.balance_change ? el("td", { "data-column": "change", text: formatNumber(entry.balance_change[seat], true) }) : null,
      sheet.balance ? el("td", { "data-column": "balance", class: "balance", text: formatNumber(sheet.balance[seat], true) }) : null,
    ]));
  });
  table.append(tbody);
  block.append(table);
  return block;
}

/** A half-whist overruled by a reopening whist, in words (or null).  The defence calls
 *  alternate between the two defenders from the declarer's left (the dealer of a
 *  four-player deal sits out). */
export function overruledInEntry(entry) {
  const calls = (entry.defence || []).map((c) => String(Array.isArray(c) ? c[1] : c).toUpperCase());
  const half = calls.indexOf("HALF");
  if (half < 0 || !calls.slice(half + 1).includes("WHIST")) return null;
  const n = names().length;
  const defenders = [];
  for (let k = 1; k < n && defenders.length < 2; k += 1) {
    const seat = (Number(entry.declarer) + k) % n;
    if (!(n === 4 && seat === entry.dealer)) defenders.push(seat);
  }
  const whist = half + 1 + calls.slice(half + 1).indexOf("WHIST");
  return t("entry.halfOverruled", { half: nameOf(defenders[half % 2]), whist: nameOf(defenders[whist % 2]) });
}

/** The server's own line for a deal, when it is written in the page's language (English
 *  unless it says otherwise in summary_lang); else the page tells the entry itself. */
function serverSummary(entry) {
  return entry.summary && (entry.summary_lang || "en") === language() ? entry.summary : "";
}

function describeEntry(entry) {
  const kind = entry.kind;
  const tricks = entry.tricks || [];
  if (kind === "allpass") {
    return t("entry.allpass", { tricks: names().map((n, i) => `${n} ${tricks[i] ?? 0}`).join(", ") });
  }
  const params = { name: nameOf(entry.declarer), contract: callText(entry.contract) };
  if (kind === "passed") return t("entry.passed", params);
  if (kind === "halfwhist") return t("entry.halfwhist", params);
  if (kind === "resigned") return t("entry.resigned", params);
  const taken = tricks[entry.declarer] ?? 0;
  if (kind === "misere") return taken ? t("entry.misereFailed", { ...params, count: taken }) : t("entry.misereMade", params);
  return t("entry.played", { ...params, count: taken });
}

function resultBlock(msg, sheet) {
  let balance = sheet.balance || [0, 0, 0];
  const result = msg.result;
  if (Array.isArray(result)) balance = result;
  else if (result && Array.isArray(result.balance)) balance = result.balance;
  const best = Math.max(...balance.map(Number));
  const winners = balance.map((v, i) => (Number(v) === best ? i : null)).filter((i) => i !== null);
  const headline = winners.length > 1
    ? t("result.tie", { names: winners.map(nameOf).join(t("and")) })
    : isMe(winners[0]) ? t("result.youWin") : t("result.wins", { name: nameOf(winners[0]) });
  const list = el("ol", { class: "final" });
  balance.map((v, seat) => [Number(v), seat]).sort((a, b) => b[0] - a[0]).forEach(([value, seat]) => {
    list.append(el("li", { style: `color:${colour(seat)}`, "data-seat": seat }, [
      el("span", { text: nameOf(seat) }), el("b", { text: t("result.whists", { value: formatNumber(value, true) }) }),
    ]));
  });
  const section = el("section", { class: "result" }, [el("p", { class: "headline", text: headline }), list]);
  const rating = ratingLine(msg);
  if (rating) section.append(rating);
  const stopped = msg.stopped;
  if (stopped) {  // a table for friends finished early by agreement: how it was settled
    const lines = [t("result.stopped", { deals: Number(stopped.deals) || 0 })];
    if (stopped.deal_dropped) lines.push(t("result.stoppedDropped"));
    if (has(`result.missing.${stopped.missing}`)) lines.push(t(`result.missing.${stopped.missing}`));
    section.append(el("p", { class: "stopped-note", "data-stopped": "true", text: lines.join(" ") }));
  }
  return section;
}

/** Running totals as players write them: 2, 6, 10 -> "2.6.10", the whole history (the
 *  drawing squeezes a long one into its band rather than cut it). */
function runningTotals(values) {
  const out = [];
  let total = 0;
  for (const value of values) {
    if (!Number(value)) continue;
    total += Number(value);
    out.push(formatNumber(total));
  }
  return out.join(".");
}

function sheetSeries(sheet) {
  const deals = sheet.deals || [];
  const series = names().map((_, i) => ({
    pool: runningTotals(deals.map((d) => ((d.change || {}).pool || [])[i])),
    mountain: runningTotals(deals.map((d) => ((d.change || {}).mountain || [])[i])),
    whists: names().map((__, j) => runningTotals(deals.map((d) => (((d.change || {}).whists || [])[i] || [])[j]))),
  }));
  // Without a deal list, write the totals themselves.
  if (!deals.length) {
    names().forEach((_, i) => {
      const pool = (sheet.pool || [])[i];
      const mountain = (sheet.mountain || [])[i];
      series[i].pool = Number(pool) ? formatNumber(pool) : "";
      series[i].mountain = Number(mountain) ? formatNumber(mountain) : "";
      series[i].whists = names().map((__, j) => {
        const v = ((sheet.whists || [])[i] || [])[j];
        return Number(v) ? formatNumber(v) : "";
      });
    });
  }
  return series;
}

/** The classic pulya drawing: one area per player (you at the bottom) with the bands
 *  whists / pool / mountain from the edge in, and the circle in the middle with the rules.
 *  Three players: the sheet split in three; four: a rectangle split by both diagonals. */
export function pulyaDrawing(sheet, msg) {
  const NS = "http://www.w3.org/2000/svg";
  const four = names().length === 4;
  const two = names().length === 2;
  const Wd = 600;
  const Ht = 460;
  const cx = Wd / 2;
  const cy = four ? Ht / 2 : 250;
  const band = 38;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${Wd} ${Ht}`);
  svg.setAttribute("class", `pulya${four ? " four" : two ? " two" : ""}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("sheet.drawingLabel", { rules: rulesSummary(msg) }));
  const add = (tag, attrs, text, parent = svg) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    parent.append(node);
    return node;
  };
  add("rect", { x: 1, y: 1, width: Wd - 2, height: Ht - 2, class: "paper" });
  for (const inset of [band, band * 2]) {
    add("rect", { x: inset, y: inset, width: Wd - 2 * inset, height: Ht - 2 * inset, class: "rule" });
  }
  const series = sheetSeries(sheet);
  const SIZE = { pool: 24, mountain: 21, whists: 18, who: 15 };
  const SQUEEZE = 0.75; // a number's glyphs keep at least three quarters of their width
  const ROOM = { pool: 300, mountain: 170, whists: 200, who: 200 };
  const seatOf = (fill) => [0, 1, 2, 3].find((i) => colour(i) === fill);
  const write = (x, y, text, cls, rotate = 0, fill = null, on = null) => {
    if (!text) return;
    const attrs = { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "middle" };
    if (rotate) attrs.transform = `rotate(${rotate} ${x} ${y})`;
    if (fill) attrs.fill = fill;
    // A long history: squeezed into its band (at most to SQUEEZE of its width), past that
    // written smaller on two lines of the band, and past what two lines hold only its
    // latest totals after "…" (the whole history is in its label and on the history line
    // under the drawing when tapped): small, never unreadable.
    const room = ROOM[cls] || 220;
    const glyph = (SIZE[cls] || 18) * 0.58;
    if (cls === "who") { add("text", attrs, text); return; }
    let lines = [String(text)];
    if (String(text).length * glyph > room * 1.8) {
      const holds = Math.floor(room / (glyph * 0.7 * SQUEEZE)); // characters a smaller line holds
      let parts = String(text).split(".");
      let cut = false;
      while (parts.length > 2 && parts.join(".").length + (cut ? 1 : 0) > 2 * holds - 2) {
        parts = parts.slice(1);
        cut = true;
      }
      const half = Math.ceil(parts.length / 2);
      lines = [`${cut ? "…" : ""}${parts.slice(0, half).join(".")}.`, parts.slice(half).join(".")];
      attrs.style = `font-size:${Math.round((SIZE[cls] || 18) * 0.7)}px`;
      attrs["data-cut"] = String(cut);
    }
    const squeeze = (line, node) => {
      const size = (SIZE[cls] || 18) * (lines.length > 1 ? 0.7 : 1);
      if (line.length * size * 0.58 > room) {
        node.setAttribute("textLength", room);
        node.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    };
    const seat = seatOf(fill);
    const about = historyText(cls, seat, on, text);
    attrs.tabindex = "0";
    attrs.role = "button";
    attrs["aria-label"] = about;
    attrs["data-history"] = `${cls}-${seat}${on === null ? "" : `-${on}`}`;
    const node = add("text", attrs, lines.length > 1 ? undefined : text);
    if (lines.length > 1) {
      lines.forEach((line, k) => {
        const span = add("tspan", { x, dy: k === 0 ? "-0.55em" : "1.1em" }, line, node);
        squeeze(line, span);
      });
    } else squeeze(lines[0], node);
    add("title", {}, about, node);
    const show = () => { const line = document.getElementById("sheet-history"); if (line) line.textContent = about; };
    node.addEventListener("click", show);
    node.addEventListener("mouseenter", show);
    node.addEventListener("focus", show);
    node.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); show(); } });
  };
  const label = (x, y, key, rotate = 0, anchor = "start") => {
    const attrs = { x, y, class: "zone", "text-anchor": anchor, "dominant-baseline": "middle" };
    if (rotate) attrs.transform = `rotate(${rotate} ${x} ${y})`;
    add("text", attrs, t(`sheet.zone.${key}`));
  };
  if (two) {
    // Two players (the dummy writes nothing): the sheet split across, you below, the
    // other player above (upside down), each with whists / pool / mountain from the edge.
    add("line", { x1: 0, y1: cy, x2: Wd, y2: cy, class: "rule" });
    const [you, other] = series;
    write(cx, Ht - band / 2, you.whists[1], "whists", 0, colour(0), 1);
    write(cx, Ht - band * 1.5, you.pool, "pool", 0, colour(0));
    write(cx, Ht - band * 2.6, you.mountain, "mountain", 0, colour(0));
    write(cx - 150, Ht - band * 3.5, nameOf(0), "who", 0, colour(0));
    write(cx, band / 2, other.whists[0], "whists", 180, colour(1), 0);
    write(cx, band * 1.5, other.pool, "pool", 180, colour(1));
    write(cx, band * 2.6, other.mountain, "mountain", 180, colour(1));
    write(cx + 150, band * 3.5, nameOf(1), "who", 180, colour(1));
  } else if (four) {
    // Both diagonals, corner to corner: four triangles, one per player.
    add("line", { x1: 0, y1: 0, x2: Wd, y2: Ht, class: "rule" });
    add("line", { x1: Wd, y1: 0, x2: 0, y2: Ht, class: "rule" });
    // Each area's outer band split in three, one part per opponent.
    for (const x of [Wd * 0.4, Wd * 0.6]) {
      add("line", { x1: x, y1: Ht - band, x2: x, y2: Ht, class: "rule thin" });
      add("line", { x1: x, y1: 0, x2: x, y2: band, class: "rule thin" });
    }
    for (const y of [Ht * 0.4, Ht * 0.6]) {
      add("line", { x1: 0, y1: y, x2: band, y2: y, class: "rule thin" });
      add("line", { x1: Wd - band, y1: y, x2: Wd, y2: y, class: "rule thin" });
    }
    const others = (i) => [1, 2, 3].map((k) => (i + k) % 4);
    const spots = [0.27, 0.5, 0.73];
    // You (bottom), Misha (left, upwards), Sasha (top, upside down), Lena (right, downwards).
    const areas = [
      { rot: 0, whist: (s) => [Wd * s, Ht - band / 2], pool: [cx, Ht - band * 1.5], mountain: [cx, Ht - band * 2.6], who: [cx, Ht - band * 3.5] },
      { rot: -90, whist: (s) => [band / 2, Ht * (1 - s)], pool: [band * 1.5, cy], mountain: [band * 2.6, cy], who: [band * 3.6, cy] },
      { rot: 180, whist: (s) => [Wd * (1 - s), band / 2], pool: [cx, band * 1.5], mountain: [cx, band * 2.6], who: [cx, band * 3.5] },
      { rot: 90, whist: (s) => [Wd - band / 2, Ht * s], pool: [Wd - band * 1.5, cy], mountain: [Wd - band * 2.6, cy], who: [Wd - band * 3.6, cy] },
    ];
    areas.forEach((area, place) => {
      const i = (place + me()) % 4; // the seat drawn at this place: yours at the foot
      const s = series[i];
      if (!s) return;
      others(i).forEach((j, k) => {
        const [x, y] = area.whist(spots[k]);
        write(x, y, s.whists[j], "whists", area.rot, colour(i));
      });
      write(...area.pool, s.pool, "pool", area.rot, colour(i));
      write(...area.mountain, s.mountain, "mountain", area.rot, colour(i));
      write(...area.who, nameOf(i), "who", area.rot, colour(i));
    });
  } else {
    // Diagonals from the circle to the bottom corners and up to the top edge.
    add("line", { x1: cx, y1: cy, x2: 0, y2: Ht, class: "rule" });
    add("line", { x1: cx, y1: cy, x2: Wd, y2: Ht, class: "rule" });
    add("line", { x1: cx, y1: cy, x2: cx, y2: 0, class: "rule" });
    // Whist columns: each area's outer band split between its two opponents.
    add("line", { x1: cx, y1: Ht - band, x2: cx, y2: Ht, class: "rule thin" });
    add("line", { x1: 0, y1: cy - 20, x2: band, y2: cy - 20, class: "rule thin" });
    add("line", { x1: Wd - band, y1: cy - 20, x2: Wd, y2: cy - 20, class: "rule thin" });
    // The seats drawn at the foot (yours), on the left and on the right.
    const Y = me() % 3;
    const L = (Y + 1) % 3;
    const R = (Y + 2) % 3;
    const [you, left, right] = [series[Y], series[L], series[R]];
    // You (bottom): whists on the left player | on the right, pool above, mountain above that.
    write(cx / 2 + 20, Ht - band / 2, you.whists[L], "whists", 0, colour(Y), L);
    write(cx + cx / 2 - 20, Ht - band / 2, you.whists[R], "whists", 0, colour(Y), R);
    write(cx, Ht - band * 1.5, you.pool, "pool", 0, colour(Y));
    write(cx, Ht - band * 2.6, you.mountain, "mountain", 0, colour(Y));
    // The left player: bands along the left edge, written upwards.
    write(band / 2, cy - 110, left.whists[R], "whists", -90, colour(L), R);
    write(band / 2, cy + 90, left.whists[Y], "whists", -90, colour(L), Y);
    write(band * 1.5, cy, left.pool, "pool", -90, colour(L));
    write(band * 2.6, cy - 30, left.mountain, "mountain", -90, colour(L));
    // The right player: along the right edge, written downwards.
    write(Wd - band / 2, cy + 90, right.whists[Y], "whists", 90, colour(R), Y);
    write(Wd - band / 2, cy - 110, right.whists[L], "whists", 90, colour(R), L);
    write(Wd - band * 1.5, cy, right.pool, "pool", 90, colour(R));
    write(Wd - band * 2.6, cy - 30, right.mountain, "mountain", 90, colour(R));
    write(cx, Ht - band * 3.5, nameOf(Y), "who", 0, colour(Y));
    write(band * 3.7, cy + 60, nameOf(L), "who", -90, colour(L));
    write(Wd - band * 3.7, cy + 60, nameOf(R), "who", 90, colour(R));
  }
  // The zones named where the player reads them: his own area, at the foot of the sheet.
  label(band * 1.4, Ht - band / 2, "whists");
  label(band * 2.6, Ht - band * 1.5, "pool");
  label(band * 3.8, Ht - band * 2.5, "mountain");
  // The circle in the middle: the pool length, the rules, and any house rules.
  const house = (msg && msg.house_rules) || [];
  const circle = add("g", { class: `centre-rules${house.length ? " house" : ""}`, "data-house-rules": String(house.length) });
  add("title", {}, [t("sheet.rulesTitle", { rules: rulesSummary(msg) }), ...(house.length ? [t("sheet.houseRules"), ...houseRuleLines(msg)] : [])].join("\n"), circle);
  add("circle", { cx, cy, r: house.length ? 56 : 42, class: "centre-circle" }, undefined, circle);
  const rules = (msg && msg.rules) || {};
  const pool = rules.pool ?? "";
  const title = msg.rules_title || String(rules.preset || "");
  const lift = house.length ? 10 : 0;
  const circleText = (y, text, cls) => add("text", { x: cx, y, class: cls, "text-anchor": "middle", "dominant-baseline": "middle" }, text, circle);
  circleText(cy - 8 - lift, String(pool), "circle-pool");
  circleText(cy + 18 - lift, title, "circle-rules");
  if (house.length) circleText(cy + 34 - lift / 2, t("sheet.houseCount", { count: house.length }), "circle-house");
  return svg;
}

/** What an entry of the drawing holds, in words: "Misha's pool: 2, 4, 6". */
function historyText(cls, seat, on, text) {
  const values = String(text).split(".").join(", ");
  const whose = isMe(seat) ? t("possessive.You") : t("possessive.other", { name: nameOf(seat) });
  if (cls === "whists") return t("sheet.history.whists", { whose, on: nameOf(on), values });
  return t(`sheet.history.${cls}`, { whose, values });
}

/** A sentence ends with one stop: the rules' own text may already end with one. */
const endSentence = (text) => (/[.!?…]$/.test(text.trim()) ? text : `${text}.`);

/** Under the totals: the rules of the game, and each house rule with its explanation. */
function rulesBlock(msg) {
  const house = (msg && msg.house_rules) || [];
  const block = el("section", { class: "rules-block" }, [
    el("p", { class: "rules-line" }, [el("b", { text: t("sheet.rulesLabel") }), endSentence(`${rulesSummary(msg)}${msg.rules_doc ? ` — ${msg.rules_doc}` : ""}`)]),
  ]);
  if (house.length) {
    const list = el("ul", { class: "house-list" });
    for (const h of house) {
      list.append(el("li", { "data-option": h.name }, [
        el("b", { text: `${String(h.label || h.name).replace(/_/g, " ")}: ${showOption(h.value)}` }),
        ` (${msg.rules_title || t("sheet.preset")}: ${showOption(h.preset_value)}) — ${h.doc}`,
      ]));
    }
    block.append(el("p", { class: "rules-line" }, [el("b", { text: t("sheet.houseRules") })]), list);
  }
  return block;
}

export function totalsTable(sheet) {
  const table = el("table", { class: "totals" });
  const head = el("tr", {}, [el("th", { text: "" }), el("th", { text: t("sheet.pool") }), el("th", { text: t("sheet.mountain") })]);
  names().forEach((_, j) => head.append(el("th", { text: t("sheet.whistsOnHead", { name: nameOf(j) }) })));
  head.append(el("th", { text: t("sheet.balance") }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  names().forEach((name, i) => {
    const row = el("tr", { "data-seat": i }, [
      el("th", { style: `color:${colour(i)}`, text: name }),
      el("td", { text: formatNumber((sheet.pool || [])[i]) }),
      el("td", { text: formatNumber((sheet.mountain || [])[i]) }),
    ]);
    names().forEach((__, j) => {
      row.append(el("td", { text: i === j ? "·" : formatNumber(((sheet.whists || [])[i] || [])[j]) }));
    });
    row.append(el("td", { class: "balance", text: formatNumber((sheet.balance || [])[i], true) }));
    body.append(row);
  });
  table.append(body);
  return table;
}
