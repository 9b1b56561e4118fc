import pg from 'pg';

/**
 * Makes a database on the server `url` points at (its own database is only connected to), as a
 * copy of `template` when given; one that exists already is left as it is.
 */
export function createPostgresDatabase(url: string, name: string, template?: string): Promise<void> {
  return connected(url, async (client) => {
    try {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''}`);
    } catch (error) {
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
  });
}

/**
 * Writes every change of the cluster out to its table files (CHECKPOINT, which needs a superuser)
 * and answers the folder of `url`'s database under the cluster's data directory: `base/<oid>`.
 */
export function checkpointedDatabaseFolder(url: string): Promise<string> {
  return connected(url, async (client) => {
    await client.query('CHECKPOINT');
    const { rows } = await client.query<{ oid: string }>('SELECT oid FROM pg_database WHERE datname = current_database()');
    return `base/${rows[0]!.oid}`;
  });
}

/** `work` on a connection of its own, closed after. */
export async function connected<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
