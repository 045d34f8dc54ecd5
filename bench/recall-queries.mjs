// 100 distinct queries for the recall benchmark's latency runs: what people ask of their
// history in their own words (short and long, technical and everyday).
const subjects = [
  'sourdough starter smells of acetone',
  'how long to taper before a marathon',
  'kubernetes pods evicted during node drain',
  'postgres replication lag on the replica',
  'rust borrow checker complains about lifetimes',
  'compost pile is too wet and smells',
  'monthly budget for a family of four',
  'refinancing a mortgage when rates drop',
  'helm chart values for an ingress',
  'open crumb in a high hydration loaf',
  'typescript generics with constraints',
  'vacuum and autovacuum settings in postgres',
  'rebalancing an index fund portfolio',
  'knee pain after long runs',
  'tomato leaves with brown spots',
  'writing a cover letter for a data job',
  'python decorators that take arguments',
  'learning japanese kanji every day',
  'fixing a dripping kitchen tap',
  'planning a week in lisbon',
];
const frames = [
  (s) => s,
  (s) => `what did we say about ${s}`,
  (s) => `remind me: ${s}`,
  (s) => `the conversation where I asked about ${s}`,
  (s) => `${s}, what was the advice`,
];

/** One hundred distinct query texts. */
export const QUERIES = frames.flatMap((frame) => subjects.map(frame));
