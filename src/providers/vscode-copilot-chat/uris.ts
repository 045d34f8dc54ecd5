import { asObject, asString } from '../untrusted.js';

/**
 * The path of a URI as VS Code serializes it (`{scheme, path, fsPath}`, a `Location`'s `uri`,
 * or a `file://` string): a file's path on disk (a Windows drive's as `fsPath` has it, `c:\…`), else the URI's
 * path; undefined when the value names none.
 */
export function uriPath(value: unknown): string | undefined {
  const text = asString(value);
  if (text !== undefined) return pathOfUriText(text);
  const object = asObject(value);
  if (!object) return undefined;
  const inner = asObject(object.uri);
  if (inner) return uriPath(inner);
  const fsPath = asString(object.fsPath);
  if (fsPath !== undefined && fsPath !== '') return fsPath;
  const path = asString(object.path);
  if (path !== undefined && path !== '') return windowsDrive(path);
  const external = asString(object.external);
  return external !== undefined ? pathOfUriText(external) : undefined;
}

function pathOfUriText(text: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) return text === '' ? undefined : text;
  try {
    const url = new URL(text);
    return windowsDrive(decodeURIComponent(url.pathname));
  } catch {
    // Not a URI after all (a damaged value): the text as it is.
    return text;
  }
}

// `/c:/Users/…` (a file URI's path on Windows) as VS Code's `fsPath` gives it: `c:\Users\…`.
function windowsDrive(path: string): string {
  return /^\/[A-Za-z]:[\\/]/.test(path) ? path.slice(1).replace(/\//g, '\\') : path;
}

/** The text of a `string | IMarkdownString` (`{value}`) message. */
export function markdownText(value: unknown): string | undefined {
  return asString(value) ?? asString(asObject(value)?.value);
}
