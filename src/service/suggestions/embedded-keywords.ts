/**
 * Keywords embedded in an image by the tools that catalogue it, read from the three blocks sharp hands
 * over raw (`metadata().xmp / iptc / exif`): XMP `dc:subject` (Lightroom, Bridge), IPTC IIM 2:25
 * Keywords (older tools, Photoshop's APP13), and EXIF `XPKeywords` (Windows Explorer: UTF-16LE, `;`
 * separated). Pure byte and text handling: never throws on a malformed block, it just finds less.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** `dc:subject`'s list items (a Bag in practice; a Seq or Alt is read the same way). */
export function xmpKeywords(xmp: Buffer): string[] {
  const text = xmp.toString('utf8');
  const subject = /<dc:subject\b[^>]*>([\s\S]*?)<\/dc:subject>/.exec(text);
  if (subject === null) return [];
  return [...(subject[1] ?? '').matchAll(/<rdf:li\b[^>]*>([^<]*)<\/rdf:li>/g)].map((match) => decodeXml(match[1] ?? '').trim());
}

/** Every IIM dataset 2:25 (Keywords) in the block, wherever it sits (bare IIM or inside a Photoshop IRB). */
export function iptcKeywords(iptc: Buffer): string[] {
  const keywords: string[] = [];
  for (let at = 0; at + 5 <= iptc.length; ) {
    if (iptc[at] !== 0x1c) {
      at += 1;
      continue;
    }
    const record = iptc[at + 1];
    const dataset = iptc[at + 2];
    const length = iptc.readUInt16BE(at + 3);
    // A set high bit means an extended length (never used for keywords): step over the marker only.
    if ((length & 0x8000) !== 0) {
      at += 1;
      continue;
    }
    if (record === 2 && dataset === 25 && at + 5 + length <= iptc.length) keywords.push(iptc.subarray(at + 5, at + 5 + length).toString('utf8').trim());
    at += 5 + length;
  }
  return keywords;
}

const XP_KEYWORDS = 0x9c9e;
const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 7: 1 };

/** `XPKeywords` of IFD0 (the block may start with the `Exif\0\0` marker or with the TIFF header). */
export function exifKeywords(exif: Buffer): string[] {
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  if (tiff.length < 8) return [];
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return [];
  const little = order === 'II';
  const u16 = (at: number): number => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number): number => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return [];
  const entries = u16(ifd);
  for (let index = 0; index < entries; index++) {
    const entry = ifd + 2 + index * 12;
    if (entry + 12 > tiff.length) return [];
    if (u16(entry) !== XP_KEYWORDS) continue;
    const size = (TYPE_SIZES[u16(entry + 2)] ?? 1) * u32(entry + 4);
    const start = size <= 4 ? entry + 8 : u32(entry + 8);
    if (start + size > tiff.length) return [];
    const text = tiff
      .subarray(start, start + size)
      .toString('utf16le')
      .replace(/\0+$/, '');
    return text.split(';').map((keyword) => keyword.trim());
  }
  return [];
}

/** Keywords from every block there is, split on `,`/`;`, without blanks and repeats (first spelling wins). */
export function embeddedKeywords(blocks: { xmp?: Buffer | undefined; iptc?: Buffer | undefined; exif?: Buffer | undefined }): string[] {
  const found = [
    ...(blocks.xmp === undefined ? [] : xmpKeywords(blocks.xmp)),
    ...(blocks.iptc === undefined ? [] : iptcKeywords(blocks.iptc)),
    ...(blocks.exif === undefined ? [] : exifKeywords(blocks.exif)),
  ].flatMap((keyword) => keyword.split(/[;,]/).map((part) => part.trim()));
  const seen = new Set<string>();
  return found.filter((keyword) => {
    const key = keyword.toLowerCase();
    if (keyword === '' || keyword.length > 200 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
