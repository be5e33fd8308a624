/**
 * Files that are cheap to send and expensive to draw. `nestedUseSvg(levels, fan)`: each level a group of
 * `fan` `<use>`s of the level below, the last drawn once, so it asks for fan^levels full-page shapes
 * (5 levels of 10 is 1.4 KB and keeps libvips busy for over a minute). `heavySvg(shapes)`: `shapes`
 * half-transparent full-page rectangles through one level of `<use>` (within the expansion bound, so
 * only a time limit stops it). `nestedFormPdf(levels, fan)`: the same bomb as a PDF of form XObjects.
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

/**
 * The PDF form of the same bomb: a page drawing form XObject `levels`, each level drawing the one below
 * `fan` times, the last a full-page fill (fan^levels fills). Written by hand without an xref table:
 * MuPDF rebuilds it, as it does for any damaged file.
 */
export function nestedFormPdf(levels: number, fan: number): Buffer {
  const objects: string[] = [];
  const stream = (dictionary: string, body: string): string => `<< ${dictionary} /Length ${Buffer.byteLength(body)} >>\nstream\n${body}\nendstream`;
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push('<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] /Resources << /XObject << /X ${5 + levels} 0 R >> >> /Contents 4 0 R >>`);
  objects.push(stream('', '/X Do'));
  objects.push(stream('/Type /XObject /Subtype /Form /BBox [0 0 400 300]', '0.5 g 0 0 400 300 re f'));
  for (let level = 1; level <= levels; level++) {
    objects.push(stream(`/Type /XObject /Subtype /Form /BBox [0 0 400 300] /Resources << /XObject << /X ${4 + level} 0 R >> >>`, Array.from({ length: fan }, () => '/X Do').join(' ')));
  }
  const body = objects.map((object, index) => `${index + 1} 0 obj\n${object}\nendobj\n`).join('');
  return Buffer.from(`%PDF-1.7\n${body}trailer\n<< /Root 1 0 R /Size ${objects.length + 1} >>\n%%EOF\n`);
}
