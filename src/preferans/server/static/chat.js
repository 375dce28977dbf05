/* The chat of a table for friends: a CHAT chip in the top band opens a small panel with the
 * messages (shown as text, never as markup; the table keeps the last 200 and gives them to a
 * page opened again) and a line to write one (200 characters at most; the server paces them). */
import { t } from "./i18n.js";
import { send } from "./socket.js";
import { app, colour, isMe, nameOf } from "./state.js";
import { $, el } from "./util.js";

const MOST = 200;
const KEPT = 200; // the messages the panel keeps (as many as the table does)
let built = false;
let open = false;
let unread = 0;

/** Put the chip and the panel on the page once the state says the table has friends. */
export function renderChat() {
  const msg = app.state;
  if (built || !msg || msg.stand_in === undefined) return;
  built = true;
  const chip = el("button", {
    id: "chat-button", class: "chip chat-chip", type: "button", "aria-expanded": "false",
    "aria-controls": "chat", text: t("chat.button"), onclick: () => toggle(),
  });
  $("hint-button").after(chip);
  const log = el("ol", { id: "chat-log", class: "chat-log", "aria-live": "polite" });
  const input = el("input", {
    id: "chat-text", type: "text", maxlength: String(MOST), autocomplete: "off",
    "aria-label": t("chat.placeholder"), placeholder: t("chat.placeholder"),
  });
  const form = el("form", { class: "chat-form" }, [
    input, el("button", { type: "submit", class: "chat-send", text: t("chat.send") }),
  ]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text: text.slice(0, MOST) })) input.value = "";
  });
  if (msg.seat === null) form.hidden = true; // a spectator reads only
  const panel = el("aside", { id: "chat", class: "chat", hidden: "", "aria-label": t("chat.title") }, [
    el("h2", { text: t("chat.title") }), log, form,
  ]);
  $("app").append(panel);
}

function toggle(force = !open) {
  open = force;
  $("chat").hidden = !open;
  $("chat-button").setAttribute("aria-expanded", String(open));
  if (open) {
    unread = 0;
    showUnread();
    const input = $("chat-text");
    if (input && !$("chat").querySelector("form").hidden) input.focus();
  }
}

function showUnread() {
  const chip = $("chat-button");
  if (chip) chip.textContent = unread ? `${t("chat.button")} · ${unread}` : t("chat.button");
}

/** The chat so far, sent when the page opens (after a reload too): shown, not counted as
 *  unread. */
export function onChatHistory(message) {
  renderChat();
  const log = $("chat-log");
  if (!log) return;
  log.replaceChildren();
  for (const said of message.messages || []) line(log, said);
  log.scrollTop = log.scrollHeight;
}

function line(log, message) {
  const seat = Number(message.seat);
  const who = isMe(seat) ? t("chat.you") : (message.name || nameOf(seat));
  log.append(el("li", { "data-seat": seat }, [
    el("b", { style: `color:${colour(seat)}`, text: `${who}: ` }),
    el("span", { text: String(message.text || "") }),
  ]));
  while (log.children.length > KEPT) log.firstChild.remove();
}

/** A chat message from the server. */
export function onChat(message) {
  renderChat();
  const log = $("chat-log");
  if (!log) return;
  line(log, message);
  log.scrollTop = log.scrollHeight;
  if (!open) {
    unread += 1;
    showUnread();
  }
}
