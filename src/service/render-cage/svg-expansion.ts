/**
 * Bounds what an SVG asks a renderer to draw before libvips (librsvg) sees it. A `<use>` draws its
 * target again, and a target may itself hold `<use>`s: ten levels of ten references each is a 2 KB file
 * that asks for ten billion shapes. librsvg stops only at 500,000 references, and that many full-page
 * shapes keep a thread busy for minutes. So every reference is counted here, as the renderer would
 * expand it, and a file that would draw more than MAX_DRAWN_ELEMENTS elements, or whose references
 * nest deeper than MAX_REFERENCE_DEPTH, is refused with `SVG_TOO_COMPLEX` and a message naming which.
 *
 * References counted: `href`/`xlink:href` (use, pattern, gradients, tref, …) and `url(#id)` in any
 * attribute or style (fill, stroke, filter, mask, clip-path, markers). A reference cycle is refused
 * too (librsvg refuses it as well, after work). Entity declarations are refused outright: XML entity
 * expansion is the same bomb in another form. A scanner, not a full XML parser: it reads tags,
 * comments, CDATA and processing instructions, enough to count what librsvg would expand. Pure, and
 * linear in the file's length whatever the bytes (every character is scanned once, no regular
 * expression runs over more than one tag, recursion is bounded by the depth limits); the render process
 * runs it before sharp, and the upload's description before it asks sharp for an SVG's size.
 */
import { gunzipSync } from 'node:zlib';

/** Elements drawn once every reference is expanded (the document's own count too). */
export const MAX_DRAWN_ELEMENTS = 50_000;
/** References inside references. */
export const MAX_REFERENCE_DEPTH = 10;
/** Elements inside elements (libxml2, which librsvg parses with, stops at 256 too). */
export const MAX_ELEMENT_DEPTH = 256;
/** A gzipped SVG (svgz) is inflated to at most this many bytes to be checked. */
const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

export type SvgVerdict = { ok: true; drawn: number; depth: number } | { ok: false; message: string };

interface Element {
  id: string | undefined;
  /** Ids this element refers to (href, url(#…)). */
  references: string[];
  children: Element[];
}

const ATTRIBUTE = /([^\s=/]+)\s*=\s*("[^"]*"|'[^']*')/g;
const URL_REFERENCE = /url\(\s*['"]?#([^'")\s]+)['"]?\s*\)/g;

/** Whether libvips would take these bytes for an SVG: text starting with `<`, or gzip (svgz). */
export function mayBeSvg(head: Uint8Array): boolean {
  if (head[0] === 0x1f && head[1] === 0x8b) return true;
  let at = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (at < head.length && (head[at] === 0x20 || head[at] === 0x09 || head[at] === 0x0a || head[at] === 0x0d)) at++;
  return head[at] === 0x3c;
}

/** The SVG's text: the bytes, or what a gzipped one inflates to; undefined when it cannot be an SVG. */
function textOf(bytes: Uint8Array): string | { refused: string } | undefined {
  let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data, { maxOutputLength: MAX_INFLATED_BYTES });
    } catch {
      return { refused: `The compressed SVG inflates to more than ${MAX_INFLATED_BYTES / (1024 * 1024)} MiB, or is damaged.` };
    }
  }
  return mayBeSvg(data.subarray(0, 64)) ? data.toString('utf8') : undefined;
}

/**
 * Checks an SVG (or anything libvips might read as one) against the bounds. Bytes that are not SVG
 * text pass: they go to the raster loaders, which have their own pixel limit.
 */
