import type { GraphQueries, VectorHolder } from '../stores/store.js';
import type { TopicMap, TopicMapOptions } from './topic-map.js';

// Apart from the topic map's code: the data folder, which every command opens, holds one of
// these, and the clustering (with the `stopword` package's lists, 240 kB) is loaded only when a
// map is built (issue 46: a cold `search` loaded it).

/**
 * The topic map kept between requests: built again only when the vectors changed (their model
 * or their count) or the store's conversations did.
 */
export function topicMapCache(
  store: Pick<GraphQueries, 'stats'> & VectorHolder,
  options: TopicMapOptions = {},
): () => Promise<TopicMap> {
  let kept: { key: string; map: Promise<TopicMap> } | undefined;
  return async () => {
    const model = await store.vectors.model();
    const stats = await store.stats();
    const key = `${model?.id ?? ''}:${String(model?.count ?? 0)}:${String(stats.conversations)}:${String(stats.messages)}`;
    if (kept?.key !== key) {
      const map = import('./topic-map.js').then(({ buildTopicMap }) =>
        buildTopicMap(store, options),
      );
      kept = { key, map };
      map.catch(() => {
        if (kept?.map === map) kept = undefined;
      });
    }
    return kept.map;
  };
}
