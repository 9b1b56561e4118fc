/** One file to write or remove, by its path from the repository root. */
export type Change = { path: string; content: string | Uint8Array } | { path: string; remove: true };

export interface Author {
  name: string;
  email: string;
}
