/**
 * Words worth suggesting from a file name: `Beach-sunset_Cornwall2024.JPG` → beach, sunset, cornwall.
 * Splits on anything not a letter or digit and at lower→upper case changes, drops the extension, short
 * tokens, numbers, camera and export prefixes (IMG, DSC, PXL, …) and filler words. Lower-cased.
 */
const NOISE = new Set([
  'img', 'dsc', 'dscn', 'dscf', 'pxl', 'mvimg', 'vid', 'mov', 'dcim', 'photo', 'image', 'scan', 'copy', 'final', 'edit', 'edited',
  'version', 'export', 'untitled', 'the', 'and', 'for', 'with', 'from', 'new', 'old', 'jpg', 'jpeg', 'png', 'tif', 'tiff',
]);

export function filenameTokens(filename: string): string[] {
  const dot = filename.lastIndexOf('.');
  const stem = dot > 0 ? filename.slice(0, dot) : filename;
  const words = stem
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => word.toLowerCase());
  const seen = new Set<string>();
  return words.filter((word) => {
    if (word.length < 3 || /^\p{N}+$/u.test(word) || NOISE.has(word) || seen.has(word)) return false;
    seen.add(word);
    return true;
  });
}
