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

/** The name a seat's plate shows: at a table for friends, a human's seat the stand-in
 *  plays while he is away says so ("Misha (computer for Anna)"). */
export function plateName(seat) {
  const msg = app.state;
  if (msg && (msg.stand_in || []).includes(seat)) {
    return t("plate.standIn", { computer: localName(msg.stand_in_name || "Misha"), name: nameOf(seat) });
  }
  return nameOf(seat);
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

/** The seat this page plays and sees: the state's ``seat`` (0 against the computer; at a
 *  table for friends each browser its own). */
export function me() {
  const seat = app.state && app.state.seat;
  return seat === null || seat === undefined ? 0 : Number(seat);
}

/** A seat's place around the table counted clockwise from this page's own (0: the bottom);
 *  the page's seat boxes are numbered by place: #seat-0 is always the bottom. */
export function slotOf(seat) {
  const count = names().length;
  if (seat === null || seat === undefined || Number(seat) >= count) return seat;
  return (Number(seat) - me() + count) % count;
}

/** The id of the box a seat is drawn in. */
export const boxId = (seat) => `seat-${slotOf(seat)}`;

/** Whether the page only watches (a spectator of a table for friends: no seat). */
export const watching = () => Boolean(app.state && app.state.seat === null);

/** Whether a seat is this page's own. */
export const isMe = (seat) => seat !== null && seat !== undefined && !watching() && Number(seat) === me();

/** "your" or "Misha's". */
export function possessive(seat) {
  return isMe(seat) ? t("possessive.you") : t("possessive.other", { name: nameOf(seat) });
}

/** Where a seat sits on the screen: you at the bottom, then clockwise (the two-player
 *  game's dummy, seat 2, at the top). */
export function positionOf(seat) {
  const around = names().length === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "left", "right"];
  const count = names().length;
  if (seat >= count) return "top";
  return around[(Number(seat) - me() + count) % count] || "top";
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
  return !watching() && obs.to_act === me() && !msg.deal_over && !msg.game_over && legalTokens(obs).length > 0;
}
