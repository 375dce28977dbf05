/* The table's few sounds, synthesised with Web Audio (no files): a click for a card, a
 * chime for the human's turn, a drop for a trick, a flourish for a scored deal. */
import { app } from "./state.js";

let ctx = null;

function ensure() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

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

export function play(name) {
  if (!app.ui.sound || !effects[name]) return;
  try { effects[name](); } catch (err) { /* sound is a nicety, never an error */ }
}

/** Browsers start audio only after a gesture: called on the first tap or key. */
export function unlock() {
  if (app.ui.sound) { try { ensure(); } catch (err) { /* ignore */ } }
}
