import { get } from './api.js';
import { similarHits } from './answers.js';
import { errorBox, h, replace } from './dom.js';
import { hitLink } from './search-hit.js';

/**
 * A "Similar" button for a message: it lists, below the message, the messages closest to it in
 * meaning (from any conversation), or says that nothing is embedded yet.
 */
export function similarButton(messageId: string): { button: HTMLElement; panel: HTMLElement } {
  const panel = h('div', { class: 'similar' });
  const button = h(
    'button',
    { type: 'button', class: 'similar-button', title: 'Messages close in meaning' },
    'Similar',
  );
  button.addEventListener('click', () => {
    if (panel.childElementCount > 0) {
      replace(panel);
      return;
    }
    replace(panel, h('p', { class: 'empty' }, 'Looking…'));
    get(`/api/similar/${encodeURIComponent(messageId)}?limit=5`, similarHits)
      .then(({ hits }) => {
        replace(
          panel,
          hits.length === 0
            ? h(
                'p',
                { class: 'empty' },
                'No similar messages (run chatgraph embed to find messages by meaning).',
              )
            : h('div', { class: 'results' }, ...hits.map(hitLink)),
        );
      })
      .catch((error: unknown) => {
        replace(panel, errorBox(error));
      });
  });
  return { button, panel };
}
