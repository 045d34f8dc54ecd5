import { h } from './dom.js';

/**
 * The button a phone shows for filters folded behind it (a `.more-filters` box with the id
 * `controls` inside `form`), saying how many are set; on a wide screen it is not shown and the
 * filters stand in the row.
 */
export function foldButton(form: HTMLElement, controls: string, set: number): HTMLButtonElement {
  const toggle = h('button', {
    type: 'button',
    class: 'filters-toggle',
    'aria-expanded': 'false',
    'aria-controls': controls,
  });
  sayFiltersSet(toggle, set);
  toggle.addEventListener('click', () => {
    const open = !form.classList.contains('open');
    form.classList.toggle('open', open);
    toggle.setAttribute('aria-expanded', String(open));
  });
  return toggle;
}

/** The button's text: `Filters`, or `Filters (2)` when two are set. */
export function sayFiltersSet(toggle: HTMLButtonElement, set: number): void {
  toggle.textContent = set > 0 ? `Filters (${String(set)})` : 'Filters';
}
