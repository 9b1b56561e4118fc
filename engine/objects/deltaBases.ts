import { BudgetedCache } from '../runtime/cacheBudget.js';
import type { GitObject } from './gitObject.js';

/** Objects read as delta bases, by pack path and offset: a delta chain's bases are read once, not once per delta. */
export const deltaBases = new BudgetedCache<string, GitObject>('delta bases', (object, key) => object.data.length + key.length * 2 + 100);
