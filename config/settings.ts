import { address, duration, integer, nameServers, oneOf, onOff, rateLimit, secret, text, url, type Parser } from './parsers.js';

/** Where a setting is listed in docs/configuration.md. */
export type Section = 'server' | 'storage' | 'jobs' | 'limits' | 'integrations';

export interface Definition<T, HasDefault extends boolean> {
  section: Section;
  parser: Parser<T>;
  /** The text used when the variable is unset (or empty), as one would write it. */
  fallback: HasDefault extends true ? string : undefined;
  doc: string;
}

const withDefault = <T>(section: Section, parser: Parser<T>, fallback: string, doc: string): Definition<T, true> => ({ section, parser, fallback, doc });
const optional = <T>(section: Section, parser: Parser<T>, doc: string): Definition<T, false> => ({ section, parser, fallback: undefined, doc });

/** A storage id (lowercase letters, digits and dashes), or `none`. */
const storageId: Parser<string> = { accepts: 'a storage id (lowercase letters, digits and dashes) or "none"', parse: (value) => (/^[a-z0-9][a-z0-9-]{0,62}$/.test(value) ? value : undefined) };

/**
 * Every environment variable Quire reads, once: its section, what it accepts, its default and what
 * it does. config/index.ts reads them all at start and refuses a bad value naming it;
 * docs/configuration.md is written from this table (`npm run docs:configuration`).
 */
