// Draws the app icon and the tray icons as SVG and renders them to PNG with sharp. Run once after a
// change to the drawings (`node resources/make-icons.js`); the PNGs are committed, so builds and the
// app never need this script or sharp's SVG support at run time.
//
// Tray: one glyph per state (up to date, syncing, paused, offline, attention), each in a `light`
// variant (dark glyph, for light menu bars and panels) and a `dark` one (light glyph), at 16 px and
// 32 px (@2x). The attention icon keeps its orange in both variants: it must stand out.
//
// macOS: one `<state>Template.png` (+ @2x) per state, black with alpha only. Electron marks an image
// whose name ends in `Template` as a template image, and macOS then tints it for the menu bar (light,
// dark, highlighted) itself; a coloured icon there looks foreign. The attention template is the same
// triangle with the `!` cut out, so it still reads without its orange.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = fileURLToPath(new URL('.', import.meta.url));
const ink = { light: '#1f2328', dark: '#f0f3f6' };
const orange = '#e8590c';

/** The inner symbol of each state, drawn on a 32×32 grid in `color`. */
const glyphs = {
  'up-to-date': (c) => `<circle cx="16" cy="16" r="12.5" fill="none" stroke="${c}" stroke-width="3"/>
    <path d="M10 16.5l4 4 8-9" fill="none" stroke="${c}" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/>`,
  syncing: (c) => `<path d="M26 13.5A10.5 10.5 0 0 0 7.4 9.8" fill="none" stroke="${c}" stroke-width="3" stroke-linecap="round"/>
    <path d="M6 18.5a10.5 10.5 0 0 0 18.6 3.7" fill="none" stroke="${c}" stroke-width="3" stroke-linecap="round"/>
    <path d="M4.5 5.5v6.5h6.5z" fill="${c}"/><path d="M27.5 26.5V20H21z" fill="${c}"/>`,
  paused: (c) => `<circle cx="16" cy="16" r="12.5" fill="none" stroke="${c}" stroke-width="3"/>
    <rect x="11" y="10" width="3.4" height="12" rx="1" fill="${c}"/><rect x="17.6" y="10" width="3.4" height="12" rx="1" fill="${c}"/>`,
  offline: (c) => `<path d="M9 24h14.5a5.5 5.5 0 0 0 .8-10.9A8 8 0 0 0 9.2 11.4 6.3 6.3 0 0 0 9 24z" fill="none" stroke="${c}" stroke-width="2.6" stroke-linejoin="round"/>
    <path d="M5 5l22 22" stroke="${c}" stroke-width="3" stroke-linecap="round"/>`,
  attention: () => `<path d="M16 3.5L30 28H2z" fill="${orange}" stroke="${orange}" stroke-width="2" stroke-linejoin="round"/>
    <rect x="14.4" y="11" width="3.2" height="9.5" rx="1.2" fill="#fff"/><circle cx="16" cy="24.2" r="1.9" fill="#fff"/>`,
};

const svg = (body, size = 32) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">${body}</svg>`);

/** The app icon: a rounded blue square with two folders in step (1024 px; electron-builder derives the rest). */
const appIcon = `<rect x="1" y="1" width="30" height="30" rx="7" fill="#1c7ed6"/>
  <path d="M7 10.5a1.5 1.5 0 0 1 1.5-1.5h4l1.6 1.8h9.4a1.5 1.5 0 0 1 1.5 1.5v8.2a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 7 20.5z" fill="#e7f5ff"/>
  <path d="M12.5 15.5h7m-2.2-2.4 2.4 2.4-2.4 2.4" fill="none" stroke="#1c7ed6" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/>`;

await mkdir(`${here}tray`, { recursive: true });
await writeFile(`${here}icon.svg`, svg(appIcon, 1024));
await sharp(svg(appIcon, 1024)).png().toFile(`${here}icon.png`);
for (const [state, draw] of Object.entries(glyphs)) {
  for (const theme of ['light', 'dark']) {
    const body = draw(ink[theme]);
    await writeFile(`${here}tray/${state}-${theme}.svg`, svg(body, 32));
    await sharp(svg(body, 16), { density: 72 }).resize(16, 16).png().toFile(`${here}tray/${state}-${theme}.png`);
    await sharp(svg(body, 32), { density: 72 }).resize(32, 32).png().toFile(`${here}tray/${state}-${theme}@2x.png`);
  }
}
const black = '#000';
const templates = Object.fromEntries(Object.entries(glyphs).map(([state, draw]) => [state, draw(black)]));
templates.attention = `<mask id="m"><rect width="32" height="32" fill="#fff"/><rect x="14.4" y="11" width="3.2" height="9.5" rx="1.2" fill="#000"/><circle cx="16" cy="24.2" r="1.9" fill="#000"/></mask>
    <path d="M16 3.5L30 28H2z" fill="${black}" stroke="${black}" stroke-width="2" stroke-linejoin="round" mask="url(#m)"/>`;
for (const [state, body] of Object.entries(templates)) {
  // Anti-aliased edges come out as grey; force every pixel to black and keep only the alpha.
  const render = async (size, file) => {
    const alpha = await sharp(svg(body, size), { density: 72 }).resize(size, size).ensureAlpha().extractChannel('alpha').toBuffer();
    await sharp({ create: { width: size, height: size, channels: 3, background: '#000' } }).joinChannel(alpha).png().toFile(file);
  };
  await render(16, `${here}tray/${state}Template.png`);
  await render(32, `${here}tray/${state}Template@2x.png`);
}
console.log('Icons written to', here);
