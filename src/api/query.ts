/** `chatgraph/query`: asking a data folder's store: ids, search and its answers, limits, errors. */
export { QueryError, StoreConnectionError } from '../stores/store.js';
export { shownUrl } from '../stores/neo4j/neo4j-target.js';
export type {
  QueryLimits,
  ConversationInfo,
  ConversationFilter,
  ConversationPage,
  Row,
  Stats,
  SearchQuery,
  SearchHit,
  SearchResult,
  HitReason,
} from '../stores/store.js';
export {
  QueryLimitError,
  TooManyRunningError,
  CLI_QUERY_LIMITS,
  SERVER_QUERY_LIMITS,
  queryLimits,
} from '../stores/query-limits.js';
export {
  UnknownIdError,
  AmbiguousIdError,
  resolveConversation,
  resolveMessage,
  resolveThreadTarget,
} from '../stores/resolve-id.js';
export { ConversationNotFoundError } from '../data-folder/delete-conversation.js';
export type { ConversationHit, ConversationPassage } from '../search/search-hit.js';
export type { ConversationResult } from '../recall/recall-conversations.js';
export type { Recaller } from '../recall/recaller.js';
export { VectorModelMismatchError } from '../stores/vector-index.js';
export {
  USAGE_GROUPS,
  usageReport,
  type UsageGroup,
  type UsageQuery,
  type UsageReport,
  type UsageRow,
} from '../usage/usage-report.js';
export { SHIPPED_PRICES, overlaidPrices, type PriceTable } from '../usage/prices.js';
export { readPriceFile } from '../usage/price-file.js';
