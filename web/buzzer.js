// The piezo: the PWM the firmware drives (freq, duty_u16) as a square-wave oscillator.
//
// Browsers start audio only after a tap or a key, so the AudioContext is made by the first one
// (unlock); notes played before that are seen on the status line, not heard.

const VOLUME = 0.08; // a piezo is not loud; a square wave at full scale is

export class Buzzer {
  constructor() {
    this.ctx = null;
    this.osc = null;
    this.gain = null;
    this.freq = 0;
    this.duty = 0;
  }

  get sounding() {
    return this.duty > 0 && this.freq > 0;
  }

  unlock() {
    if (this.ctx) {
      if (this.ctx.state === "suspended") this.ctx.resume();
      return;
    }
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Ctx) return;
    this.ctx = new Ctx();
    this.osc = this.ctx.createOscillator();
    this.osc.type = "square";
    this.gain = this.ctx.createGain();
    this.gain.gain.value = 0;
    this.osc.connect(this.gain).connect(this.ctx.destination);
    this.osc.start();
    this.apply();
  }

  // What the PWM was set to: a duty of half the period is the loudest a piezo gets.
  set(freq, duty) {
    this.freq = freq;
    this.duty = duty;
    this.apply();
  }

  apply() {
    if (!this.ctx) return;
    const t = this.ctx.currentTime;
    const level = this.sounding ? Math.min(this.duty, 65535 - this.duty) / 32768 : 0;
    if (this.sounding) this.osc.frequency.setValueAtTime(this.freq, t);
    this.gain.gain.setTargetAtTime(level * VOLUME, t, 0.002);
  }

  silence() {
    this.set(this.freq, 0);
  }
}
