/* The in-game help on "?": an overlay at the table (the game stays where it is) on how to
 * play here, the four difficulty levels, strategy tips, the rules of this game and the
 * keyboard; with a link to the printable rules guide.  Every word from the catalogue. */
import { t } from "./i18n.js";
import { render } from "./channel.js";
import { app, dummySeat, names, nameOf, positionOf, watching, me } from "./state.js";
import { rulesSummary } from "./words.js";
import { $, el } from "./util.js";

const SECTIONS = [
  ["table", ["table.seats", "table.band", "table.bid", "table.talon", "table.defend", "table.play", "table.sheet", "table.menu"]],
  ["levels", ["levels.easy", "levels.normal", "levels.hard", "levels.crazy"]],
  ["tips", ["tips.count", "tips.allpass", "tips.voids", "tips.whist", "tips.open", "tips.misere", "tips.stakes"]],
  ["rules", ["rules.sochi", "rules.leningrad", "rules.rostov", "rules.pool", "rules.house"]],
  ["keys", ["keys.arrows", "keys.enter", "keys.tab", "keys.escape", "keys.help"]],
];

let returnFocus = null;

export function openHelp() {
  if (!app.ui.helpOpen) returnFocus = document.activeElement;
  app.ui.helpOpen = true;
  app.ui.menuOpen = false;
}

export function closeHelp() {
  app.ui.helpOpen = false;
  const back = returnFocus;
  returnFocus = null;
  if (back && document.contains(back)) setTimeout(() => back.focus({ preventScroll: true }), 0);
}

/** The rules the table is playing, in short (the server's rules_brief, in the page's
 *  language): the cards, the bid ladder and misère, the whist quotas, the values, all-pass,
 *  the sheet. */
function briefSection() {
  const lines = (app.state && app.state.rules_brief) || [];
  if (!lines.length) return null;
  const list = el("ul", { class: "help-list help-brief" });
  lines.forEach((line, i) => list.append(el("li", { "data-brief": i, text: line })));
  return el("section", { class: "help-section", "data-section": "brief" }, [
    el("h3", { text: t("help.head.brief") }),
    el("p", { class: "help-now" }, [el("b", { text: t("help.thisGame") }), ` ${rulesSummary(app.state)}`]),
    list,
  ]);
}

/** The printable guide, told which rules the table plays (its opening line compares). */
export function guideHref(msg = app.state) {
  const rules = (msg && msg.rules) || {};
  const query = new URLSearchParams({ lang: document.documentElement.lang || "en" });
  if (rules.preset) query.set("preset", rules.preset);
  if (rules.pool) query.set("pool", rules.pool);
  return `/guide?${query}`;
}

/** Who sits where at this table, by their names as the plates show them: the neighbours
 *  at a table for friends are the friends, not the computer's Misha and Lena. */
function seatsText() {
  const around = {};
  names().forEach((_, seat) => { around[positionOf(seat)] = nameOf(seat); });
  if (watching()) {
    const others = names().map((_, seat) => seat).filter((seat) => seat !== me()).map(nameOf);
    return t("help.table.seatsWatch", { bottom: nameOf(me()), others: others.join(", ") });
  }
  if (dummySeat() !== null) return t("help.table.seats2", { other: around.left || around.right || around.top });
  if (names().length === 4) return t("help.table.seats4", around);
  return t("help.table.seats", around);
}

function section(key, items) {
  const list = el("ul", { class: "help-list" });
  for (const item of items) {
    list.append(el("li", { "data-help": item, text: item === "table.seats" ? seatsText() : t(`help.${item}`) }));
  }
  return el("section", { class: "help-section", "data-section": key }, [
    el("h3", { text: t(`help.head.${key}`) }),
    key === "rules" && app.state ? el("p", { class: "help-now" }, [el("b", { text: t("help.thisGame") }), ` ${rulesSummary(app.state)}`]) : null,
    list,
  ]);
}

export function renderHelp() {
  const overlay = $("help-overlay");
  if (!overlay) return;
  const open = app.ui.helpOpen;
  const wasOpen = !overlay.hidden;
  overlay.hidden = !open;
  $("help-button").setAttribute("aria-expanded", String(open));
  if (!open) return;
  if (wasOpen && overlay.querySelector(".help-section")) return; // drawn once per opening
  const body = $("help-body");
  body.replaceChildren(
    el("div", { class: "help-top" }, [
      el("h2", { id: "help-title", text: t("help.title") }),
      el("button", {
        type: "button", class: "action", "data-action": "CLOSE HELP", text: t("button.close"),
        onclick: () => { closeHelp(); render(); },
      }),
    ]),
    el("p", { class: "help-intro", text: t("help.intro") }),
    section(...SECTIONS[0]),
    briefSection(),
    ...SECTIONS.slice(1).map(([key, items]) => section(key, items)),
    el("p", { class: "help-guide" }, [
      el("a", { href: guideHref(), target: "_blank", rel: "noopener", id: "help-guide-link", text: t("help.guideLink") }),
    ]),
  );
  body.querySelector("button").focus({ preventScroll: true });
}

export function initHelp() {
  $("help-button").addEventListener("click", () => {
    if (app.ui.helpOpen) closeHelp();
    else openHelp();
    render();
  });
  $("help-overlay").addEventListener("click", (event) => {
    if (event.target === event.currentTarget) { closeHelp(); render(); }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    event.preventDefault();
    if (app.ui.helpOpen) closeHelp();
    else openHelp();
    render();
  });
}
