/**
 * The database's read cache: values kept by key with the tables they were read from, dropped when
 * a write touches one of those tables (or a table a write there cascades to). A write whose table
 * can't be told, and any write by another process, drops everything.
 */
export class ReadCache {
  private readonly entries = new Map<string, { value: Promise<unknown>; reads: readonly string[] }>();

  constructor(
    /** Tables a write to each table may change too (foreign-key actions), itself included. */
    private readonly reach: (table: string) => ReadonlySet<string> | 'all',
    private readonly limit = 20_000,
  ) {}

  get<T>(key: string, reads: readonly string[], load: () => Promise<T | undefined>): Promise<T | undefined> {
    const hit = this.entries.get(key);
    if (hit) return hit.value as Promise<T | undefined>;
    // The promise itself is kept, so concurrent misses share one query. A write that ends while
    // it loads drops it (if the write touched its tables), so a stale value is never kept.
    const loading = load();
    if (this.entries.size >= this.limit) this.entries.clear();
    const entry = { value: loading as Promise<unknown>, reads };
    this.entries.set(key, entry);
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    loading.then((value) => value === undefined && forget(), forget);
    return loading;
  }

  /** After a write: `tables` it wrote, or 'all' when they can't be told. */
  written(tables: Iterable<string> | 'all'): void {
    if (tables === 'all') return this.entries.clear();
    const touched = new Set<string>();
    for (const table of tables) {
      const reached = this.reach(table);
      if (reached === 'all') return this.entries.clear();
      for (const name of reached) touched.add(name);
    }
    if (touched.size === 0) return;
    for (const [key, entry] of this.entries) if (entry.reads.some((table) => touched.has(table))) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

const writeTarget = /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["`[]?(\w+)/i;
const readOnly = /^\s*(?:SELECT|PRAGMA\s+\w+\s*(?:;|$))/i;

/** The table a statement writes; null for a query that writes nothing; 'all' when it can't be told (a WITH, a script). */
export function writtenTable(sql: string): string | null | 'all' {
  const target = writeTarget.exec(sql)?.[1];
  if (target) return target.toLowerCase();
  return readOnly.test(sql) && !/\b(?:INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql) ? null : 'all';
}

/**
 * For each table, the tables a write to it may change: itself, and through foreign keys whose
 * ON DELETE or ON UPDATE acts (CASCADE, SET NULL, SET DEFAULT), the tables that reference it, and
 * so on. A table with a trigger reaches everything.
 */
export function tableReach(tables: Array<{ name: string; references: Array<{ parent: string; acts: boolean }>; hasTrigger: boolean }>): (table: string) => ReadonlySet<string> | 'all' {
  const children = new Map<string, string[]>();
  for (const table of tables)
    for (const reference of table.references) if (reference.acts) children.set(reference.parent.toLowerCase(), [...(children.get(reference.parent.toLowerCase()) ?? []), table.name.toLowerCase()]);
  const triggered = new Set(tables.filter((table) => table.hasTrigger).map((table) => table.name.toLowerCase()));
  const known = new Map<string, ReadonlySet<string> | 'all'>();
  return (table) => {
    const name = table.toLowerCase();
    let reach = known.get(name);
    if (!reach) {
      const found = new Set<string>([name]);
      const pending = [name];
      let all = false;
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        if (triggered.has(next)) all = true;
        for (const child of children.get(next) ?? []) {
          if (found.has(child)) continue;
          found.add(child);
          pending.push(child);
        }
      }
      reach = all ? 'all' : found;
      known.set(name, reach);
    }
    return reach;
  };
}

/** The tables statements wrote; 'all' when one of them can't be told. */
export function tablesOf(statements: string[]): Set<string> | 'all' {
  const tables = new Set<string>();
  for (const sql of statements) {
    const table = writtenTable(sql);
    if (table === 'all') return 'all';
    if (table) tables.add(table);
  }
  return tables;
}
