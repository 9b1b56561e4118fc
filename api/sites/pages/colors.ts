/**
 * A site's colours as CSS variables. A primary colour is used for link text, so it is moved
 * towards black (light theme) or white (dark theme) until it reaches WCAG's 4.5:1 against the
 * page's background: a customization can't make links unreadable.
 */
export function colorVariables(styling: Record<string, unknown> | undefined): string {
  const themed = (name: string, fallback: string) => {
    const value = styling?.[name] as { light?: unknown; dark?: unknown } | undefined;
    const pick = (mode: 'light' | 'dark') => (typeof value?.[mode] === 'string' && hex.test(value[mode] as string) ? (value[mode] as string) : fallback);
    return { light: pick('light'), dark: pick('dark') };
  };
  const primary = themed('primaryColor', '#346DDB');
  const variables = {
    '--primary-light': readable(primary.light, '#ffffff', '#000000'),
    '--primary-dark': readable(primary.dark, '#0d1117', '#ffffff'),
    ...hintVariables('info', themed('infoColor', '#787878')),
    ...hintVariables('success', themed('successColor', '#00C950')),
    ...hintVariables('warning', themed('warningColor', '#FE9A00')),
    ...hintVariables('danger', themed('dangerColor', '#FB2C36')),
  };
  Object.assign(variables, fontVariables(styling));
  return `:root{${Object.entries(variables)
    .map(([name, value]) => `${name}:${value}`)
    .join(';')}}`;
}

const hex = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** The page backgrounds of the two themes (siteStyles.ts). */
const backgrounds = { light: '#ffffff', dark: '#0d1117' };

/**
 * A hint style's colours in each theme (`-l`, `-d`): its edge (`--info`), its background (the
 * page's, tinted 10 % with the colour) and its label (the colour moved until it reads at 4.5:1 on
 * that background).
 */
function hintVariables(style: string, color: { light: string; dark: string }): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [mode, suffix, towards] of [
    ['light', 'l', '#000000'],
    ['dark', 'd', '#ffffff'],
  ] as const) {
    const tint = mix(backgrounds[mode], color[mode], 0.1);
    variables[`--${style}-${suffix}`] = color[mode];
    variables[`--${style}-tint-${suffix}`] = tint;
    variables[`--${style}-label-${suffix}`] = readable(color[mode], tint, towards);
  }
  return variables;
}

/** `base` moved by `share` towards `color`. */
function mix(base: string, color: string, share: number): string {
  const from = rgbOf(base);
  const to = rgbOf(color);
  return toHex(from.map((channel, index) => channel + (to[index]! - channel) * share));
}

function rgbOf(color: string): [number, number, number] {
  const digits = color.slice(1);
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
  return [0, 2, 4].map((at) => parseInt(full.slice(at, at + 2), 16)) as [number, number, number];
}

const toHex = (rgb: number[]) => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

function luminance(rgb: number[]): number {
  const [r, g, b] = rgb.map((channel) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [lighter, darker] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

function readable(color: string, background: string, towards: string): string {
  const from = rgbOf(color);
  const to = rgbOf(towards);
  for (let step = 0; step <= 20; step += 1) {
    const mixed = toHex(from.map((channel, index) => channel + ((to[index]! - channel) * step) / 20));
    if (contrast(mixed, background) >= 4.5) return mixed;
  }
  return towards;
}

/** The system's own faces, what every font falls back to: no font is ever downloaded (docs/sites.md). */
const systemSans = 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif';
const systemSerif = 'Georgia,"Times New Roman",serif';
const systemMono = 'ui-monospace,SFMono-Regular,Menlo,Consolas,monospace';
const serifFaces = new Set(['RobotoSlab', 'Merriweather', 'IBMPlexSerif']);
/** Upstream's font names as CSS family names ("SourceSansPro" → "Source Sans Pro"; acronyms kept whole). */
const familyNames: Record<string, string> = { ABCFavorit: 'ABC Favorit', JetBrainsMono: 'JetBrains Mono', IBMPlexMono: 'IBM Plex Mono', IBMPlexSerif: 'IBM Plex Serif', DMMono: 'DM Mono' };
const familyName = (name: string) => familyNames[name] ?? name.replace(/([a-z])([A-Z])/g, '$1 $2');
const fontName = /^[A-Za-z][A-Za-z0-9]{1,40}$/;

/**
 * The customization's fonts (`styling.font`, `headingFont`, `monospaceFont`: upstream's named
 * faces) as families used when the reader's system has them, before the system's own stack; a
 * custom font definition, which would need its files downloaded, reads as the system's.
 */
function fontVariables(styling: Record<string, unknown> | undefined): Record<string, string> {
  const named = (value: unknown) => (typeof value === 'string' && fontName.test(value) ? value : undefined);
  const body = named(styling?.font);
  const heading = named(styling?.headingFont) ?? body;
  const mono = named(styling?.monospaceFont);
  const stack = (face: string | undefined, fallback: string) => (face ? `"${familyName(face)}",${serifFaces.has(face) ? systemSerif : fallback}` : fallback);
  return { '--font-body': stack(body, systemSans), '--font-heading': stack(heading, systemSans), '--font-mono': stack(mono, systemMono) };
}
