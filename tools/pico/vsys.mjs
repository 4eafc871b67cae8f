// The emulated Pico's drive.mjs with a voltage on VSYS: the ADC the rig does not model, set.
//
//   node tools/pico/vsys.mjs --rig DIR --vsys 3700@0,3000@30000 -- <drive.mjs options>
//
// The rig's rp2040js has an ADC peripheral (RPADC) whose conversions return `channelValues[ch]`
// (12 bits; channel 3 is GP29, VSYS/3 inside a Pico); the rig leaves them at 0, so the firmware
// reads 0 V. This wrapper sets channel 3 before every conversion from a schedule of
// "millivolts@ms" (simulated ms since that power-on: a reset starts the schedule again), then
// runs the rig's own drive.mjs unchanged: RPADC's prototype is patched in the one module
// instance drive.mjs also loads (ES modules are cached by URL), nothing under DIR is written.
// Run it from DIR, as drive.mjs is run (its paths are relative to the rig).

import path from 'path';
import { pathToFileURL } from 'url';

const argv = process.argv.slice(2);
const cut = argv.indexOf('--');
const own = cut < 0 ? argv : argv.slice(0, cut);
const rest = cut < 0 ? [] : argv.slice(cut + 1);
const opt = (name) => { const i = own.indexOf(name); return i < 0 ? null : own[i + 1]; };
const rig = path.resolve(opt('--rig') || '.');
const schedule = (opt('--vsys') || '0@0').split(',').map((part) => {
  const [mv, at] = part.split('@').map(Number);
  return { mv, ns: (at || 0) * 1e6 };
}).sort((a, b) => a.ns - b.ns);

const adcUrl = pathToFileURL(path.join(rig, 'emu/node_modules/rp2040js/dist/esm/peripherals/adc.js'));
const { RPADC } = await import(adcUrl.href);
const start = RPADC.prototype.startADCRead;
const reads = [];
RPADC.prototype.startADCRead = function () {
  const now = this.rp2040.clock.nanos;
  let mv = schedule[0].mv;
  for (const s of schedule) if (s.ns <= now) mv = s.mv;
  // VSYS/3 on a 3.3 V reference, 12 bits (MicroPython's read_u16 scales them to 16)
  this.channelValues[3] = Math.max(0, Math.min(4095, Math.round(mv / 3 / 3300 * 4095)));
  if (reads.length < 1000) reads.push([Math.round(now / 1e6), this.activeChannel, mv]);
  return start.call(this);
};
process.on('exit', () => {
  const byChannel = {};
  for (const [, ch] of reads) byChannel[ch] = (byChannel[ch] || 0) + 1;
  console.log(`[vsys] ${reads.length} ADC conversions ${JSON.stringify(byChannel)}; ` +
    `first at ${reads.length ? reads[0][0] : '-'} ms, last at ${reads.length ? reads[reads.length - 1][0] : '-'} ms`);
});

process.argv = [process.argv[0], path.join(rig, 'emu/drive.mjs'), ...rest];
await import(pathToFileURL(path.join(rig, 'emu/drive.mjs')).href);
