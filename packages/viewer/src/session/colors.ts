/** SOFA's color syntax (RGBAColor): "r g b [a]", "#rrggbb[aa]", or a name. */
const named: Record<string, [number, number, number, number]> = {
  white: [1, 1, 1, 1],
  black: [0, 0, 0, 1],
  red: [1, 0, 0, 1],
  green: [0, 1, 0, 1],
  blue: [0, 0, 1, 1],
  cyan: [0, 1, 1, 1],
  magenta: [1, 0, 1, 1],
  yellow: [1, 1, 0, 1],
  gray: [0.5, 0.5, 0.5, 1],
  grey: [0.5, 0.5, 0.5, 1],
  darkgray: [0.25, 0.25, 0.25, 1],
  lightgray: [0.75, 0.75, 0.75, 1],
  orange: [1, 0.5, 0, 1],
  purple: [0.5, 0, 0.5, 1],
  pink: [1, 0, 0.5, 1],
  brown: [0.6, 0.3, 0, 1],
  gold: [1, 0.84, 0, 1],
  navy: [0, 0, 0.5, 1],
  transparent: [0, 0, 0, 0],
};

export type Rgba = [number, number, number, number];

export function parseColor(text: string): Rgba | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const n = named[t.toLowerCase()];
  if (n) return [...n];
  const hex = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(t);
  if (hex) {
    const v = parseInt(hex[1], 16);
    return [((v >> 16) & 255) / 255, ((v >> 8) & 255) / 255, (v & 255) / 255, hex[2] ? parseInt(hex[2], 16) / 255 : 1];
  }
  const nums = t.split(/[\s,]+/).map(Number);
  if ((nums.length === 3 || nums.length === 4) && nums.every(Number.isFinite)) return [nums[0], nums[1], nums[2], nums[3] ?? 1];
  return undefined;
}

/** The diffuse color of a SOFA material string ("Default Diffuse 1 r g b a Ambient ..."), when enabled. */
export function materialDiffuse(material: string): Rgba | undefined {
  const t = material.split(/\s+/);
  const i = t.indexOf('Diffuse');
  if (i < 0 || t[i + 1] !== '1') return undefined;
  const v = t.slice(i + 2, i + 6).map(Number);
  return v.length === 4 && v.every(Number.isFinite) ? (v as Rgba) : undefined;
}