export function checkSvgExpansion(bytes: Uint8Array): SvgVerdict {
  const text = textOf(bytes);
  if (text === undefined) return { ok: true, drawn: 0, depth: 0 };
  if (typeof text !== 'string') return { ok: false, message: text.refused };
  if (/<!ENTITY/i.test(text)) return { ok: false, message: 'The SVG declares XML entities; files that expand entities are not rendered.' };

  const root: Element = { id: undefined, references: [], children: [] };
  const byId = new Map<string, Element>();
  const open: Element[] = [root];
  for (const tag of tags(text)) {
    if (tag.startsWith('/')) {
      if (open.length > 1) open.pop();
      continue;
    }
    if (open.length > MAX_ELEMENT_DEPTH) return { ok: false, message: `The SVG nests elements more than ${MAX_ELEMENT_DEPTH} deep.` };
    const element: Element = { id: undefined, references: [], children: [] };
    for (const [, name = '', quoted = ''] of tag.matchAll(ATTRIBUTE)) {
      const value = quoted.slice(1, -1);
      if (name === 'id') element.id = value.trim();
      else if ((name === 'href' || name.endsWith(':href')) && value.trim().startsWith('#')) element.references.push(value.trim().slice(1));
      for (const [, id = ''] of value.matchAll(URL_REFERENCE)) element.references.push(id);
    }
    (open[open.length - 1] ?? root).children.push(element);
    if (element.id !== undefined && !byId.has(element.id)) byId.set(element.id, element);
    if (!tag.endsWith('/')) open.push(element);
  }

  // What each element costs to draw, its references expanded: memoised, so the check stays linear.
  const cost = new Map<Element, { drawn: number; depth: number }>();
  const visiting = new Set<Element>();
  let refusal: string | undefined;
  // `above`: references followed to reach this element. Past the limit the walk stops (the file is
  // refused), so the recursion never goes deeper than the element and reference limits allow; a
  // target measured before (in document order) answers from the memo with its own depth below.
  const measure = (element: Element, above: number): { drawn: number; depth: number } => {
    const known = cost.get(element);
    if (known !== undefined) return known;
    if (refusal !== undefined) return { drawn: 0, depth: 0 };
    if (above > MAX_REFERENCE_DEPTH) {
      refusal = `The SVG nests references more than ${MAX_REFERENCE_DEPTH} deep (through <use>, patterns or url(#…)).`;
      return { drawn: 0, depth: 0 };
    }
    if (visiting.has(element)) {
      refusal = `The SVG refers to itself in a cycle (through "#${element.id ?? ''}").`;
      return { drawn: 0, depth: 0 };
    }
    visiting.add(element);
    let drawn = 1;
    let depth = 0;
    for (const child of element.children) {
      const inner = measure(child, above);
      drawn += inner.drawn;
      depth = Math.max(depth, inner.depth);
    }
    for (const id of element.references) {
      const target = byId.get(id);
      if (target === undefined) continue;
      const inner = measure(target, above + 1);
      drawn += inner.drawn;
      depth = Math.max(depth, inner.depth + 1);
    }
    visiting.delete(element);
    if (depth > MAX_REFERENCE_DEPTH) refusal ??= `The SVG nests references more than ${MAX_REFERENCE_DEPTH} deep (through <use>, patterns or url(#…)).`;
    // Capped so a bomb's count stays a finite number while it is summed.
    const result = { drawn: Math.min(drawn, Number.MAX_SAFE_INTEGER), depth };
    cost.set(element, result);
    return result;
  };
  const { drawn, depth } = measure(root, 0);
  if (refusal !== undefined) return { ok: false, message: refusal };
  if (drawn - 1 > MAX_DRAWN_ELEMENTS) {
    return {
      ok: false,
      message: `The SVG would draw ${drawn > 1e12 ? 'more than a trillion' : (drawn - 1).toLocaleString('en')} elements once its references (<use>, patterns, url(#…)) are expanded; at most ${MAX_DRAWN_ELEMENTS.toLocaleString('en')} are rendered.`,
    };
  }
  return { ok: true, drawn: drawn - 1, depth };
}

/**
 * The start and end tags of the text, each without its `<` and `>` (`svg width="1"`, `/g`, `use …/`);
 * comments, CDATA, declarations and processing instructions are skipped. A quote or construct left open
 * ends the scan: libxml2 reads no further either.
 */
function* tags(text: string): Generator<string> {
  let at = text.indexOf('<');
  while (at !== -1) {
    let end: number;
    if (text.startsWith('<!--', at)) end = skipPast(text, at + 4, '-->');
    else if (text.startsWith('<![CDATA[', at)) end = skipPast(text, at + 9, ']]>');
    else if (text.startsWith('<?', at)) end = skipPast(text, at + 2, '?>');
    else if (text.startsWith('<!', at)) end = skipPast(text, at + 2, '>');
    else {
      end = tagEnd(text, at + 1);
      if (end === -1) return;
      yield text.slice(at + 1, end - 1);
    }
    if (end === -1) return;
    at = text.indexOf('<', end);
  }
}

/** The index just past `marker` from `from`, or -1. */
function skipPast(text: string, from: number, marker: string): number {
  const found = text.indexOf(marker, from);
  return found === -1 ? -1 : found + marker.length;
}

/** The index just past the `>` closing the tag begun before `from`, quotes respected; -1 if none. */
function tagEnd(text: string, from: number): number {
  let at = from;
  for (;;) {
    const next = text.slice(at, at + 1);
    if (next === '') return -1;
    if (next === '>') return at + 1;
    if (next === '"' || next === "'") {
      const close = text.indexOf(next, at + 1);
      if (close === -1) return -1;
      at = close + 1;
    } else {
      at++;
    }
  }
}
