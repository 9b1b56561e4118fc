import { definitions, type SettingName, type Settings } from './settings.js';

export { definitions, type Section, type SettingName, type Settings } from './settings.js';
export { duration, integer, type Parser } from './parsers.js';

/** A configuration Quire refuses to start with: every bad variable, each named with what it accepts. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    // One line: it is logged as one (docs/configuration.md lists every setting).
    super(`Quire's configuration is not valid (docs/configuration.md): ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Every setting of docs/configuration.md, read once from the environment and parsed: an unset or
 * empty variable takes its default; a value its parser doesn't accept, or settings that don't go
 * together, refuse the whole configuration, each named.
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(definitions) as Array<[SettingName, (typeof definitions)[SettingName]]>) {
    const given = env[name];
    const text = given === undefined || given === '' ? definition.fallback : given;
    if (text === undefined) continue;
    const value = (definition.parser.parse as (text: string) => unknown)(text);
    if (value === undefined) problems.push(`${name}=${JSON.stringify(given)}: it must be ${definition.parser.accepts}`);
    else values[name] = value;
  }
  const settings = values as Settings;
  if (settings.QUIRE_STORAGE !== undefined && settings.QUIRE_DATABASE_URL === undefined) problems.push('QUIRE_STORAGE needs QUIRE_DATABASE_URL: storage nodes share one PostgreSQL database');
  if ((settings.QUIRE_RENDERER_URL === undefined) !== (settings.QUIRE_RENDERER_SECRET === undefined)) problems.push('QUIRE_RENDERER_URL and QUIRE_RENDERER_SECRET go together: set both, or neither');
  const oidc = [settings.QUIRE_OIDC_ISSUER, settings.QUIRE_OIDC_CLIENT_ID, settings.QUIRE_OIDC_CLIENT_SECRET];
  if (oidc.some((value) => value !== undefined) && oidc.some((value) => value === undefined))
    problems.push('QUIRE_OIDC_ISSUER, QUIRE_OIDC_CLIENT_ID and QUIRE_OIDC_CLIENT_SECRET go together: set all three, or none');
  if (settings.QUIRE_TRANSLATOR === 'libretranslate' && settings.QUIRE_LIBRETRANSLATE_URL === undefined) problems.push('QUIRE_TRANSLATOR=libretranslate needs QUIRE_LIBRETRANSLATE_URL');
  if (settings.QUIRE_TRANSLATOR === 'openai' && settings.QUIRE_OPENAI_URL === undefined) problems.push('QUIRE_TRANSLATOR=openai needs QUIRE_OPENAI_URL');
  if (problems.length) throw new ConfigError(problems);
  return settings;
}
