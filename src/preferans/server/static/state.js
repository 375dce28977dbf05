/* The table's state: the latest "state" message from the server and the little local UI
 * state around it (chosen discards, the open sheet, the menu), with the questions every
 * module asks of it (who sits where, whose turn it is). */
import { has, t } from "./i18n.js";
import { legalTokens } from "./util.js";

const SOUND_KEY = "preferans.sound";
const DEFAULT_COLOURS = ["#2e7d32", "#1565c0", "#c62828", "#ef6c00"];

export const app = {
  gameId: "",
  state: null, // the latest "state" message from the server
  ui: {
    selected: new Set(), // cards chosen for the discard
    focusCard: null, // the card token holding the keyboard focus in a hand
    sheetOpen: false,
    sheetTab: "pulya",
    sheetDismissed: false, // the player closed the after-deal sheet with its close button
    menuOpen: false,
    helpOpen: false,
    message: null, // {text, kind: "why"|"error"|"info"} shown on the status line
    gather: null, // {cards, winner, moving} the finished trick being gathered
    pendingShake: null, // the card sent last, shaken if the server refuses it
    drag: null,
    connected: null, // true while the socket is open, false once it closed (null: not yet)
    sound: localStorage.getItem(SOUND_KEY) !== "off",
  },
};

export function setSound(on) {
  app.ui.sound = on;
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

/** Each seat's colour, as the server sends them (three or four players). */
export const colour = (seat) => ((app.state && app.state.colours) || DEFAULT_COLOURS)[seat];

/** A name as the server sends it ("Misha") in the page's language ("Миша"). */
const localName = (name) => (has(`player.${name}`) ? t(`player.${name}`) : name);

export function names() {
  const sent = app.state && app.state.names;
  return sent ? sent.map(localName) : [t("name.you"), t("name.left"), t("name.right")];
}

/** The two-player game's dummy seat (2), or null. */
export function dummySeat() {
  const dummy = app.state && app.state.dummy;
  return dummy === null || dummy === undefined ? null : Number(dummy);
}

export function nameOf(seat) {
  if (seat !== null && seat !== undefined && Number(seat) === dummySeat()) {
    return (app.state && app.state.dummy_name && localName(app.state.dummy_name)) || t("name.dummy");
  }
  return names()[seat] ?? t("name.seat", { seat });
}

/** A player as the object of a phrase: "+15 on you", «+15 на Мишу» (whom.<name>). */
export function whom(seat) {
  const sent = app.state && app.state.names;
  const name = sent && sent[seat];
  return name && has(`whom.${name}`) ? t(`whom.${name}`) : nameOf(seat);
}

/** "your" or "Misha's". */
export function possessive(seat) {
  return seat === 0 ? t("possessive.you") : t("possessive.other", { name: nameOf(seat) });
}

/** Where a seat sits on the screen: you at the bottom, then clockwise. */
export function positionOf(seat) {
  const around = names().length === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "left", "right"];
  return around[seat] || "top";
}

/** With four players the dealer sits the deal out. */
export function sitsOut(seat, obs) {
  return names().length === 4 && obs && obs.dealer === seat;
}

/** The seats drawn on the table: the players, and the two-player game's dummy. */
export function seats() {
  const list = names().map((_, seat) => seat);
  const dummy = dummySeat();
  if (dummy !== null && !list.includes(dummy)) list.push(dummy);
  return list;
}

/** Is the human to decide now (a bid, a call, or a card of a hand it controls)?  Not while
 *  the server is out of reach: nothing could be sent. */
export function myTurn(msg) {
  if (!msg || !msg.observation || app.ui.connected === false) return false;
  const obs = msg.observation;
  return obs.to_act === 0 && !msg.deal_over && !msg.game_over && legalTokens(obs).length > 0;
}
