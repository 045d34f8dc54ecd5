/** Building the page: text always goes in as text, never as HTML. */

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | null | EventListener>;

/** An element with attributes (`on…` ones are listeners) and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, ...children);
  return element;
}

/** Appends children, strings as text nodes. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

// The browser's locale decides the order and names (day before month, 24-hour clock or not).
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const DAY_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const NUMBER = new Intl.NumberFormat();

/** A date as people read it in their locale (the stored text when it is not a date). */
export function formatDate(value: string | null | undefined, withTime = false): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return (withTime ? DAY_TIME : DAY).format(date);
}

/** A count with thousands separated as the browser's locale does. */
export function count(value: number): string {
  return NUMBER.format(value);
}

/** A size in bytes as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit] ?? 'B'}`;
}

/** An error message in the view. */
export function errorBox(error: unknown): HTMLElement {
  return h(
    'p',
    { class: 'error', role: 'alert' },
    error instanceof Error ? error.message : String(error),
  );
}

/** The route's query parameters (`#/path?a=1`). */
export function hashParams(): URLSearchParams {
  const hash = location.hash.slice(1);
  const at = hash.indexOf('?');
  return new URLSearchParams(at >= 0 ? hash.slice(at + 1) : '');
}
