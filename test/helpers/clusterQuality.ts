/** Clustering quality against labels: adjusted Rand index (Hubert and Arabie) and purity. */

const choose2 = (n: number) => (n * (n - 1)) / 2;

function contingency(labels: string[], clusters: string[]) {
  const cells = new Map<string, number>();
  const rows = new Map<string, number>();
  const columns = new Map<string, number>();
  labels.forEach((label, i) => {
    const cluster = clusters[i]!;
    cells.set(`${label}\u0000${cluster}`, (cells.get(`${label}\u0000${cluster}`) ?? 0) + 1);
    rows.set(label, (rows.get(label) ?? 0) + 1);
    columns.set(cluster, (columns.get(cluster) ?? 0) + 1);
  });
  return { cells, rows, columns };
}

export function adjustedRandIndex(labels: string[], clusters: string[]): number {
  const { cells, rows, columns } = contingency(labels, clusters);
  const index = [...cells.values()].reduce((sum, n) => sum + choose2(n), 0);
  const rowSum = [...rows.values()].reduce((sum, n) => sum + choose2(n), 0);
  const columnSum = [...columns.values()].reduce((sum, n) => sum + choose2(n), 0);
  const expected = (rowSum * columnSum) / choose2(labels.length);
  const max = (rowSum + columnSum) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}

/** The share of items whose cluster's most common label is their own. */
export function purity(labels: string[], clusters: string[]): number {
  const best = new Map<string, number>();
  for (const [key, n] of contingency(labels, clusters).cells) {
    const cluster = key.split('\u0000')[1]!;
    best.set(cluster, Math.max(best.get(cluster) ?? 0, n));
  }
  return [...best.values()].reduce((sum, n) => sum + n, 0) / labels.length;
}
