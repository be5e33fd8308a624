/**
 * The everyday name of a colour (sharp's `stats().dominant` of an image): black, white and grey by
 * lightness and saturation, brown for dark oranges and reds, otherwise by hue. Eleven names people
 * actually search for, not a designer's palette.
 */
export type ColourName = 'black' | 'white' | 'grey' | 'brown' | 'red' | 'orange' | 'yellow' | 'green' | 'blue' | 'purple' | 'pink';

export function colourName(red: number, green: number, blue: number): ColourName {
  const [r, g, b] = [red / 255, green / 255, blue / 255];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  const chroma = max - min;
  const saturation = chroma === 0 ? 0 : chroma / (1 - Math.abs(2 * lightness - 1));
  if (lightness < 0.12) return 'black';
  if (lightness > 0.92) return 'white';
  if (saturation < 0.15) return 'grey';
  const sector = max === r ? ((g - b) / chroma) % 6 : max === g ? (b - r) / chroma + 2 : (r - g) / chroma + 4;
  const hue = (sector * 60 + 360) % 360;
  if ((hue < 45 || hue >= 345) && lightness < 0.35) return 'brown';
  if (hue < 15 || hue >= 345) return 'red';
  if (hue < 45) return 'orange';
  if (hue < 70) return 'yellow';
  if (hue < 170) return 'green';
  if (hue < 260) return 'blue';
  if (hue < 300) return 'purple';
  return 'pink';
}
