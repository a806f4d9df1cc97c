// The table's sounds, synthesised here at run time with WebAudio oscillators (no audio file
// is shipped; the notes below are the whole of it, licensed with the project). Silent until
// the player turns sound on (prefs.sound); the context is made on that first gesture.
import { prefs } from "./state/prefs";

/** What the table says aloud: a discard landing, each claim's call, a win, one's turn, the
 *  clock's last seconds, an item of the settlement turned up. */
export type Cue = "discard" | "chi" | "peng" | "gang" | "hu" | "turn" | "tick" | "reveal";

/** One note: its start (s after the cue), length (s), pitch (Hz), wave, loudness 0–1, and
 *  where its pitch ends (a glide). */
export interface Note {
  at: number;
  len: number;
  hz: number;
  wave: OscillatorType;
  gain: number;
  to?: number;
}

/** Each cue's notes: short, each claim its own shape, so they are told apart unseen. */
export const CUES: Readonly<Record<Cue, readonly Note[]>> = {
  // a tile set down: a low knock
  discard: [{ at: 0, len: 0.07, hz: 220, to: 140, wave: "triangle", gain: 0.5 }],
  // 吃: two rising steps
  chi: [
    { at: 0, len: 0.1, hz: 523, wave: "triangle", gain: 0.45 },
    { at: 0.09, len: 0.14, hz: 659, wave: "triangle", gain: 0.45 },
  ],
  // 碰: two hard knocks on one pitch
  peng: [
    { at: 0, len: 0.08, hz: 330, wave: "square", gain: 0.22 },
    { at: 0.11, len: 0.1, hz: 330, wave: "square", gain: 0.22 },
  ],
  // 槓: three falling knocks
  gang: [
    { at: 0, len: 0.08, hz: 392, wave: "square", gain: 0.2 },
    { at: 0.1, len: 0.08, hz: 330, wave: "square", gain: 0.2 },
    { at: 0.2, len: 0.14, hz: 262, wave: "square", gain: 0.2 },
  ],
  // 胡: a rising major chord, held
  hu: [
    { at: 0, len: 0.5, hz: 523, wave: "triangle", gain: 0.35 },
    { at: 0.08, len: 0.45, hz: 659, wave: "triangle", gain: 0.35 },
    { at: 0.16, len: 0.4, hz: 784, wave: "triangle", gain: 0.35 },
    { at: 0.24, len: 0.6, hz: 1047, wave: "sine", gain: 0.4 },
  ],
  // one's turn: a soft bell
  turn: [{ at: 0, len: 0.3, hz: 880, wave: "sine", gain: 0.3 }],
  // the clock's last seconds: a short high blip each second
  tick: [{ at: 0, len: 0.05, hz: 1320, wave: "square", gain: 0.12 }],
  // a settlement's item turned up
  reveal: [{ at: 0, len: 0.08, hz: 988, wave: "sine", gain: 0.25 }],
};

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (context) return context;
  const Ctor =
    typeof window === "undefined"
      ? undefined
      : (window.AudioContext ??
        (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext);
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    context = null;
  }
  return context;
}

/** Play a cue if sound is on (nothing otherwise; never an error). */
export function play(cue: Cue): void {
  if (!prefs.value.sound) return;
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === "suspended") void ctx.resume();
  const now = ctx.currentTime + 0.01;
  for (const n of CUES[cue]) {
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = n.wave;
    osc.frequency.setValueAtTime(n.hz, now + n.at);
    if (n.to) osc.frequency.exponentialRampToValueAtTime(n.to, now + n.at + n.len);
    // a quick attack and an exponential fall: no click at either end
    amp.gain.setValueAtTime(0.0001, now + n.at);
    amp.gain.exponentialRampToValueAtTime(n.gain * 0.4, now + n.at + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, now + n.at + n.len);
    osc.connect(amp).connect(ctx.destination);
    osc.start(now + n.at);
    osc.stop(now + n.at + n.len + 0.02);
  }
}

/** Turning sound on is the gesture browsers ask for: make the context then, and say so. */
export function soundTurnedOn(): void {
  const ctx = audio();
  if (ctx?.state === "suspended") void ctx.resume();
  play("turn");
}
