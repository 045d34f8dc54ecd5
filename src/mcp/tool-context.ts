import type { QueryLimits, Recaller, Store } from '../index.js';
import type { ResultBudget } from './result-budget.js';

/** What every tool reads from: the store, search, the Cypher limits and the result budget. */
export interface ToolContext {
  store: Store;
  recaller: Recaller;
  limits: QueryLimits;
  budget: ResultBudget;
}
