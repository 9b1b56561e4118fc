import { existsSync, readFileSync } from 'node:fs';

/** What one Schemathesis run found, read from its NDJSON event stream (`--report ndjson`). */
export interface RunFindings {
  /** Test cases sent, over every phase, and how many of them failed a check. */
  cases: number;
  failingCases: number;
  /** Failing test cases per check, and per operation and check. */
  failuresByCheck: Map<string, number>;
  failuresByOperation: Map<string, Map<string, number>>;
  /** One failing request per operation and check, to reproduce by hand. */
  samples: Sample[];
  /** The operation of the last scenario that finished, to name where a hung run stopped. */
  lastOperation?: string;
  /** Errors that kept Schemathesis from testing (an unsatisfiable schema, a network error, a crash). */
  errors: string[];
}

export interface Sample {
  operation: string;
  check: string;
  title: string;
  message: string;
  curl: string;
  status: number | undefined;
  response: string;
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const decode = (content: Json): string => (content?.$base64 !== undefined ? Buffer.from(content.$base64, 'base64').toString('utf8') : typeof content === 'string' ? content : '');
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function curlOf(request: Json): string {
  const parts = ['curl', '-X', request.method];
  for (const [name, values] of Object.entries<string[]>(request.headers ?? {})) {
    for (const value of values) parts.push('-H', name.toLowerCase() === 'authorization' ? '"Authorization: Bearer $TOKEN"' : quote(`${name}: ${value}`));
  }
  const body = request.body === undefined || request.body === null ? undefined : decode(request.body);
  if (body !== undefined) parts.push('--data-binary', quote(body));
  parts.push(quote(request.uri));
  return parts.join(' ');
}

export function readFindings(ndjsonPath: string): RunFindings {
  const findings: RunFindings = { cases: 0, failingCases: 0, failuresByCheck: new Map(), failuresByOperation: new Map(), samples: [], errors: [] };
  const sampled = new Set<string>();
  if (!existsSync(ndjsonPath)) return findings;
  for (const line of readFileSync(ndjsonPath, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let event: Record<string, Json>;
    try {
      event = JSON.parse(line);
    } catch {
      continue; // the last line of a run that was stopped can be cut short
    }
    const [kind, value] = Object.entries(event)[0]!;
    if (kind === 'NonFatalError' || kind === 'FatalError') {
      findings.errors.push(`${value.label ?? 'engine'}: ${value.info?.title ?? value.info?.message ?? JSON.stringify(value).slice(0, 500)}`);
      continue;
    }
    if (kind !== 'ScenarioFinished') continue;
    const recorder = value.recorder;
    const operation: string = recorder.label;
    findings.lastOperation = `${operation} (${value.phase} phase)`;
    for (const [caseId, checks] of Object.entries<Json[]>(recorder.checks ?? {})) {
      findings.cases += 1;
      if (checks.some((check) => check.status === 'failure')) findings.failingCases += 1;
      for (const check of checks) {
        if (check.status !== 'failure') continue;
        findings.failuresByCheck.set(check.name, (findings.failuresByCheck.get(check.name) ?? 0) + 1);
        const perOperation = findings.failuresByOperation.get(operation) ?? findings.failuresByOperation.set(operation, new Map()).get(operation)!;
        perOperation.set(check.name, (perOperation.get(check.name) ?? 0) + 1);
        const key = `${operation} ${check.name}`;
        const interaction = recorder.interactions?.[caseId];
        if (sampled.has(key) || !interaction) continue;
        sampled.add(key);
        const failure = check.failure_info?.failure ?? {};
        findings.samples.push({
          operation,
          check: check.name,
          title: failure.title ?? '',
          message: failure.message ?? '',
          curl: curlOf(interaction.request),
          status: interaction.response?.status_code,
          response: decode(interaction.response?.content).slice(0, 600),
        });
      }
    }
  }
  return findings;
}

/** A plain-text summary: failures per check, per operation, and one reproduction of each. */
export function describe(findings: RunFindings[]): string {
  const byCheck = new Map<string, number>();
  const byOperation = new Map<string, Map<string, number>>();
  for (const run of findings) {
    for (const [check, count] of run.failuresByCheck) byCheck.set(check, (byCheck.get(check) ?? 0) + count);
    for (const [operation, checks] of run.failuresByOperation) {
      const merged = byOperation.get(operation) ?? byOperation.set(operation, new Map()).get(operation)!;
      for (const [check, count] of checks) merged.set(check, (merged.get(check) ?? 0) + count);
    }
  }
  const cases = findings.reduce((sum, run) => sum + run.cases, 0);
  const errors = findings.flatMap((run) => run.errors);
  const lines = [`test cases: ${cases}; failing cases per check:`];
  if (!byCheck.size) lines.push('  none');
  for (const [check, count] of [...byCheck].sort()) lines.push(`  ${check}: ${count}`);
  if (byOperation.size) lines.push('per operation:');
  for (const [operation, checks] of [...byOperation].sort()) lines.push(`  ${operation}: ${[...checks].map(([check, count]) => `${check} ${count}`).join(', ')}`);
  if (errors.length) lines.push(`errors (${errors.length}):`, ...errors.map((error) => `  ${error}`));
  for (const sample of findings.flatMap((run) => run.samples)) {
    lines.push('', `${sample.operation} — ${sample.check}: ${sample.title}`, `  ${sample.message.replace(/\n/g, '\n  ')}`, `  ${sample.curl}`, `  → ${sample.status} ${sample.response}`);
  }
  return lines.join('\n');
}

/** The closing line CI reads: test cases that passed every check, and those that failed one (errors count as failures). */
export function tally(findings: RunFindings[]): string {
  const cases = findings.reduce((sum, run) => sum + run.cases, 0);
  const failing = findings.reduce((sum, run) => sum + run.failingCases + run.errors.length, 0);
  return `fuzz: ${cases - findings.reduce((sum, run) => sum + run.failingCases, 0)} passed, ${failing} failed`;
}

export const failed = (findings: RunFindings[]) => findings.some((run) => run.failuresByCheck.size > 0 || run.errors.length > 0);
