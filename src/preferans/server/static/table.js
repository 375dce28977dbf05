/* The Preferans table: everything the player sees and touches.
 *
 * One idea drives the file: the server sends a complete "state" message after every
 * action, and render() draws the whole table from it plus a little local UI state
 * (selected discards, the open sheet, the menu).  The server is the only judge of
 * legality: the client lights what observation.legal lists and explains refusals with
 * the server's why_not reasons.  Plain modern JavaScript, no build step.
 */
(() => {
  "use strict";

  // ---------------------------------------------------------------- constants
  const DEFAULT_NAMES = ["You", "Misha", "Lena"];
  const DEFAULT_COLOURS = ["#2e7d32", "#1565c0", "#c62828", "#ef6c00"];
  /** Each seat's colour, as the server sends them (three or four players). */
  const COLOURS = new Proxy([], {
    get(target, key) {
      const colours = (app.state && app.state.colours) || DEFAULT_COLOURS;
      return key in colours ? colours[key] : Reflect.get(colours, key);
    },
  });
  const SUITS = ["S", "C", "D", "H"];
  const SUIT_SYMBOL = { S: "♠", C: "♣", D: "♦", H: "♥" };
  const SUIT_NAME = { S: "spades", C: "clubs", D: "diamonds", H: "hearts" };
  const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
  const RANK_NAME = {
    7: "seven", 8: "eight", 9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
  };
  const STRAINS = ["S", "C", "D", "H", "NT"];
  const LEVELS = [6, 7, 8, 9, 10];
  const CALL_WORDS = {
    PASS: "Pass", WHIST: "Whist", HALF: "Half-whist", OPEN: "Open", CLOSED: "Closed",
    MISERE: "Misère", RESIGN: "Resigns", REFUSE: "Refuses the talon", ALONE: "Alone",
    INVITE: "Invites the dealer", ACCEPT: "Accepts", DECLINE: "Declines", SEE: "Looks at the cards",
    POOL: "Pool", HILL: "Off the mountain",
  };
  /** Button labels of calls that have no control of their own (see extraButtons). */
  const BUTTON_WORDS = {
    SEE: "SEE (look at your cards)", "BLIND PASS": "BLIND PASS", POOL: "POOL (write to the pool)",
    HILL: "HILL (off your mountain)", ALONE: "ALONE", INVITE: "INVITE THE DEALER",
    ACCEPT: "ACCEPT", DECLINE: "DECLINE", REFUSE: "REFUSE THE TALON", RESIGN: "RESIGN",
  };
  const SOUND_KEY = "preferans.sound";
  const GATHER_SHOW_MS = 450;
  const GATHER_MOVE_MS = 320;

  // ------------------------------------------------------------------ state
  const app = {
    gameId: "",
    state: null, // the latest "state" message from the server
    ws: null,
    retry: 0,
    ui: {
      selected: new Set(), // cards chosen for the discard
      focusCard: null, // the card token holding the keyboard focus in a hand
      sheetOpen: false,
      sheetTab: "pulya",
      sheetDismissed: false, // the player closed the after-deal sheet with CLOSE
      menuOpen: false,
      message: null, // {text, kind: "why"|"error"|"info"} shown on the status line
      gather: null, // {cards, winner, moving} the finished trick being gathered
      pendingShake: null, // the card sent last, shaken if the server refuses it
      drag: null,
      sound: localStorage.getItem(SOUND_KEY) !== "off",
    },
  };

  // ----------------------------------------------------------------- helpers
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs = {}, children = []) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key === "style") node.setAttribute("style", value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of [].concat(children)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** "QH" -> {rank: "Q", suit: "H", order: 29} */
  function parseCard(token) {
    const text = String(token).toUpperCase().replace("T", "10");
    const suit = text.slice(-1);
    const rank = text.slice(0, -1);
    return { rank, suit, order: SUITS.indexOf(suit) * 8 + RANKS.indexOf(rank) };
  }

  const cardName = (token) => {
    const { rank, suit } = parseCard(token);
    return `${RANK_NAME[rank] || rank} of ${SUIT_NAME[suit] || suit}`;
  };

  const isCardToken = (token) => /^(7|8|9|10|J|Q|K|A)[SCDH]$/i.test(String(token));

  /** How a call reads for people: "6S" -> "6♠", "PASS" -> "Pass". */
  function callText(token) {
    if (token === null || token === undefined) return "";
    const text = String(token).toUpperCase();
    if (CALL_WORDS[text]) return CALL_WORDS[text];
    const tricks = /^TRICKS (\d+)$/.exec(text);
    if (tricks) return `Any ${tricks[1]}`;
    const blind = /^BLIND (.+)$/.exec(text);
    if (blind) return `Blind ${blind[1] === "PASS" ? "pass" : callText(blind[1])}`;
    const hand = /^(.+) HAND$/.exec(text);
    if (hand) return `${callText(hand[1])} hand`;
    const bid = /^(6|7|8|9|10)(S|C|D|H|NT)$/.exec(text);
    if (bid) return bid[1] + (bid[2] === "NT" ? "NT" : SUIT_SYMBOL[bid[2]]);
    if (text.startsWith("DISCARD")) return "Discarded";
    const second = /^SECOND (\d+) (\d+)$/.exec(text);
    if (second) {
      const time = second[2] === "0" ? "no time limit" : `final lap after ${second[2]} deals`;
      return `Pool ${second[1]}, ${time}`;
    }
    const look = /^LOOK (\d)$/.exec(text);
    if (look) return `Looks at ${nameOf(Number(look[1]))}'s hand`;
    if (isCardToken(text)) {
      const { rank, suit } = parseCard(text);
      return rank + SUIT_SYMBOL[suit];
    }
    return text;
  }

  /** The phase as a lower-case word: "auction", "discard", …, "defence_mode", "play", "done". */
  const phaseOf = (obs) => String((obs && obs.phase) || "").toLowerCase().replace(/[\s-]+/g, "_");

  function names() {
    return (app.state && app.state.names) || DEFAULT_NAMES;
  }

  /** The two-player game's dummy seat (2), or null. */
  function dummySeat() {
    const dummy = app.state && app.state.dummy;
    return dummy === null || dummy === undefined ? null : Number(dummy);
  }

  function nameOf(seat) {
    if (seat !== null && seat !== undefined && Number(seat) === dummySeat()) {
      return (app.state && app.state.dummy_name) || "Dummy";
    }
    return names()[seat] ?? `Seat ${seat}`;
  }

  function possessive(seat) {
    return seat === 0 ? "your" : `${nameOf(seat)}'s`;
  }

  /** Where a seat sits on the screen: you at the bottom, then clockwise. */
  function positionOf(seat) {
    const around = names().length === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "left", "right"];
    return around[seat] || "top";
  }

  /** With four players the dealer sits the deal out. */
  function sitsOut(seat, obs) {
    return names().length === 4 && obs && obs.dealer === seat;
  }

  /** The seats drawn on the table: the players, and the two-player game's dummy. */
  const seats = () => {
    const list = names().map((_, seat) => seat);
    const dummy = dummySeat();
    if (dummy !== null && !list.includes(dummy)) list.push(dummy);
    return list;
  };

  const isDiscarding = (phase) => phase === "discard" || phase === "exchange";

  function showOption(value) {
    if (Array.isArray(value)) return value.join("–");
    if (value === true) return "yes";
    if (value === false) return "no";
    if (value === null || value === undefined) return "—";
    return String(value);
  }

  /** The rules in words: "Sochi, pulya 10, four players" and the house rules changed. */
  function rulesSummary(msg) {
    const rules = (msg && msg.rules) || {};
    const parts = [msg.rules_title || String(rules.preset || "")];
    if (rules.pool !== undefined) parts.push(`pulya ${rules.pool}`);
    if (names().length === 4) parts.push("four players");
    return parts.join(", ");
  }

  function houseRuleLines(msg) {
    return ((msg && msg.house_rules) || []).map((h) => `${h.name}: ${showOption(h.value)} (preset: ${showOption(h.preset_value)}) — ${h.doc}`);
  }

  /** Exposed hands as {seat: [cards]} whatever the key type the server used. */
  function exposedHands(obs) {
    const out = {};
    const exposed = (obs && obs.exposed) || {};
    if (Array.isArray(exposed)) {
      exposed.forEach((cards, seat) => {
        if (Array.isArray(cards) && cards.length) out[seat] = cards;
      });
    } else {
      for (const [seat, cards] of Object.entries(exposed)) {
        if (Array.isArray(cards)) out[Number(seat)] = cards;
      }
    }
    return out;
  }

  function sheetOf(msg) {
    if (!msg) return null;
    return (msg.observation && msg.observation.sheet) || msg.sheet || null;
  }

  function formatNumber(value, signed = false) {
    const n = Number(value) || 0;
    const rounded = Math.round(n * 10) / 10;
    const text = Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
    if (!signed) return text.replace("-", "−");
    if (rounded > 0) return `+${text}`;
    return text.replace("-", "−");
  }

  function legalTokens(obs) {
    return (obs && Array.isArray(obs.legal) ? obs.legal : []).map(String);
  }

  /** Is the human to decide now (a bid, a call, or a card of a hand it controls)? */
  function myTurn(msg) {
    if (!msg || !msg.observation) return false;
    const obs = msg.observation;
    return obs.to_act === 0 && !msg.deal_over && !msg.game_over && legalTokens(obs).length > 0;
  }

  // ------------------------------------------------------------------- sound
  const sound = (() => {
    let ctx = null;
    const ensure = () => {
      if (!ctx) {
        const Ctx = window.AudioContext || window.webkitAudioContext;
        if (!Ctx) return null;
        ctx = new Ctx();
      }
      if (ctx.state === "suspended") ctx.resume();
      return ctx;
    };
    function tone(freq, start, length, type = "sine", gain = 0.12) {
      const audio = ensure();
      if (!audio) return;
      const t0 = audio.currentTime + start;
      const osc = audio.createOscillator();
      const amp = audio.createGain();
      osc.type = type;
      osc.frequency.setValueAtTime(freq, t0);
      amp.gain.setValueAtTime(0.0001, t0);
      amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
      amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
      osc.connect(amp).connect(audio.destination);
      osc.start(t0);
      osc.stop(t0 + length + 0.02);
    }
    function click() {
      const audio = ensure();
      if (!audio) return;
      const length = 0.05;
      const buffer = audio.createBuffer(1, Math.floor(audio.sampleRate * length), audio.sampleRate);
      const data = buffer.getChannelData(0);
      for (let i = 0; i < data.length; i += 1) {
        data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / data.length, 3);
      }
      const src = audio.createBufferSource();
      const amp = audio.createGain();
      amp.gain.value = 0.25;
      src.buffer = buffer;
      src.connect(amp).connect(audio.destination);
      src.start();
    }
    const effects = {
      turn: () => { tone(660, 0, 0.12); tone(880, 0.1, 0.18); },
      card: () => click(),
      trick: () => { tone(330, 0, 0.1, "triangle"); tone(247, 0.07, 0.16, "triangle"); },
      scored: () => { tone(523, 0, 0.14); tone(659, 0.12, 0.14); tone(784, 0.24, 0.3); },
      error: () => tone(180, 0, 0.18, "square", 0.05),
    };
    return {
      play(name) {
        if (!app.ui.sound || !effects[name]) return;
        try { effects[name](); } catch (err) { /* sound is a nicety, never an error */ }
      },
      unlock() { if (app.ui.sound) { try { ensure(); } catch (err) { /* ignore */ } } },
    };
  })();

  // -------------------------------------------------------------- connection
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(app.gameId)}`);
    app.ws = ws;
    ws.addEventListener("open", () => {
      app.retry = 0;
      showConnection(null);
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch (err) { return; }
      if (msg.type === "state") onState(msg);
      else if (msg.type === "error") onError(msg);
    });
    ws.addEventListener("close", (event) => {
      if (app.ws !== ws) return;
      if (event.code === 4403) {
        showConnection("This game belongs to another browser.", true);
        return;
      }
      if (event.code === 4404 || event.code === 1008) {
        showConnection("This game does not exist. Start a new one from the settings.", true);
        return;
      }
      app.retry = Math.min(app.retry + 1, 6);
      showConnection("Connection lost — reconnecting…");
      setTimeout(connect, 300 * 2 ** app.retry);
    });
  }

  function send(msg) {
    if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
      setMessage("Not connected to the server yet — try again in a moment.", "error");
      return false;
    }
    app.ws.send(JSON.stringify(msg));
    return true;
  }

  function sendAction(token) {
    app.ui.message = null;
    send({ type: "action", token });
  }

  function showConnection(text, fatal = false) {
    const box = $("connection");
    box.hidden = !text;
    box.replaceChildren();
    if (!text) return;
    box.append(el("span", { text }));
    if (fatal) box.append(" ", el("a", { href: "/", text: "Settings" }));
  }

  // ---------------------------------------------------------- state changes
  function onState(msg) {
    const previous = app.state;
    app.state = msg;
    const obs = msg.observation || {};
    const event = msg.event || null;
    const ui = app.ui;
    ui.pendingShake = null;
    if (!isDiscarding(phaseOf(obs)) || obs.to_act !== 0) ui.selected.clear();
    if (event && event.seat !== 0 && ui.message && ui.message.kind !== "info") ui.message = null;
    if (event && event.seat === 0) ui.message = null;

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
    if (msg.deal_over && !(previous && previous.deal_over) && !ui.sheetDismissed) {
      ui.sheetOpen = true;
    }
    if (!msg.deal_over && previous && previous.deal_over) ui.sheetOpen = false;
    if (msg.game_over) ui.sheetOpen = true;
    if (myTurn(msg) && !myTurn(previous)) sound.play("turn");
    render();
  }

  function onError(msg) {
    const text = msg.message || "The server refused that.";
    setMessage(text, "error");
    sound.play("error");
    if (app.ui.pendingShake) shake(app.ui.pendingShake);
    app.ui.pendingShake = null;
  }

  function setMessage(text, kind = "info") {
    app.ui.message = text ? { text, kind } : null;
    renderStatus();
  }

  function startGather(obs) {
    const tricks = obs.tricks || [];
    const last = tricks[tricks.length - 1];
    if (!last) return;
    const gather = { cards: last.cards || [], winner: last.winner, moving: false };
    app.ui.gather = gather;
    setTimeout(() => {
      if (app.ui.gather !== gather) return;
      gather.moving = true;
      renderTrick();
      setTimeout(() => {
        if (app.ui.gather !== gather) return;
        app.ui.gather = null;
        renderTrick();
      }, GATHER_MOVE_MS);
    }, GATHER_SHOW_MS);
  }

  // ------------------------------------------------------------------ render
  function render() {
    if (app.ui.drag) return; // never pull the card from under the finger; redrawn on drop
    renderStatus();
    renderChips();
    for (const seat of seats()) renderSeat(seat);
    renderTalon();
    renderTrick();
    renderPanel();
    renderSheet();
    renderMenu();
    document.body.dataset.phase = phaseOf(app.state && app.state.observation);
    document.body.dataset.myTurn = String(myTurn(app.state));
    focusHandOnTurn();
  }

  /** On the human's turn to play, put the keyboard focus in the hand it plays from
   *  (unless the player is busy elsewhere: the menu, the sheet, a button). */
  function focusHandOnTurn() {
    const msg = app.state;
    if (!myTurn(msg) || phaseOf(msg.observation) !== "play" || app.ui.sheetOpen) return;
    const active = document.activeElement;
    if (active && active !== document.body && !active.closest(".hand")) return;
    const seat = msg.observation.hand_to_play ?? 0;
    const card = document.querySelector(`#seat-${seat} .hand [tabindex="0"]`);
    if (card && card !== active) card.focus({ preventScroll: true });
  }

  // --- the top band --------------------------------------------------------
  /** House option half_whist_played: the human's half-whist stood and is to be played. */
  function playedHalfWhist(msg) {
    const obs = msg.observation || {};
    return Boolean((msg.rules || {}).half_whist_played)
      && (obs.defence || []).some(([seat, call]) => seat === 0 && call === "HALF");
  }

  function statusText() {
    const msg = app.state;
    const ui = app.ui;
    if (ui.message) return ui.message;
    if (!msg) return { text: "Connecting…", kind: "info" };
    const obs = msg.observation || {};
    const phase = phaseOf(obs);
    if (msg.game_over) return { text: "The game is over — see the result.", kind: "info" };
    if (msg.paused) return { text: "Paused. Open the menu ☰ to resume.", kind: "info" };
    if (msg.deal_over) return { text: "The deal is over: read the sheet, then NEXT DEAL.", kind: "info" };
    if (msg.thinking !== null && msg.thinking !== undefined && msg.thinking !== 0) {
      return { text: `${nameOf(msg.thinking)} is thinking…`, kind: "info" };
    }
    const actor = obs.to_act;
    if (myTurn(msg)) {
      const hand = obs.hand_to_play;
      const texts = {
        auction: obs.hand_hidden
          ? "Your cards are face down: SEE them, bid blind or pass blind."
          : "Your bid: choose from the grid.",
        discard: "Tap two cards to discard, then DISCARD.",
        contract: "Declare your contract: your bid or higher.",
        defence: "Whist or pass?",
        defence_mode: dummySeat() !== null
          ? "You whist: open the dummy (OPEN) or defend ALONE?"
          : playedHalfWhist(msg)
            ? "Your half-whist is played out: you whist alone for half the quota, OPEN or CLOSED?"
            : "You whist alone: play OPEN or CLOSED?",
        name: "Name a game from your Rogue list.",
        write: "Where do your points go: POOL or HILL?",
        invite: "Play ALONE or INVITE the dealer?",
        halftime: "Half-time: your hill is the largest. Set the second half's pool and time.",
        exchange: "Before the all-pass: tap two cards to lay down as the talon, then DISCARD.",
        dealer_whist: obs.looked
          ? "You dealt: now WHIST (you play both defending hands) or PASS."
          : "You dealt: you may look at one defender's hand, then whist or pass.",
        play: hand !== undefined && hand !== null && hand !== 0
          ? `Your turn: play a card for ${nameOf(hand)}'s hand.`
          : "Your turn: play a card.",
      };
      return { text: texts[phase] || "Your turn.", kind: "turn" };
    }
    if (actor === null || actor === undefined) return { text: "", kind: "info" };
    const verbs = {
      auction: "to bid", discard: "to discard", contract: "to declare",
      defence: "to whist or pass", defence_mode: "to choose open or closed", play: "to play",
      exchange: "to exchange two cards with the talon", dealer_whist: "(the dealer) to look and decide",
      name: "to name a game", write: "to write the points", invite: "to play alone or invite",
    };
    if (sitsOut(0, obs)) {
      return { text: `You deal this time and sit out — ${nameOf(actor)} ${verbs[phase] || "to act"}…`, kind: "info" };
    }
    return { text: `${nameOf(actor)} ${verbs[phase] || "to act"}…`, kind: "info" };
  }

  function renderStatus() {
    const status = $("status");
    const { text, kind } = statusText();
    status.textContent = text;
    status.dataset.kind = kind;
  }

  function renderChips() {
    const msg = app.state;
    const chip = $("score-chip");
    chip.replaceChildren();
    const sheet = sheetOf(msg);
    const balance = (sheet && sheet.balance) || names().map(() => 0);
    names().forEach((name, seat) => {
      chip.append(el("span", {
        class: "score", style: `color:${COLOURS[seat]}`, "data-seat": seat,
        title: `${name}: ${formatNumber(balance[seat], true)} whists`,
      }, [el("span", { class: "score-name", text: name }), " ", formatNumber(balance[seat], true)]));
    });

    const contract = $("contract-chip");
    contract.replaceChildren();
    if (!msg) return;
    const obs = msg.observation || {};
    const phase = phaseOf(obs);
    const kind = String(obs.kind || "").toLowerCase();
    let text = "";
    if (kind === "allpass" || (phase === "play" && obs.declarer === null && !obs.contract)) {
      text = "All-pass";
      if (obs.talon_lead) text += ` · lead ${SUIT_SYMBOL[obs.talon_lead] || obs.talon_lead}`;
    } else if (obs.contract) {
      const trump = /NT$/.test(obs.contract) || obs.contract === "MISERE"
        ? "" : ` · trump ${SUIT_SYMBOL[obs.contract.slice(-1)]}`;
      text = `${callText(obs.contract)}${trump} · ${nameOf(obs.declarer)}`;
    } else if (obs.bid) {
      const holder = obs.declarer ?? lastBidder(obs);
      text = `Bid ${callText(obs.bid)}${holder !== null && holder !== undefined ? ` · ${nameOf(holder)}` : ""}`;
    } else if (phase === "auction") {
      text = Number(obs.min_bid) > 6 ? `Bidding · from ${obs.min_bid}` : "Bidding";
    }
    if (text) contract.append(el("span", { text }));
    contract.hidden = !text;
  }

  function lastBidder(obs) {
    const auction = obs.auction || [];
    for (let i = auction.length - 1; i >= 0; i -= 1) {
      if (String(auction[i][1]).toUpperCase() !== "PASS") return auction[i][0];
    }
    return null;
  }

  // --- the seats -----------------------------------------------------------
  /** Each player's last call: the auction, then defence calls, then the contract. */
  function lastCalls(obs) {
    const calls = {};
    for (const [seat, token] of obs.auction || []) calls[seat] = token;
    if (obs.contract && obs.declarer !== null && obs.declarer !== undefined) {
      calls[obs.declarer] = obs.contract;
    }
    for (const [seat, token] of obs.defence || []) calls[seat] = token;
    return calls;
  }

  function plate(seat, obs, msg) {
    const calls = lastCalls(obs);
    const call = calls[seat];
    const tricksWon = (obs.tricks_won || [])[seat] ?? 0;
    const thinking = msg.thinking === seat;
    const event = msg.event;
    const popped = event && event.seat === seat && ["bid", "pass", "contract", "defence"].includes(event.kind);
    const dummy = seat === dummySeat();
    return el("div", {
      class: `plate${thinking ? " thinking" : ""}${obs.to_act === seat && !msg.deal_over ? " acting" : ""}${dummy ? " dummy" : ""}`,
      style: `--seat-colour:${COLOURS[seat]}`,
      "data-seat": seat,
    }, [
      el("span", { class: "name", text: nameOf(seat) }),
      obs.dealer === seat ? el("span", { class: "dealer", title: "Dealer", "aria-label": "dealer", text: "D" }) : null,
      dummy ? el("span", { class: "dummy-note", title: "The dummy's hand: nobody's, it never decides", text: obs.alone ? "out of play" : "" }) : null,
      el("span", { class: "tricks", title: "Tricks taken", "aria-label": `${tricksWon} tricks`, text: String(tricksWon) }),
      thinking ? el("span", { class: "thinking-dots", "aria-label": "thinking" }, [el("i"), el("i"), el("i")]) : null,
      call ? el("span", { class: `bubble${popped ? " pop" : ""}`, "data-call": call, text: callText(call) }) : null,
    ]);
  }

  function renderSeat(seat) {
    const box = $(`seat-${seat}`);
    const msg = app.state;
    if (!box) return;
    box.replaceChildren();
    if (!msg) return;
    const obs = msg.observation || {};
    box.append(plate(seat, obs, msg));
    box.dataset.sitsOut = String(sitsOut(seat, obs));
    if (sitsOut(seat, obs)) {
      box.append(el("span", { class: "sits-out", title: "With four players the dealer sits the deal out", text: "deals · sits out" }));
    }
    if (seat === 0) {
      if (sitsOut(0, obs) && !(obs.hand || []).length) {
        box.append(el("p", { class: "sit-out-note", text: "You deal this time and sit out: watch the others play (the sheet is in the menu ☰)." }));
        return;
      }
      if (obs.hand_hidden) {
        box.append(el("span", { class: "looked-label", text: "Your cards, face down" }));
        box.append(backsOf((obs.hand_sizes || [])[0] ?? 10, 0));
        return;
      }
      box.append(renderHand(obs.hand || [], 0, obs));
      return;
    }
    box.dataset.dummy = String(seat === dummySeat());
    const exposed = exposedHands(obs)[seat];
    const looked = (obs.looked || {})[seat] || (obs.looked || {})[String(seat)];
    if (exposed) {
      box.append(renderHand(exposed, seat, obs));
    } else if (looked) {
      box.append(el("span", { class: "looked-label", text: "You looked" }));
      box.append(renderHand(looked, seat, obs));
    } else {
      box.append(backsOf((obs.hand_sizes || [])[seat] ?? 0, seat));
    }
  }

  /** A hand's cards face down. */
  function backsOf(count, seat) {
    const backs = el("div", { class: `backs${positionOf(seat) === "top" || seat === 0 ? " row" : ""}`, style: `--n:${count}`, "aria-label": `${count} cards` });
    for (let i = 0; i < count; i += 1) {
      backs.append(el("img", { class: "card back", src: "/static/cards/back.svg", alt: "", style: `--i:${i}`, draggable: "false" }));
    }
    return backs;
  }

  /** A hand the human sees face up: its own (a fan) or an exposed one (a column). */
  function renderHand(cards, seat, obs) {
    const msg = app.state;
    const phase = phaseOf(obs);
    const legal = new Set(legalTokens(obs).map((t) => t.toUpperCase()));
    const controlled = myTurn(msg) && phase === "play" && (obs.hand_to_play ?? 0) === seat;
    const discarding = myTurn(msg) && isDiscarding(phase) && seat === 0;
    const sorted = [...cards].sort((a, b) => sortKey(a) - sortKey(b));
    const n = sorted.length;
    const hand = el("div", {
      class: `hand${seat === 0 ? " fan" : positionOf(seat) === "top" ? " row" : " column"}${controlled ? " active" : ""}`,
      role: "group",
      "aria-label": seat === 0 ? "Your hand" : `${nameOf(seat)}'s open hand`,
      "data-seat": seat,
      style: `--n:${n}`,
      onkeydown: onHandKey,
    });
    const focusToken = pickFocus(sorted, legal, controlled || discarding);
    sorted.forEach((token, i) => {
      const upper = token.toUpperCase();
      const playable = controlled && legal.has(upper);
      const selected = discarding && app.ui.selected.has(upper);
      const classes = ["card", "face"];
      if (playable) classes.push("playable");
      if (controlled && !playable) classes.push("unplayable");
      if (discarding) classes.push("selectable");
      if (selected) classes.push("selected");
      const button = el("button", {
        type: "button",
        class: classes.join(" "),
        "data-card": upper,
        "data-seat": seat,
        "aria-label": cardName(upper) + (selected ? ", chosen to discard" : ""),
        "aria-pressed": discarding ? String(selected) : null,
        tabindex: upper === focusToken ? "0" : "-1",
        style: `--i:${i};--mid:${(n - 1) / 2}`,
        onclick: () => onCardClick(upper, seat),
        onpointerdown: (event) => onCardPointerDown(event, upper, seat),
        onfocus: () => { app.ui.focusCard = upper; },
      }, [el("img", { src: `/static/cards/${upper}.svg`, alt: "", draggable: "false" })]);
      hand.append(button);
    });
    return hand;
  }

  function sortKey(token) {
    // Suits alternate colours on the table: spades, diamonds, clubs, hearts; high to low.
    const { rank, suit } = parseCard(token);
    return ["S", "D", "C", "H"].indexOf(suit) * 8 + (7 - RANKS.indexOf(rank));
  }

  function pickFocus(sorted, legal, active) {
    const focus = app.ui.focusCard;
    if (focus && sorted.includes(focus)) return focus;
    if (active) {
      const first = sorted.find((t) => legal.has(t.toUpperCase()));
      if (first) return first.toUpperCase();
    }
    return sorted.length ? sorted[0].toUpperCase() : null;
  }

  // --- the talon and the trick --------------------------------------------
  function cardImg(token, extra = "") {
    const upper = String(token).toUpperCase();
    return el("img", {
      class: `card face ${extra}`.trim(), src: `/static/cards/${upper}.svg`,
      alt: cardName(upper), "data-card": upper, draggable: "false",
    });
  }

  function renderTalon() {
    const box = $("talon");
    box.replaceChildren();
    const msg = app.state;
    if (!msg) return;
    const obs = msg.observation || {};
    const phase = phaseOf(obs);
    const shown = Array.isArray(obs.talon) ? obs.talon : [];
    const discard = Array.isArray(obs.discard) ? obs.discard : [];
    if (phase === "done" && !shown.length) return;
    const cards = el("div", { class: "talon-cards" });
    shown.forEach((token) => cards.append(cardImg(token)));
    const hidden = phase === "auction" || phase === "" || obs.kind === "allpass" ? 2 - shown.length : 0;
    for (let i = 0; i < hidden; i += 1) {
      cards.append(el("img", { class: "card back", src: "/static/cards/back.svg", alt: "talon card, face down", draggable: "false" }));
    }
    if (!cards.childElementCount && !discard.length) return;
    if (cards.childElementCount) {
      const label = obs.talon_refused ? "Talon (refused)" : "Talon";
      box.append(el("div", { class: "talon-group" }, [el("span", { class: "label", text: label }), cards]));
    }
    if (discard.length) {
      const dcards = el("div", { class: "talon-cards discard" });
      discard.forEach((token) => dcards.append(cardImg(token, "small")));
      box.append(el("div", { class: "talon-group" }, [el("span", { class: "label", text: "Your discard" }), dcards]));
    }
  }

  /** The cards on the table, updated in place (keyed by seat and card) so that a card
   *  already lying there is not redrawn and the gathering slide can run. */
  function renderTrick() {
    const box = $("trick");
    const msg = app.state;
    if (!msg) {
      box.replaceChildren();
      return;
    }
    const obs = msg.observation || {};
    // A finished trick stays on the table a moment and slides to its winner; the next
    // trick's first card waits for it (at most GATHER_SHOW_MS + GATHER_MOVE_MS).
    const gather = app.ui.gather;
    const cards = gather ? gather.cards : obs.trick || [];
    const wanted = new Map(cards.map(([seat, token], order) => [`${seat}:${token}`, { seat, token, order }]));
    for (const node of [...box.children]) {
      if (!wanted.has(node.dataset.key)) node.remove();
    }
    const present = new Set([...box.children].map((node) => node.dataset.key));
    for (const [key, { seat, token, order }] of wanted) {
      if (present.has(key)) continue;
      const img = cardImg(token, `played seat-${seat} pos-${positionOf(seat)}`);
      img.dataset.key = key;
      img.style.zIndex = String(order + 1);
      box.append(img);
    }
    box.classList.toggle("gather", !!gather);
    for (const seat of seats()) {
      box.classList.toggle(`to-seat-${seat}`, !!gather && gather.moving && gather.winner === seat);
    }
    for (const where of ["bottom", "left", "top", "right"]) {
      box.classList.toggle(`to-${where}`, !!gather && gather.moving && positionOf(gather.winner) === where);
    }
    if (obs.talon_lead && phaseOf(obs) === "play" && !cards.length) {
      const hint = `Talon sets the lead: ${SUIT_SYMBOL[obs.talon_lead] || obs.talon_lead}`;
      box.append(el("div", { class: "lead-hint", "data-key": "hint", text: hint }));
    }
  }

  // --- the decision panel --------------------------------------------------
  function renderPanel() {
    const box = $("panel");
    const hadFocus = box.contains(document.activeElement);
    box.replaceChildren();
    box.className = "panel";
    const msg = app.state;
    if (msg && msg.deal_over && !msg.game_over && !app.ui.sheetOpen) {
      // The player closed the sheet to look at the table: the way on stays at hand.
      box.classList.add("open", "panel-deal-over");
      box.append(el("div", { class: "calls" }, [
        el("div", { class: "grid-title", text: "The deal is over" }),
        el("div", { class: "call-row" }, [
          el("button", {
            type: "button", class: "action", "data-action": "SHEET", text: "SHEET",
            onclick: () => { app.ui.sheetOpen = true; render(); },
          }),
          el("button", {
            type: "button", class: "action primary", "data-action": "NEXT DEAL", text: "NEXT DEAL",
            onclick: () => send({ type: "next_deal" }),
          }),
        ]),
      ]));
      return;
    }
    if (!msg || !myTurn(msg) || msg.paused) return;
    const obs = msg.observation || {};
    const phase = phaseOf(obs);
    const legal = legalTokens(obs).map((t) => t.toUpperCase());
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
    const legal = legalTokens(app.state && app.state.observation).map((t) => t.toUpperCase());
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
      const words = callText(token);
      const label = BUTTON_WORDS[token] || (/^SECOND /.test(token) ? words : words.toUpperCase());
      row.append(el("button", {
        type: "button", class: "action extra", "data-action": token, "data-token": token,
        title: token, onclick: () => sendAction(token), text: label,
      }));
    }
    return el("div", { class: "calls extras" }, [
      el("div", { class: "grid-title", text: under ? "Or" : "Your call" }), row,
    ]);
  }

  /** The Rogue: the soloist names a game left on his list (a whole contract, a misère, or
   *  "any n" whose trump he names after the discard). */
  function namePanel(legal) {
    const obs = app.state.observation || {};
    const list = (obs.rogue_list || []).map((item) => (/^\d+$/.test(String(item)) ? `any ${item}` : callText(item)));
    const row = el("div", { class: "call-row" });
    for (const token of legal) {
      row.append(el("button", {
        type: "button", class: "action", "data-action": token, "data-token": token,
        title: /^TRICKS/.test(token) ? `A ${token.split(" ")[1]}-trick game: the trump is named after the discard` : null,
        onclick: () => sendAction(token), text: callText(token),
      }));
    }
    return el("div", { class: "calls" }, [
      el("div", { class: "grid-title", text: "Name a game of your list" }),
      list.length ? el("small", { class: "help rogue-list", text: `Left on your list: ${list.join(", ")}` }) : null,
      row,
    ]);
  }

  /** The blind decision (Classical's second half): the cards are face down, so the panel
   *  offers SEE and BLIND PASS first, then the blind grid; the seeing grid, useless until
   *  SEE, is left out so that the whole choice fits on the screen. */
  function blindPanel(legal) {
    const lit = new Set(legal);
    const grid = el("div", {
      class: "bid-grid blind-only", role: "group", onkeydown: onGridKey,
      "aria-label": "Your cards are face down: look at them, or bid or pass blind",
    });
    grid.append(el("div", { class: "grid-title", text: "Your cards are face down" }));
    const row = el("div", { class: "grid-row blind-calls" });
    if (lit.has("SEE")) {
      row.append(el("button", {
        type: "button", class: "action primary wide see", "data-action": "SEE", "data-token": "SEE",
        title: "Look at your cards, then bid as usual", onclick: () => sendAction("SEE"),
        text: "SEE your cards",
      }));
    }
    if (lit.has("BLIND PASS")) {
      row.append(el("button", {
        type: "button", class: "action wide", "data-action": "BLIND PASS", "data-token": "BLIND PASS",
        title: "Pass without looking", onclick: () => sendAction("BLIND PASS"), text: "BLIND PASS",
      }));
    }
    grid.append(row);
    grid.append(blindCells(lit, "Or bid blind, without looking (a blind game counts double)"));
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
          "aria-label": `blind ${level} ${strain === "NT" ? "no trump" : SUIT_NAME[strain]}`,
          onclick: () => sendAction(token),
        }, [String(level), el("span", { class: "strain", text: strain === "NT" ? "NT" : SUIT_SYMBOL[strain] })]));
      }
    }
    box.append(blind);
    return box;
  }

  function bidGrid(legal, phase) {
    const lit = new Set(legal);
    const obs = (app.state && app.state.observation) || {};
    if (phase === "auction" && obs.hand_hidden && legal.some((t) => t === "SEE" || t.startsWith("BLIND "))) {
      return blindPanel(legal);
    }
    const grid = el("div", {
      class: "bid-grid", role: "group", onkeydown: onGridKey,
      "aria-label": phase === "contract" ? "Choose your contract" : "Choose your bid",
    });
    grid.append(el("div", { class: "grid-title", text: phase === "contract" ? "Your contract" : "Your bid" }));
    const cells = el("div", { class: "grid-cells" });
    for (const level of LEVELS) {
      for (const strain of STRAINS) {
        const token = `${level}${strain}`;
        const red = strain === "D" || strain === "H";
        const label = `${level} ${strain === "NT" ? "no trump" : SUIT_NAME[strain]}`;
        cells.append(el("button", {
          type: "button", class: `bid${red ? " red" : ""}${lit.has(token) ? " lit" : ""}`,
          "data-token": token, disabled: !lit.has(token), "aria-label": label,
          onclick: () => sendAction(token),
        }, [String(level), el("span", { class: "strain", text: strain === "NT" ? "NT" : SUIT_SYMBOL[strain] })]));
      }
    }
    grid.append(cells);
    const row = el("div", { class: "grid-row" });
    row.append(el("button", {
      type: "button", class: `bid wide${lit.has("MISERE") ? " lit" : ""}`, "data-token": "MISERE",
      disabled: !lit.has("MISERE"), onclick: () => sendAction("MISERE"), text: "MISÈRE",
    }));
    if (phase === "auction" || lit.has("PASS")) {
      row.append(el("button", {
        type: "button", class: `bid wide pass${lit.has("PASS") ? " lit" : ""}`, "data-token": "PASS",
        disabled: !lit.has("PASS"), onclick: () => sendAction("PASS"), text: "PASS",
      }));
    }
    grid.append(row);
    if (LEVELS.some((level) => STRAINS.some((strain) => lit.has(`BLIND ${level}${strain}`)))) {
      grid.append(blindCells(lit, "Or bid blind, without looking"));
    }
    if (lit.has("RESIGN")) grid.append(optionalCalls(legal));
    return grid;
  }

  const OPTIONAL_HELP = {
    RESIGN: "Give up now: three undertricks of your bid in the mountain, no whists, no play.",
    REFUSE: "Leave the talon face up, out of play, and play your own ten cards.",
  };

  /** RESIGN and REFUSE, when the rules allow them, each with its one-line explanation. */
  function optionalCalls(legal) {
    const box = el("div", { class: "optional-calls" });
    for (const token of ["REFUSE", "RESIGN"]) {
      if (!legal.includes(token)) continue;
      box.append(el("div", { class: "optional-call" }, [
        el("button", {
          type: "button", class: "action", "data-action": token, "data-token": token,
          title: OPTIONAL_HELP[token], onclick: () => sendAction(token), text: token,
        }),
        el("small", { class: "help", text: OPTIONAL_HELP[token] }),
      ]));
    }
    return box.childElementCount ? box : null;
  }

  /** The four-player dealer's right to whist: look at one defender's hand, then WHIST or PASS. */
  function dealerPanel(legal) {
    const obs = app.state.observation || {};
    const row = el("div", { class: "call-row" });
    const looks = legal.filter((t) => t.startsWith("LOOK"));
    for (const token of looks) {
      const seat = Number(token.split(/\s+/)[1]);
      row.append(el("button", {
        type: "button", class: "action", "data-action": token, "data-token": token,
        onclick: () => sendAction(token), text: `Look at ${nameOf(seat)}'s hand`,
      }));
    }
    const help = {
      WHIST: "Whist: both defending hands go face up and you play them both",
      PASS: "Pass: the deal ends as it stands",
    };
    for (const token of ["WHIST", "PASS"]) {
      if (!legal.includes(token)) continue;
      row.append(el("button", {
        type: "button", class: `action${token === "WHIST" ? " primary" : ""}`, "data-action": token,
        "data-token": token, title: help[token], onclick: () => sendAction(token), text: token,
      }));
    }
    const title = looks.length
      ? `${nameOf(obs.declarer)} plays ${callText(obs.contract)}: as the dealer you may look at one defender's hand`
      : `${nameOf(obs.declarer)} plays ${callText(obs.contract)}: whist against it, or pass?`;
    const note = looks.length ? null : el("small", { class: "help", text: `${help.WHIST}. ${help.PASS}.` });
    return el("div", { class: "calls" }, [el("div", { class: "grid-title", text: title }), row, note]);
  }

  /** Any other decision the rules bring: one button per legal token. */
  /** POOL or HILL, with what is at stake: the points, and under VMK's rule the pool's room,
   *  the surplus and the mountain (the deal's ``write`` preview); under Racing's the
   *  mountain comes from the sheet. */
  function writePanel(legal, obs) {
    const panel = tokenButtons(legal, "Where do your points go?");
    const w = obs.write;
    if (!w) return panel;
    const n = (x) => { const v = Number(x); return Number.isInteger(v) ? String(v) : v.toFixed(1); };
    const pts = (x) => `${n(x)} point${x === 1 ? "" : "s"}`;
    let text;
    if (w.surplus !== undefined) {
      text = `Your game earns ${pts(w.points)}; your pool has room for ${n(w.room)}. ` +
        `POOL: the ${n(w.surplus)} over it help the other pools, as usual. ` +
        `HILL: they come off your mountain first (${n(w.mountain)} on it now).`;
    } else {
      const sheet = obs.sheet || {};
      const mountain = sheet.mountain ? sheet.mountain[obs.seat] : null;
      text = `${pts(w.points)} for you: POOL writes them in your pool, HILL takes them off ` +
        `your mountain${mountain === null || mountain === undefined ? "" : ` (${n(mountain)} on it now)`}.`;
    }
    panel.append(el("small", { class: "help write-help", text }));
    return panel;
  }

  function tokenButtons(legal, title = "Your call") {
    const row = el("div", { class: "call-row" });
    for (const token of legal) {
      row.append(el("button", {
        type: "button", class: "action", "data-action": token, "data-token": token,
        onclick: () => sendAction(token), text: BUTTON_WORDS[token] || callText(token),
      }));
    }
    return el("div", { class: "calls" }, [el("div", { class: "grid-title", text: title }), row]);
  }

  function discardBar(legal, phase = "discard") {
    const chosen = [...app.ui.selected];
    const token = discardToken(chosen, legal);
    const ready = chosen.length === 2;
    const what = phase === "exchange" ? "to lay down as the new talon" : "to discard";
    const bar = el("div", { class: "discard-bar" }, [
      el("span", { class: "hint", text: ready ? `Discard ${chosen.map(callText).join(" and ")}?` : `Choose ${2 - chosen.length} more card${chosen.length === 1 ? "" : "s"} ${what}` }),
      el("button", {
        type: "button", class: "action primary", "data-action": "DISCARD", disabled: !ready,
        onclick: () => { if (ready) sendAction(token); },
        text: "DISCARD",
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
    const labels = { WHIST: "WHIST", HALF: "HALF-WHIST", PASS: "PASS", OPEN: "OPEN", CLOSED: "CLOSED", ALONE: "ALONE" };
    const help = {
      WHIST: "Defend and earn whists", HALF: "Write half the whists without play",
      PASS: "Let the contract go", OPEN: "Both defending hands face up; you play both",
      CLOSED: "Each defender plays their own hand, unseen",
      ALONE: "Defend alone: the dummy's hand stays out of play, and you owe fewer tricks",
    };
    const obs = app.state.observation || {};
    if (dummySeat() !== null) help.OPEN = "The dummy's hand goes face up and you play it with yours";
    const title = phaseOf(obs) === "defence_mode"
      ? (dummySeat() !== null ? `You whist against ${callText(obs.contract)}: with the dummy or alone?` : "You whist alone")
      : `${nameOf(obs.declarer)} plays ${callText(obs.contract)}`;
    const row = el("div", { class: "call-row" });
    for (const token of order) {
      if (!legal.includes(token)) continue;
      row.append(el("button", {
        type: "button", class: `action${token === "WHIST" || token === "OPEN" ? " primary" : ""}`,
        "data-action": token, "data-token": token, title: help[token], onclick: () => sendAction(token), text: labels[token],
      }));
    }
    return el("div", { class: "calls" }, [el("div", { class: "grid-title", text: title }), row]);
  }

  // ---------------------------------------------------------- card actions
  function onCardClick(token, seat) {
    if (app.ui.drag && app.ui.drag.moved) return;
    sound.unlock();
    const msg = app.state;
    if (!msg) return;
    const obs = msg.observation || {};
    const phase = phaseOf(obs);
    if (!myTurn(msg)) {
      if (msg.deal_over) return;
      const actor = obs.to_act;
      setMessage(actor === null || actor === undefined ? "Wait a moment." : `It is ${possessive(actor)} turn, not yours.`, "why");
      shake(token);
      return;
    }
    if (isDiscarding(phase) && seat === 0) {
      const selected = app.ui.selected;
      if (selected.has(token)) selected.delete(token);
      else if (selected.size < 2) selected.add(token);
      else {
        setMessage("You have already chosen two cards: tap one of them to change your mind.", "why");
        shake(token);
        return;
      }
      app.ui.focusCard = token;
      app.ui.message = null;
      render();
      focusCard(token);
      return;
    }
    if (phase !== "play") {
      setMessage(phase === "auction" ? "Bid first: choose from the grid." : "This is not the moment to play a card.", "why");
      shake(token);
      return;
    }
    playCard(token, seat);
  }

  function playCard(token, seat) {
    const msg = app.state;
    const obs = msg.observation || {};
    const toPlay = obs.hand_to_play ?? 0;
    if (seat !== toPlay) {
      setMessage(`Play from ${possessive(toPlay)} hand now.`, "why");
      shake(token);
      return;
    }
    const legal = new Set(legalTokens(obs).map((t) => t.toUpperCase()));
    const whyNot = (msg.why_not || {})[token] || (msg.why_not || {})[token.toLowerCase()];
    if (!legal.has(token) && whyNot) {
      setMessage(`${callText(token)}: ${whyNot}`, "why");
      shake(token);
      sound.play("error");
      return;
    }
    app.ui.pendingShake = token;
    const hand = $(`seat-${seat}`);
    const node = hand && hand.querySelector(`[data-card="${token}"]`);
    if (node) node.classList.add("leaving");
    sendAction(token);
  }

  function shake(token) {
    const nodes = document.querySelectorAll(`.hand [data-card="${token}"]`);
    nodes.forEach((node) => {
      node.classList.remove("shake");
      void node.offsetWidth; // restart the animation
      node.classList.add("shake");
      node.addEventListener("animationend", () => node.classList.remove("shake"), { once: true });
    });
  }

  function focusCard(token) {
    const node = document.querySelector(`.hand [data-card="${token}"]`);
    if (node) node.focus({ preventScroll: true });
  }

  function onHandKey(event) {
    const target = event.target.closest("[data-card]");
    if (!target) return;
    const cards = [...event.currentTarget.querySelectorAll("[data-card]")];
    const index = cards.indexOf(target);
    const column = event.currentTarget.classList.contains("column");
    const prev = column ? ["ArrowUp", "ArrowLeft"] : ["ArrowLeft", "ArrowUp"];
    const next = column ? ["ArrowDown", "ArrowRight"] : ["ArrowRight", "ArrowDown"];
    let to = null;
    if (prev.includes(event.key)) to = Math.max(0, index - 1);
    else if (next.includes(event.key)) to = Math.min(cards.length - 1, index + 1);
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = cards.length - 1;
    if (to === null) return;
    event.preventDefault();
    cards.forEach((card, i) => card.setAttribute("tabindex", i === to ? "0" : "-1"));
    cards[to].focus();
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

  // --- drag a card onto the table -------------------------------------------
  function onCardPointerDown(event, token, seat) {
    if (event.button !== 0 || !myTurn(app.state) || phaseOf(app.state.observation) !== "play") return;
    const node = event.currentTarget;
    const drag = { token, seat, node, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
    const move = (ev) => {
      const dx = ev.clientX - drag.x;
      const dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 8) return;
      if (!drag.moved) {
        drag.moved = true;
        app.ui.drag = drag;
        node.classList.add("dragging");
      }
      node.style.translate = `${dx}px ${dy}px`;
      $("trick").classList.toggle("drop-target", overTable(ev));
    };
    const up = (ev) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      $("trick").classList.remove("drop-target");
      if (!drag.moved) return;
      const dropped = ev.type === "pointerup" && overTable(ev);
      node.classList.remove("dragging");
      node.style.translate = "";
      // Let the click that follows a drag see drag.moved, then forget the drag.
      setTimeout(() => {
        if (app.ui.drag === drag) app.ui.drag = null;
        render();
      }, 0);
      if (dropped) playCard(token, seat);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  function overTable(event) {
    const rect = document.querySelector(".centre").getBoundingClientRect();
    return event.clientX >= rect.left && event.clientX <= rect.right
      && event.clientY >= rect.top && event.clientY <= rect.bottom;
  }

  // ------------------------------------------------------------------- sheet
  function renderSheet() {
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
    const title = msg.game_over ? "The game is over"
      : msg.deal_over ? (number ? `Deal ${number} is over` : "The deal is over")
        : "The pulya sheet";
    body.append(el("h2", { id: "sheet-title", text: title }));
    if (msg.game_over) body.append(resultBlock(msg, sheet));
    if (entry && msg.deal_over) body.append(entryBlock(entry));

    const tabs = el("div", { class: "tabs", role: "tablist" });
    for (const [key, label] of [["pulya", "PULYA"], ["totals", "TOTALS"]]) {
      tabs.append(el("button", {
        type: "button", role: "tab", class: "tab", "data-tab": key, "data-key": `tab-${key}`,
        "aria-selected": String(app.ui.sheetTab === key),
        onclick: () => { app.ui.sheetTab = key; renderSheet(); },
        text: label,
      }));
    }
    body.append(tabs);
    const panel = el("div", { class: "tab-panel", role: "tabpanel" });
    if (app.ui.sheetTab === "pulya") panel.append(pulyaDrawing(sheet, msg));
    else panel.append(totalsTable(sheet), rulesBlock(msg));
    body.append(panel);

    const actions = el("div", { class: "sheet-actions" });
    if (msg.game_over) {
      actions.append(el("a", { class: "action primary", href: "/", "data-key": "new-game", "data-action": "NEW GAME", text: "NEW GAME" }));
    } else if (msg.deal_over) {
      actions.append(el("button", {
        type: "button", class: "action primary", "data-action": "NEXT DEAL", "data-key": "next",
        onclick: () => { send({ type: "next_deal" }); },
        text: "NEXT DEAL",
      }));
    }
    if (!msg.game_over) {
      actions.append(el("button", {
        type: "button", class: "action", "data-action": "CLOSE", "data-key": "close",
        onclick: () => { app.ui.sheetOpen = false; app.ui.sheetDismissed = true; render(); },
        text: msg.deal_over ? "SEE THE TABLE" : "CLOSE",
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

  function entryBlock(entry) {
    const block = el("section", { class: "entry" });
    block.append(el("p", { class: "summary", text: entry.summary || describeEntry(entry) }));
    const bonuses = entry.bonuses || {};
    const bonusWords = {
      first_pool: "closed the first pool: a bonus in whists on each other player",
      clear_mountain: "emptied the mountain first: a bonus in whists on each other player",
    };
    for (const [key, seat] of Object.entries(bonuses)) {
      block.append(el("p", { class: "bonus", "data-bonus": key },
        `Bonus: ${nameOf(Number(seat))} ${bonusWords[key] || key.replace(/_/g, " ")}.`));
    }
    const change = entry.change || {};
    const table = el("table", { class: "change" });
    table.append(el("thead", {}, el("tr", {}, [
      el("th", { text: "" }), el("th", { text: "Pool" }), el("th", { text: "Mountain" }),
      el("th", { text: "Whists written" }), entry.balance_change ? el("th", { text: "Balance" }) : null,
    ])));
    const tbody = el("tbody");
    names().forEach((name, seat) => {
      const written = (change.whists || [])[seat] || [];
      const parts = written.map((v, j) => (Number(v) ? `${formatNumber(v, true)} on ${nameOf(j)}` : null)).filter(Boolean);
      tbody.append(el("tr", { "data-seat": seat }, [
        el("th", { style: `color:${COLOURS[seat]}`, text: name }),
        el("td", { text: deltaText((change.pool || [])[seat]) }),
        el("td", { text: deltaText((change.mountain || [])[seat]) }),
        el("td", { text: parts.length ? parts.join(", ") : "—" }),
        entry.balance_change ? el("td", { text: formatNumber(entry.balance_change[seat], true) }) : null,
      ]));
    });
    table.append(tbody);
    block.append(table);
    return block;
  }

  const deltaText = (value) => (Number(value) ? formatNumber(value, true) : "—");

  function describeEntry(entry) {
    const kind = entry.kind;
    const tricks = entry.tricks || [];
    if (kind === "allpass") {
      return `All-pass: tricks ${names().map((n, i) => `${n} ${tricks[i] ?? 0}`).join(", ")}.`;
    }
    const who = nameOf(entry.declarer);
    const contract = callText(entry.contract);
    if (kind === "passed") return `${who} played ${contract}; nobody whisted, so it counts as made.`;
    if (kind === "halfwhist") return `${who} played ${contract}; a half-whist, no play.`;
    if (kind === "resigned") return `${who} resigned ${contract}: three undertricks in the mountain.`;
    if (kind === "misere") {
      const taken = tricks[entry.declarer] ?? 0;
      return taken ? `${who}'s misère failed: ${taken} trick${taken === 1 ? "" : "s"} taken.` : `${who} made the misère.`;
    }
    const taken = tricks[entry.declarer] ?? 0;
    return `${who} played ${contract} and took ${taken} trick${taken === 1 ? "" : "s"}.`;
  }

  function resultBlock(msg, sheet) {
    let balance = sheet.balance || [0, 0, 0];
    const result = msg.result;
    if (Array.isArray(result)) balance = result;
    else if (result && Array.isArray(result.balance)) balance = result.balance;
    const best = Math.max(...balance.map(Number));
    const winners = balance.map((v, i) => (Number(v) === best ? i : null)).filter((i) => i !== null);
    const headline = winners.length > 1
      ? `A tie: ${winners.map(nameOf).join(" and ")}`
      : winners[0] === 0 ? "You win!" : `${nameOf(winners[0])} wins`;
    const list = el("ol", { class: "final" });
    balance.map((v, seat) => [Number(v), seat]).sort((a, b) => b[0] - a[0]).forEach(([value, seat]) => {
      list.append(el("li", { style: `color:${COLOURS[seat]}`, "data-seat": seat }, [
        el("span", { text: nameOf(seat) }), el("b", { text: `${formatNumber(value, true)} whists` }),
      ]));
    });
    return el("section", { class: "result" }, [el("p", { class: "headline", text: headline }), list]);
  }

  /** Running totals as players write them: 2, 6, 10 -> "2.6.10" (the last few when long). */
  function runningTotals(values) {
    const out = [];
    let total = 0;
    for (const value of values) {
      if (!Number(value)) continue;
      total += Number(value);
      out.push(formatNumber(total));
    }
    if (!out.length) return "";
    const text = out.join(".");
    return out.length > 4 ? `…${out.slice(-3).join(".")}` : text;
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
  function pulyaDrawing(sheet, msg) {
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
    svg.setAttribute("aria-label", `The pulya sheet: ${rulesSummary(msg)}`);
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
    const write = (x, y, text, cls, rotate = 0, colour = null) => {
      if (!text) return;
      const attrs = { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "middle" };
      if (rotate) attrs.transform = `rotate(${rotate} ${x} ${y})`;
      if (colour) attrs.fill = colour;
      add("text", attrs, text);
    };
    if (two) {
      // Two players (the dummy writes nothing): the sheet split across, you below, the
      // other player above (upside down), each with whists / pool / mountain from the edge.
      add("line", { x1: 0, y1: cy, x2: Wd, y2: cy, class: "rule" });
      const [you, other] = series;
      write(cx, Ht - band / 2, you.whists[1], "whists", 0, COLOURS[0]);
      write(cx, Ht - band * 1.5, you.pool, "pool", 0, COLOURS[0]);
      write(cx, Ht - band * 2.6, you.mountain, "mountain", 0, COLOURS[0]);
      write(cx - 150, Ht - band * 3.5, nameOf(0), "who", 0, COLOURS[0]);
      write(cx, band / 2, other.whists[0], "whists", 180, COLOURS[1]);
      write(cx, band * 1.5, other.pool, "pool", 180, COLOURS[1]);
      write(cx, band * 2.6, other.mountain, "mountain", 180, COLOURS[1]);
      write(cx + 150, band * 3.5, nameOf(1), "who", 180, COLOURS[1]);
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
        { rot: 0, whist: (t) => [Wd * t, Ht - band / 2], pool: [cx, Ht - band * 1.5], mountain: [cx, Ht - band * 2.6], who: [cx, Ht - band * 3.5] },
        { rot: -90, whist: (t) => [band / 2, Ht * (1 - t)], pool: [band * 1.5, cy], mountain: [band * 2.6, cy], who: [band * 3.6, cy] },
        { rot: 180, whist: (t) => [Wd * (1 - t), band / 2], pool: [cx, band * 1.5], mountain: [cx, band * 2.6], who: [cx, band * 3.5] },
        { rot: 90, whist: (t) => [Wd - band / 2, Ht * t], pool: [Wd - band * 1.5, cy], mountain: [Wd - band * 2.6, cy], who: [Wd - band * 3.6, cy] },
      ];
      areas.forEach((area, i) => {
        const s = series[i];
        if (!s) return;
        others(i).forEach((j, k) => {
          const [x, y] = area.whist(spots[k]);
          write(x, y, s.whists[j], "whists", area.rot, COLOURS[i]);
        });
        write(...area.pool, s.pool, "pool", area.rot, COLOURS[i]);
        write(...area.mountain, s.mountain, "mountain", area.rot, COLOURS[i]);
        write(...area.who, nameOf(i), "who", area.rot, COLOURS[i]);
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
      const [you, misha, lena] = series;
      // You (bottom): whists on Misha | on Lena, pool above, mountain above that.
      write(cx / 2 + 20, Ht - band / 2, you.whists[1], "whists", 0, COLOURS[0]);
      write(cx + cx / 2 - 20, Ht - band / 2, you.whists[2], "whists", 0, COLOURS[0]);
      write(cx, Ht - band * 1.5, you.pool, "pool", 0, COLOURS[0]);
      write(cx, Ht - band * 2.6, you.mountain, "mountain", 0, COLOURS[0]);
      // Misha (left): bands along the left edge, written upwards.
      write(band / 2, cy - 110, misha.whists[2], "whists", -90, COLOURS[1]);
      write(band / 2, cy + 90, misha.whists[0], "whists", -90, COLOURS[1]);
      write(band * 1.5, cy, misha.pool, "pool", -90, COLOURS[1]);
      write(band * 2.6, cy - 30, misha.mountain, "mountain", -90, COLOURS[1]);
      // Lena (right): along the right edge, written downwards.
      write(Wd - band / 2, cy + 90, lena.whists[0], "whists", 90, COLOURS[2]);
      write(Wd - band / 2, cy - 110, lena.whists[1], "whists", 90, COLOURS[2]);
      write(Wd - band * 1.5, cy, lena.pool, "pool", 90, COLOURS[2]);
      write(Wd - band * 2.6, cy - 30, lena.mountain, "mountain", 90, COLOURS[2]);
      write(cx, Ht - band * 3.5, nameOf(0), "who", 0, COLOURS[0]);
      write(band * 3.7, cy + 60, nameOf(1), "who", -90, COLOURS[1]);
      write(Wd - band * 3.7, cy + 60, nameOf(2), "who", 90, COLOURS[2]);
    }
    // The circle in the middle: the pool length, the rules, and any house rules.
    const house = (msg && msg.house_rules) || [];
    const circle = add("g", { class: `centre-rules${house.length ? " house" : ""}`, "data-house-rules": String(house.length) });
    add("title", {}, [`Rules: ${rulesSummary(msg)}`, ...(house.length ? ["House rules:", ...houseRuleLines(msg)] : [])].join("\n"), circle);
    add("circle", { cx, cy, r: house.length ? 56 : 42, class: "centre-circle" }, undefined, circle);
    const rules = (msg && msg.rules) || {};
    const pool = rules.pool ?? "";
    const title = msg.rules_title || String(rules.preset || "");
    const lift = house.length ? 10 : 0;
    const circleText = (y, text, cls) => add("text", { x: cx, y, class: cls, "text-anchor": "middle", "dominant-baseline": "middle" }, text, circle);
    circleText(cy - 8 - lift, String(pool), "circle-pool");
    circleText(cy + 18 - lift, title, "circle-rules");
    if (house.length) circleText(cy + 34 - lift / 2, `+ ${house.length} house rule${house.length === 1 ? "" : "s"}`, "circle-house");
    return svg;
  }

  /** Under the totals: the rules of the game, and each house rule with its explanation. */
  function rulesBlock(msg) {
    const house = (msg && msg.house_rules) || [];
    const block = el("section", { class: "rules-block" }, [
      el("p", { class: "rules-line" }, [el("b", { text: "Rules: " }), `${rulesSummary(msg)}${msg.rules_doc ? ` — ${msg.rules_doc}` : ""}.`]),
    ]);
    if (house.length) {
      const list = el("ul", { class: "house-list" });
      for (const h of house) {
        list.append(el("li", { "data-option": h.name }, [
          el("b", { text: `${h.name}: ${showOption(h.value)}` }),
          ` (${msg.rules_title || "preset"}: ${showOption(h.preset_value)}) — ${h.doc}`,
        ]));
      }
      block.append(el("p", { class: "rules-line" }, [el("b", { text: "House rules:" })]), list);
    }
    return block;
  }

  function totalsTable(sheet) {
    const table = el("table", { class: "totals" });
    const head = el("tr", {}, [el("th", { text: "" }), el("th", { text: "Pool" }), el("th", { text: "Mountain" })]);
    names().forEach((_, j) => head.append(el("th", { text: `Whists on ${nameOf(j)}` })));
    head.append(el("th", { text: "Balance" }));
    table.append(el("thead", {}, head));
    const body = el("tbody");
    names().forEach((name, i) => {
      const row = el("tr", { "data-seat": i }, [
        el("th", { style: `color:${COLOURS[i]}`, text: name }),
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

  // -------------------------------------------------------------------- menu
  function renderMenu() {
    const menu = $("menu");
    const button = $("menu-button");
    menu.hidden = !app.ui.menuOpen;
    button.setAttribute("aria-expanded", String(app.ui.menuOpen));
    const paused = !!(app.state && app.state.paused);
    menu.querySelector('[data-menu="pause"]').textContent = paused ? "Resume" : "Pause";
    menu.querySelector('[data-menu="sound"]').textContent = `Sound: ${app.ui.sound ? "on" : "off"}`;
  }

  function onMenu(action) {
    const ui = app.ui;
    if (action === "pause") send({ type: app.state && app.state.paused ? "resume" : "pause" });
    if (action === "sheet") { ui.sheetOpen = true; ui.sheetDismissed = false; }
    if (action === "sound") {
      ui.sound = !ui.sound;
      localStorage.setItem(SOUND_KEY, ui.sound ? "on" : "off");
      sound.unlock();
    }
    if (action === "new") { location.href = "/"; return; }
    ui.menuOpen = false;
    render();
  }

  // -------------------------------------------------------------------- init
  function gameIdFromPage() {
    const fromTemplate = $("app").dataset.gameId;
    if (fromTemplate) return fromTemplate;
    const match = /\/table\/([^/?#]+)/.exec(location.pathname);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function init() {
    app.gameId = gameIdFromPage();
    $("menu-button").addEventListener("click", () => {
      app.ui.menuOpen = !app.ui.menuOpen;
      renderMenu();
      if (app.ui.menuOpen) $("menu").querySelector("button").focus();
    });
    $("menu").addEventListener("click", (event) => {
      const item = event.target.closest("[data-menu]");
      if (item) onMenu(item.dataset.menu);
    });
    $("score-chip").addEventListener("click", () => {
      app.ui.sheetOpen = true;
      app.ui.sheetDismissed = false;
      render();
    });
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      if (app.ui.menuOpen) { app.ui.menuOpen = false; renderMenu(); $("menu-button").focus(); return; }
      if (app.ui.sheetOpen && !(app.state && (app.state.deal_over || app.state.game_over))) {
        app.ui.sheetOpen = false;
        render();
      }
    });
    document.addEventListener("click", (event) => {
      if (app.ui.menuOpen && !event.target.closest(".menu-wrap")) {
        app.ui.menuOpen = false;
        renderMenu();
      }
    });
    document.addEventListener("pointerdown", () => sound.unlock(), { once: true });
    document.addEventListener("keydown", () => sound.unlock(), { once: true });
    if (!app.gameId) {
      showConnection("No game to show here.", true);
      return;
    }
    render();
    connect();
  }

  // A read-only window onto the table for debugging and the browser tests.
  window.preferansTable = {
    get state() { return app.state; },
    get ui() { return app.ui; },
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
