/**
 * SVGs that are cheap to send and expensive to draw. `nestedUseSvg(levels, fan)`: each level a group of
 * `fan` `<use>`s of the level below, the last drawn once, so it asks for fan^levels full-page shapes
 * (5 levels of 10 is 1.4 KB and keeps libvips busy for over a minute). `heavySvg(shapes)`: `shapes`
 * half-transparent full-page rectangles through one level of `<use>` (within the expansion bound, so
 * only a time limit stops it).
 */
const OPEN = '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">';
const LEAF = '<rect width="512" height="512" fill="red" opacity="0.5"/>';

export function nestedUseSvg(levels: number, fan: number): Buffer {
  let defs = `<g id="l0">${LEAF}</g>`;
  for (let level = 1; level <= levels; level++) {
    defs += `<g id="l${level}">${Array.from({ length: fan }, (_, index) => `<use href="#l${level - 1}" x="${index}"/>`).join('')}</g>`;
  }
  return Buffer.from(`${OPEN}<defs>${defs}</defs><use href="#l${levels}"/></svg>`);
}

export function heavySvg(shapes: number, seed = 0): Buffer {
  const group = Array.from({ length: 100 }, (_, index) => `<use href="#leaf" x="${index % 7}" y="${seed}"/>`).join('');
  const copies = Array.from({ length: Math.ceil(shapes / 100) }, () => '<use href="#g"/>').join('');
  return Buffer.from(`${OPEN}<defs><g id="leaf">${LEAF}</g><g id="g">${group}</g></defs>${copies}</svg>`);
}
