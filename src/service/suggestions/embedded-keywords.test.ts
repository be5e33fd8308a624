import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { colourName } from './colour-name.js';
import { embeddedKeywords, exifKeywords, iptcKeywords, xmpKeywords } from './embedded-keywords.js';
import { filenameTokens } from './filename-tokens.js';

const XMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Not a keyword</rdf:li></rdf:Alt></dc:title>
<dc:subject><rdf:Bag><rdf:li>Beach</rdf:li><rdf:li>Fish &amp; Chips</rdf:li><rdf:li>caf&#233;</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

/** IIM records 2:25 (Keywords) and one other dataset, as Photoshop writes them. */
function iimKeywords(...keywords: string[]): Buffer {
  const record = (dataset: number, text: string): Buffer => {
    const value = Buffer.from(text, 'utf8');
    const head = Buffer.from([0x1c, 2, dataset, 0, 0]);
    head.writeUInt16BE(value.length, 3);
    return Buffer.concat([head, value]);
  };
  return Buffer.concat([record(120, 'A caption, not keywords'), ...keywords.map((keyword) => record(25, keyword))]);
}

/** A JPEG with an APP13 Photoshop block holding the IIM data, spliced in after the SOI marker. */
async function jpegWithIptc(iim: Buffer): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 128, b: 0 } } }).jpeg().toBuffer();
  const size = Buffer.alloc(4);
  size.writeUInt32BE(iim.length);
  const resource = Buffer.concat([Buffer.from('8BIM', 'latin1'), Buffer.from([0x04, 0x04, 0, 0]), size, iim, Buffer.alloc(iim.length % 2)]);
  const payload = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]);
  const header = Buffer.from([0xff, 0xed, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

describe('embedded keywords', () => {
  it('reads dc:subject from XMP, decoding entities and leaving the title alone', () => {
    expect(xmpKeywords(Buffer.from(XMP))).toEqual(['Beach', 'Fish & Chips', 'café']);
    expect(xmpKeywords(Buffer.from('<x:xmpmeta/>'))).toEqual([]);
  });

  it('reads IPTC 2:25 keywords, bare and inside a JPEG sharp reads', async () => {
    expect(iptcKeywords(iimKeywords('harbour', 'Boats'))).toEqual(['harbour', 'Boats']);
    expect(iptcKeywords(Buffer.from([0x1c, 2, 25, 0xff]))).toEqual([]);
    const meta = await sharp(await jpegWithIptc(iimKeywords('lighthouse'))).metadata();
    expect(meta.iptc).toBeDefined();
    expect(embeddedKeywords(meta)).toEqual(['lighthouse']);
  });

  it('reads EXIF XPKeywords as written by sharp (libvips), and merges all blocks without repeats', async () => {
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .jpeg()
      .withXmp(XMP)
      .withExif({ IFD0: { XPKeywords: 'harbour;beach' } })
      .toBuffer();
    const meta = await sharp(image).metadata();
    expect(meta.exif === undefined ? [] : exifKeywords(meta.exif)).toEqual(['harbour', 'beach']);
    expect(embeddedKeywords(meta)).toEqual(['Beach', 'Fish & Chips', 'café', 'harbour']);
    expect(exifKeywords(Buffer.from('Exif\0\0MM\0\x2a\0\0\0\xff', 'latin1'))).toEqual([]);
  });
});

describe('file name tokens', () => {
  it.each([
    ['Beach-sunset_Cornwall2024.JPG', ['beach', 'sunset', 'cornwall']],
    ['IMG_20240101_123456.jpg', []],
    ['redHarbourBoats final copy (2).png', ['red', 'harbour', 'boats']],
    ['Zürich Straße.tif', ['zürich', 'straße']],
    ['.hidden', ['hidden']],
  ])('%s → %j', (name, tokens) => {
    expect(filenameTokens(name)).toEqual(tokens);
  });
});

describe('colour names', () => {
  it.each([
    [[255, 0, 0], 'red'],
    [[8, 8, 248], 'blue'],
    [[0, 128, 0], 'green'],
    [[250, 250, 250], 'white'],
    [[10, 10, 10], 'black'],
    [[128, 128, 130], 'grey'],
    [[120, 60, 20], 'brown'],
    [[255, 165, 0], 'orange'],
    [[255, 230, 0], 'yellow'],
    [[128, 0, 200], 'purple'],
    [[255, 105, 180], 'pink'],
  ])('%j is %s', ([r = 0, g = 0, b = 0], name) => {
    expect(colourName(r, g, b)).toBe(name);
  });
});
