import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkSvgExpansion, MAX_DRAWN_ELEMENTS, MAX_ELEMENT_DEPTH, MAX_REFERENCE_DEPTH, mayBeSvg } from './svg-expansion.js';
import { nestedUseSvg } from '../../../test/support/hostile-svg.js';

const svg = (body: string): Buffer => Buffer.from(`<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">${body}</svg>`);

describe('checkSvgExpansion, the bound on what an SVG asks to draw', () => {
  it('passes an ordinary drawing, with its <use>s counted once each', () => {
    const verdict = checkSvgExpansion(svg('<defs><circle id="dot" r="2"/></defs><use href="#dot" x="1"/><use xlink:href="#dot" x="5"/><rect width="10" height="10"/>'));
    // svg, defs, circle, 2 uses each drawing the circle again, rect.
    expect(verdict).toEqual({ ok: true, drawn: 8, depth: 1 });
  });

  it('refuses nested <use>s that multiply (the 2 KB file that asks for a hundred thousand shapes)', () => {
    const bomb = nestedUseSvg(5, 10);
    expect(bomb.length).toBeLessThan(2500);
    const verdict = checkSvgExpansion(bomb);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.message).toMatch(/would draw [\d,]{7} elements once its references .* are expanded; at most 50,000 are rendered\./);
  });

  it('says "more than a trillion" for a bomb whose count is astronomical (counted, never expanded)', () => {
    const verdict = checkSvgExpansion(nestedUseSvg(9, 30));
    expect(verdict.ok ? '' : verdict.message).toMatch(/would draw more than a trillion elements/);
  });

  it('draws up to the bound, and refuses one over it', () => {
    // A single level: n uses of one leaf draw 2n + 3 elements (svg, defs, leaf, n uses, n copies).
    const uses = (n: number): Buffer => svg(`<defs><rect id="r" width="1" height="1"/></defs>${'<use href="#r"/>'.repeat(n)}`);
    const under = Math.floor((MAX_DRAWN_ELEMENTS - 3) / 2);
    expect(checkSvgExpansion(uses(under))).toMatchObject({ drawn: 2 * under + 3 });
    expect(checkSvgExpansion(uses(under)).ok).toBe(true);
    expect(checkSvgExpansion(uses(under + 2)).ok).toBe(false);
  });

  it('refuses references nested deeper than the limit, even when few are drawn', () => {
    let defs = '<rect id="l0" width="1" height="1"/>';
    for (let level = 1; level <= MAX_REFERENCE_DEPTH + 1; level++) defs += `<g id="l${level}"><use href="#l${level - 1}"/></g>`;
    const verdict = checkSvgExpansion(svg(`<defs>${defs}</defs><use href="#l${MAX_REFERENCE_DEPTH + 1}"/>`));
    expect(verdict.ok ? '' : verdict.message).toMatch(/nests references more than 10 deep/);
  });

  it('refuses elements nested deeper than libxml2 reads, and a chain of 100,000 references, without exhausting the stack', () => {
    const deep = svg(`${'<g>'.repeat(MAX_ELEMENT_DEPTH + 1)}${'</g>'.repeat(MAX_ELEMENT_DEPTH + 1)}`);
    expect(checkSvgExpansion(deep)).toMatchObject({ ok: false, message: expect.stringMatching(/nests elements more than 256 deep/) });
    const chain = Array.from({ length: 100_000 }, (_, index) => `<use id="u${index + 1}" href="#u${index}"/>`).join('');
    expect(checkSvgExpansion(svg(`<rect id="u0"/>${chain}`))).toMatchObject({ ok: false, message: expect.stringMatching(/more than 10 deep/) });
    // The same chain with each target after the element that refers to it: nothing is measured before it is followed.
    const reversed = Array.from({ length: 100_000 }, (_, index) => `<use id="u${index}" href="#u${index + 1}"/>`).join('');
    expect(checkSvgExpansion(svg(`${reversed}<rect id="u100000"/>`))).toMatchObject({ ok: false, message: expect.stringMatching(/more than 10 deep/) });
  });

  it('scans hostile text in one pass: an unclosed quote, thousands of "<" after it', () => {
    // A regular expression per tag start would rescan the rest for each "<": quadratic.
    const text = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><g a="${'<b '.repeat(2_000_000)}`);
    expect(checkSvgExpansion(text)).toEqual({ ok: true, drawn: 1, depth: 0 });
  });

  it('counts patterns, filters and markers referenced through url(#…) and style', () => {
    const pattern = '<pattern id="p" width="4" height="4"><rect width="2" height="2"/></pattern>';
    const body = `<defs>${pattern}</defs>${'<rect width="9" height="9" fill="url(#p)"/>'.repeat(3)}<rect style="fill: url( '#p' )"/>`;
    // svg, defs, pattern, its rect; 4 rects, each drawing the pattern (2) again.
    expect(checkSvgExpansion(svg(body))).toEqual({ ok: true, drawn: 4 + 4 + 8, depth: 1 });
  });

  it('refuses a reference cycle and entity declarations', () => {
    expect(checkSvgExpansion(svg('<g id="a"><use href="#a"/></g>'))).toMatchObject({ ok: false, message: expect.stringMatching(/cycle/) });
    const entities = Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg">&b;</svg>');
    expect(checkSvgExpansion(entities)).toMatchObject({ ok: false, message: expect.stringMatching(/entities/) });
  });

  it('skips comments, CDATA and unknown ids, and checks a gzipped SVG inside', () => {
    const body = '<!-- <use href="#x"/> --><style><![CDATA[ rect { fill: red } ]]></style><use href="#missing"/>';
    expect(checkSvgExpansion(svg(body))).toMatchObject({ ok: true });
    expect(checkSvgExpansion(gzipSync(nestedUseSvg(5, 10))).ok).toBe(false);
  });

  it('lets bytes that are no SVG through to the raster loaders', () => {
    expect(mayBeSvg(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(false);
    expect(mayBeSvg(Buffer.from('\uFEFF  <svg'))).toBe(true);
    expect(checkSvgExpansion(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toEqual({ ok: true, drawn: 0, depth: 0 });
  });
});
