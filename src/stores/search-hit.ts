// The search hit is declared once, in search/search-hit.ts; this path stays for the modules
// that name it here (a store's answer is one).
export type { HitReason, SearchHit } from '../search/search-hit.js';
