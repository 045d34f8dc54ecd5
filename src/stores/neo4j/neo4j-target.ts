/** Where a Neo4j store lives, and who logs in. */
export interface Neo4jTarget {
  /** bolt://, neo4j://, or their +s / +ssc forms (Aura is neo4j+s://). */
  url: string;
  user: string;
  password: string;
  /** The database; the server's default when not given. */
  database?: string | undefined;
}

/**
 * The target from options, else Neo4j's usual environment variables (NEO4J_URI, NEO4J_USERNAME,
 * NEO4J_PASSWORD, NEO4J_DATABASE); undefined when no URL is given either way. The password is
 * never a flag, so it is not left in shell history or `ps`: `NEO4J_PASSWORD`, else the one given
 * (the CLI's config file).
 */
export function neo4jTarget(
  options: {
    url?: string | undefined;
    user?: string | undefined;
    database?: string | undefined;
    password?: string | undefined;
  },
  env: NodeJS.ProcessEnv = process.env,
): Neo4jTarget | undefined {
  const url = options.url ?? env.NEO4J_URI;
  if (url === undefined || url === '') return undefined;
  const database = options.database ?? env.NEO4J_DATABASE;
  return {
    url,
    user: options.user ?? env.NEO4J_USERNAME ?? 'neo4j',
    password: env.NEO4J_PASSWORD ?? options.password ?? '',
    ...(database ? { database } : {}),
  };
}

// The password of an address's user part (`user:password@`): the first colon-separated pair
// before an `@` that no slash interrupts (a malformed `bolt//user:pw@host` too).
const USER_PASSWORD = /([^\s/@:]*:)[^\s/@]*@/;

/**
 * A Neo4j address as chatgraph says it (in `config`, errors, `doctor`): a password written into
 * it (`bolt://user:password@host`) as `***`, so it is never printed. The driver still gets the
 * address as given.
 */
export function shownUrl(url: string): string {
  return url.replace(USER_PASSWORD, '$1***@');
}

/** A message with the target's address shown masked, and its password nowhere (a driver's error may quote it). */
export function withoutSecrets(
  message: string,
  target: Pick<Neo4jTarget, 'url' | 'password'>,
): string {
  let said = message.split(target.url).join(shownUrl(target.url));
  const inUrl = USER_PASSWORD.exec(target.url)?.[0]
    .replace(/^[^:]*:/, '')
    .slice(0, -1);
  for (const secret of [target.password, inUrl, inUrl && safeDecode(inUrl)])
    if (secret !== undefined && secret !== '' && secret.length >= 4)
      said = said.split(secret).join('***');
  return said;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