export const definitions = {
  PORT: withDefault('server', integer(0, 65535), '3000', 'Port the API listens on (`0`: any free port).'),
  HOST: withDefault('server', text, '0.0.0.0', 'Address the API listens on.'),
  QUIRE_PUBLIC_URL: optional('server', url('http:', 'https:'), 'Base of the absolute URLs in responses (`urls.location`, SAML endpoints).'),
  QUIRE_BOOTSTRAP_TOKEN: optional('server', secret(24), 'On an instance with no users, creates the first admin with this token (24 characters at least; empty is unset).'),
  QUIRE_BOOTSTRAP_EMAIL: withDefault('server', text, 'admin@localhost', 'Email of that first user.'),
  QUIRE_BOOTSTRAP_ORGANIZATION: withDefault('server', text, 'My organization', 'Title of the first organization.'),
  QUIRE_ORG_CREATION: withDefault(
    'server',
    oneOf('anyone', 'operators'),
    'anyone',
    "Who may create organizations with `POST /v1/orgs`: `anyone` signed in, or `operators` only (the admin CLI's `org create`).",
  ),
  QUIRE_ACCESS_LOG: withDefault('server', onOff, 'on', '`off` silences the one-JSON-line-per-request access log on stdout.'),
  QUIRE_LIGHT_READS: withDefault(
    'server',
    onOff,
    'on',
    '`off` sends every request through Koa: by default the hottest authenticated reads (an organization, a space, its content, pages and a page) are answered below it, with the same answers (docs/decisions/performance.md, "Hot-path speed").',
  ),
  QUIRE_OIDC_ISSUER: optional(
    'server',
    url('http:', 'https:'),
    "An OpenID Connect provider people sign in to the web app with (its discovery document at `/.well-known/openid-configuration` beneath it); register `<QUIRE_PUBLIC_URL>/app/sign-in/oidc/callback` with it as the redirect URI. Unset: passwords and organizations' SAML providers only.",
  ),
  QUIRE_OIDC_CLIENT_ID: optional('server', text, "Quire's client id at that provider (with QUIRE_OIDC_ISSUER)."),
  QUIRE_OIDC_CLIENT_SECRET: optional('server', text, "Quire's client secret at that provider (with QUIRE_OIDC_ISSUER)."),
  QUIRE_OIDC_LABEL: withDefault('server', text, 'single sign-on', 'What the sign-in page calls that provider: its button reads "Sign in with <label>".'),
  QUIRE_METRICS_TOKEN: optional(
    'server',
    secret(24),
    'A secret of at least 24 characters that a Prometheus scraper elsewhere than this machine sends as its bearer token to read `GET /metrics`; unset, only scrapers on this machine may.',
  ),
  DATA_DIR: withDefault(
    'storage',
    text,
    './data',
    "All state: `quire.sqlite` (metadata, WAL mode; unless `QUIRE_DATABASE_URL` is set), the space repositories (`spaces/`) and the local Temporal dev server's state (`temporal/`).",
  ),
  QUIRE_DATABASE_URL: optional(
    'storage',
    url('postgres:', 'postgresql:'),
    '`postgres://user:password@host:port/database`: metadata and search in PostgreSQL instead of `DATA_DIR/quire.sqlite` ([operations.md](operations.md), *PostgreSQL*).',
  ),
  QUIRE_STORAGE: optional(
    'storage',
    storageId,
    'With PostgreSQL: the storage whose repositories this node keeps in `DATA_DIR` and serves once it owns it, or `none` for a node that only routes ([operations.md](operations.md), *Storage nodes*). Unset: one node, every space on storage `local`.',
  ),
  QUIRE_NODE_URL: optional('storage', url('http:', 'https:'), 'Where the other storage nodes reach this one.'),
  QUIRE_CACHE_MB: withDefault(
    'limits',
    integer(0, Number.MAX_SAFE_INTEGER, 'megabytes'),
    '48',
    "Memory budget in MB shared by every content cache of a process (parsed trees, pages and revisions, pack delta bases, encoded responses); least recently used entries go first. The search indexer's thread, started by the first search or write, has a budget of the same size for its own caches.",
  ),
  QUIRE_SPACE_RETENTION: withDefault('storage', duration, '7d', 'How long a deleted space can be restored before its job purges it (a duration: `7d`, `12h`, `30s`, `500ms`).'),
  QUIRE_DOWNLOAD_URL_WINDOW: withDefault(
    'storage',
    duration,
    '12h',
    "Files' `downloadURL`s are signed (no token needed: an `<img src>` or a PDF renderer can fetch them) and stay valid for one to two of these windows; the signing key is made on first start and kept in the database (`instance_keys`), so every node accepts every other's links.",
  ),
  QUIRE_BODY_LIMIT: withDefault('limits', integer(1, Number.MAX_SAFE_INTEGER, 'bytes'), '1048576', 'Largest accepted request body in bytes; larger bodies get 413.'),
  QUIRE_TASK_LIMIT_MS: withDefault(
    'limits',
    integer(1, Number.MAX_SAFE_INTEGER, 'milliseconds'),
    '10000',
    "Longest time one piece of CPU-heavy work on user input (checking or converting a page's or a comment's markdown or Document, reading a revision's links, redacting a conversation) may run in the worker-thread pool; past it the thread is stopped and the request answers 422 naming the limit, with nothing stored. OpenAPI bundling gets two minutes more for its fetches.",
  ),
  QUIRE_RATE_LIMIT: withDefault(
    'limits',
    rateLimit,
    '6000/1m',
    "Requests one caller may make per window: `<requests>/<duration>`, or `off`. A caller is the user whose token authenticates the request (a bearer token on the API, the password of git's Basic login), else the address it comes from: a token that doesn't authenticate, or a site token, counts against its sender's address; every answer carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds), and past the limit it is 429 with `Retry-After`. Counted per process. The admin CLI (`npm run admin`) works on the database directly and is never limited.",
  ),
  QUIRE_FETCH_TIMEOUT_MS: withDefault(
    'limits',
    integer(1, Number.MAX_SAFE_INTEGER, 'milliseconds'),
    '30000',
    'Longest time one outbound fetch of a user-given URL may take, redirects and body included (connecting: 5 s at most; bodies: 20 MB at most).',
  ),
  QUIRE_DNS_SERVERS: optional(
    'integrations',
    nameServers,
    "Name servers asked where a site's custom hostname points (getCustomHostname, dnsRevalidateCustomHostname), comma-separated IP addresses with optional ports; unset, the system's (`/etc/resolv.conf`).",
  ),
  QUIRE_ALLOW_PRIVATE_FETCH: optional(
    'integrations',
    oneOf('1', '0'),
    '`1` lets the server fetch user-given URLs (an OpenAPI `source.url`) on loopback, private, link-local, CGNAT and metadata addresses, which are otherwise refused after DNS resolution and on every redirect. For tests and closed networks only.',
  ),
  QUIRE_TRANSLATOR: withDefault(
    'integrations',
    oneOf('pseudo', 'libretranslate', 'openai'),
    'pseudo',
    'Who translates translation runs: `libretranslate`, `openai`, or `pseudo` (a demo pseudo-locale: accented letters in «guillemets», no service needed).',
  ),
  QUIRE_LIBRETRANSLATE_URL: optional(
    'integrations',
    url('http:', 'https:'),
    'Base URL of a LibreTranslate-compatible server (`POST /translate`), for `QUIRE_TRANSLATOR=libretranslate`; `QUIRE_LIBRETRANSLATE_KEY` is its optional API key.',
  ),
  QUIRE_LIBRETRANSLATE_KEY: optional('integrations', text, 'The API key of that LibreTranslate server, if it asks for one.'),
  QUIRE_OPENAI_URL: optional(
    'integrations',
    url('http:', 'https:'),
    'Base URL of an OpenAI-compatible API (`POST <url>/chat/completions`), for `QUIRE_TRANSLATOR=openai`, and, when set, for extracting issues from support conversations and for writing readers’ answers (docs/ask.md) (the local methods stay the fallback); `QUIRE_OPENAI_KEY` its bearer key, `QUIRE_OPENAI_MODEL` the model (`gpt-4o-mini`).',
  ),
  QUIRE_OPENAI_KEY: optional('integrations', text, 'The bearer key of that OpenAI-compatible API.'),
  QUIRE_OPENAI_MODEL: withDefault('integrations', text, 'gpt-4o-mini', 'The model asked for there.'),
  QUIRE_RENDERER_URL: optional(
    'integrations',
    url('http:', 'https:'),
    'A site renderer to tell when published content changes (both or neither): after a new revision of a space a published site shows, a site\'s publication, settings or structure change (sections, site spaces, groups), a job posts `{tags: ["site:<id>", "space:<id>"]}` to `<url>/~gitbook/revalidate` with the body\'s HMAC-SHA256 (the secret) in `x-gitbook-signature`, retried for about an hour while the renderer is down; the write never waits for it. Set them for the API and for every `npm run worker`.',
  ),
  QUIRE_RENDERER_SECRET: optional('integrations', text, 'The secret shared with that renderer: the HMAC-SHA256 key of its revalidation posts (with QUIRE_RENDERER_URL, both or neither).'),
  QUIRE_EMBEDDING_MODEL: optional(
    'integrations',
    text,
    'The folder holding the issue-embedding model (`model.onnx`, `tokenizer.json`) that consolidation compares issues with (`scripts/embedding-model.sh` fetches it there).',
  ),
  PUPPETEER_EXECUTABLE_PATH: withDefault('integrations', text, '/usr/bin/chromium', "The Chromium that renders change-request PDFs (`scripts/chromium.sh` installs Debian's where neither exists)."),
  TEMPORAL_ADDRESS: optional('jobs', address, '`host:port` of an existing Temporal server. Unset, `npm start` runs a dev server itself.'),
  TEMPORAL_NAMESPACE: withDefault('jobs', text, 'default', 'Temporal namespace of the jobs.'),
  QUIRE_WORKER: withDefault('jobs', onOff, 'on', '`off`: `npm start` serves the API without a worker (workers run elsewhere, `npm run worker`).'),
  QUIRE_TASK_QUEUE: withDefault('jobs', text, 'quire', 'Task queue the workers poll; give each Quire deployment sharing a Temporal server its own.'),
  QUIRE_TEMPORAL_PORT: withDefault(
    'jobs',
    integer(0, 65535),
    '7233',
    "gRPC port of the dev server `npm start` runs (when `TEMPORAL_ADDRESS` is unset). `npm run worker` connects there too. `0`: any free port, chosen as the dev server starts and chosen again if another process takes it first (the ready line's `temporal` names it).",
  ),
  QUIRE_TEMPORAL_UI_PORT: withDefault(
    'jobs',
    integer(0, 65535),
    '8233',
    "Port of that dev server's web UI: `http://localhost:8233` shows every job (`0`: any free port, named by the ready line's `temporalUi`).",
  ),
  QUIRE_TEMPORAL_CLI: optional('jobs', text, 'Path of a `temporal` CLI to use instead of one on `PATH` or the built one.'),
  QUIRE_TEMPORAL_CACHE_DIR: withDefault('jobs', text, '.cache/temporal', 'Where the built CLI is kept (a version folder inside).'),
  QUIRE_WORKFLOW_BUNDLE: optional(
    'jobs',
    text,
    "A prebuilt workflow bundle the process's workers run instead of any other (`node --import tsx scripts/bundle-workflows.mjs <file>` writes one from the sources; it is not checked against them, so rebuild it after changing a workflow). `npm test` makes its own for the servers and workers it starts from the sources, replacing one set beforehand. Unset: the one `npm run build` writes to `dist/workflows/`, or, run from the TypeScript sources, one bundled as the worker starts (seconds of webpack).",
  ),
  QUIRE_REPACK_MINUTES: withDefault(
    'jobs',
    integer(1, Number.MAX_SAFE_INTEGER, 'minutes'),
    '60',
    'How often the Temporal schedule `repository-maintenance:<task queue>` looks for space repositories to pack (made or updated to this interval when `npm start` starts).',
  ),
  QUIRE_REPACK_LOOSE_OBJECTS: withDefault('jobs', integer(1), '1000', 'Loose objects past which that schedule packs a repository (`git gc`).'),
  QUIRE_OPENAPI_REFRESH_MINUTES: withDefault(
    'jobs',
    integer(1, Number.MAX_SAFE_INTEGER, 'minutes'),
    '360',
    'How often the Temporal schedule `openapi-refresh:<task queue>` fetches and processes again every OpenAPI specification with a source URL (made or updated to this interval when `npm start` starts).',
  ),
  QUIRE_AUDIT_RETENTION: withDefault(
    'jobs',
    duration,
    '365d',
    'How long the audit log keeps an event (a duration: `365d`, `90d`); the Temporal schedule `audit-retention:<task queue>` removes older ones every hour (made or updated to this retention when `npm start` starts).',
  ),
  QUIRE_CONSOLIDATION_MINUTES: withDefault(
    'jobs',
    integer(1, Number.MAX_SAFE_INTEGER, 'minutes'),
    '60',
    "How often the Temporal schedule `conversations-consolidation:<task queue>` clusters every organization's changed issues again (made on the first conversation post; an existing schedule keeps its interval: change it with `temporal schedule update`).",
  ),
  QUIRE_CONSOLIDATION_QUIET_SECONDS: withDefault(
    'jobs',
    integer(0, Number.MAX_SAFE_INTEGER, 'seconds'),
    '10',
    "How long an organization's conversation posts must go quiet before its job clusters its issues again from scratch; `0` leaves that to the schedule.",
  ),
};

export type SettingName = keyof typeof definitions;
type ValueOf<D> = D extends Definition<infer T, infer HasDefault> ? (HasDefault extends true ? T : T | undefined) : never;
/** Every setting's value: parsed, with its default where it has one. */
export type Settings = { [Name in SettingName]: ValueOf<(typeof definitions)[Name]> };
