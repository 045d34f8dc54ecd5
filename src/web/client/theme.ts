/** Light or dark: the system's choice until the toggle picks one, which is then remembered. */
type Theme = 'light' | 'dark';

const KEY = 'chatgraph-theme';
const dark = window.matchMedia('(prefers-color-scheme: dark)');

function stored(): Theme | null {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    // Storage refused (a private window's policy): the system's choice stands.
    return null;
  }
}

function shown(): Theme {
  return stored() ?? (dark.matches ? 'dark' : 'light');
}

// The stylesheet reads data-theme; highlight.js's two stylesheets are switched by their media.
function apply(): void {
  const theme = stored();
  const root = document.documentElement;
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
  const light = document.getElementById('code-light');
  const night = document.getElementById('code-dark');
  if (light && night) {
    light.setAttribute(
      'media',
      theme ? (theme === 'light' ? 'all' : 'not all') : '(prefers-color-scheme: light)',
    );
    night.setAttribute(
      'media',
      theme ? (theme === 'dark' ? 'all' : 'not all') : '(prefers-color-scheme: dark)',
    );
  }
  const button = document.getElementById('theme-toggle');
  if (button) {
    const next = shown() === 'dark' ? 'light' : 'dark';
    button.textContent = next === 'dark' ? 'Dark' : 'Light';
    button.setAttribute('aria-label', `Switch to the ${next} theme`);
  }
}

/** Applies the remembered theme and wires the toggle in the page's header. */
export function setUpTheme(): void {
  apply();
  dark.addEventListener('change', apply);
  document.getElementById('theme-toggle')?.addEventListener('click', () => {
    const next: Theme = shown() === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem(KEY, next);
    } catch {
      document.documentElement.dataset.theme = next;
      return;
    }
    apply();
  });
}
