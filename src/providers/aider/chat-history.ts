/** One block of an Aider chat history: the person's input, Aider's output, or the model's reply. */
export interface HistoryBlock {
  kind: 'user' | 'aider' | 'assistant';
  text: string;
  /** The line it starts on (1-based). */
  line: number;
}

/** One run of Aider (`# aider chat started at …`) and its blocks. */
export interface HistoryRun {
  /** The start time as written: local time, `YYYY-MM-DD HH:MM:SS`. */
  started: string | undefined;
  blocks: HistoryBlock[];
  line: number;
}

const STARTED = /^# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*$/;

/**
 * Splits `.aider.chat.history.md` into runs and blocks, as Aider writes it: each run opens
 * with `# aider chat started at …`; the person's input is written `#### ` a line (two spaces
 * end each line but the last), Aider's own output `> ` a line, and the model's reply as it
 * came. A reply's own quoted lines (`> `) cannot be told from Aider's output: they are read
 * as Aider's.
 */
export function readChatHistory(text: string): HistoryRun[] {
  const runs: HistoryRun[] = [];
  let run: HistoryRun | undefined;
  let block: HistoryBlock | undefined;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  // Inside a reply's fenced code block every line is the reply's (`>>>>>>> REPLACE` too).
  let fenced = false;
  lines.forEach((raw, i) => {
    const started = STARTED.exec(raw);
    if (started) {
      run = { started: started[1], blocks: [], line: i + 1 };
      runs.push(run);
      block = undefined;
      return;
    }
    if (block?.kind === 'assistant' && /^\s*```/.test(raw)) fenced = !fenced;
    else if (block?.kind !== 'assistant') fenced = false;
    // Aider ends each line of the person's input with two spaces: a `####` heading in a reply
    // (none) is the reply's.
    const input = raw.startsWith('####') && (raw.endsWith('  ') || block?.kind !== 'assistant');
    const kind =
      fenced || /^\s*```/.test(raw)
        ? 'assistant'
        : input
          ? 'user'
          : raw.startsWith('>')
            ? 'aider'
            : 'assistant';
    const body =
      kind === 'user'
        ? raw.replace(/^####\s?/, '')
        : kind === 'aider'
          ? raw.replace(/^>\s?/, '')
          : raw;
    const line = body.replace(/ {2}$/, '');
    if (!run) {
      // Lines before the first run (a file begun by hand, or cut at its start).
      run = { started: undefined, blocks: [], line: 1 };
      runs.push(run);
    }
    if (block?.kind === kind) {
      block.text += `\n${line}`;
      return;
    }
    if (kind === 'assistant' && line.trim() === '') {
      // Blank lines between blocks belong to a reply only once it has begun.
      if (block?.kind === 'assistant') block.text += '\n';
      return;
    }
    block = { kind, text: line, line: i + 1 };
    run.blocks.push(block);
  });
  for (const each of runs)
    each.blocks = each.blocks
      .map((b) => ({ ...b, text: b.kind === 'user' && b.text === '<blank>' ? '' : b.text.trim() }))
      .filter((b) => b.text !== '' || b.kind === 'user');
  return runs.filter((r) => r.blocks.length > 0);
}

/** One input of `.aider.input.history`: when it was typed, and its text. */
export interface InputEntry {
  time: string;
  text: string;
}

/** Reads `.aider.input.history` (prompt_toolkit's: `# <time>` then `+` each line). */
export function readInputHistory(text: string): InputEntry[] {
  const entries: InputEntry[] = [];
  let entry: { time: string; lines: string[] } | undefined;
  const flush = (): void => {
    if (entry) entries.push({ time: entry.time, text: entry.lines.join('\n') });
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const time = /^# (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?)\s*$/.exec(line)?.[1];
    if (time !== undefined) {
      flush();
      entry = { time, lines: [] };
    } else if (line.startsWith('+') && entry) entry.lines.push(line.slice(1));
  }
  flush();
  return entries;
}

/** Aider's count of a message's tokens (`Tokens: 4.2k sent, 1.1k cache write, 12k cache hit, 310 received.`). */
export function tokensLine(
  text: string,
): { sent: number; received: number; cacheWrite?: number; cacheHit?: number } | undefined {
  const match =
    /Tokens: ([\d.,]+[kM]?) sent(?:, ([\d.,]+[kM]?) cache write)?(?:, ([\d.,]+[kM]?) cache hit)?, ([\d.,]+[kM]?) received\./.exec(
      text,
    );
  if (!match) return undefined;
  const count = (value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const number = Number(value.replace(/,/g, '').replace(/[kM]$/, ''));
    if (!Number.isFinite(number)) return undefined;
    return Math.round(number * (value.endsWith('M') ? 1e6 : value.endsWith('k') ? 1e3 : 1));
  };
  const sent = count(match[1]);
  const received = count(match[4]);
  if (sent === undefined || received === undefined) return undefined;
  const out: { sent: number; received: number; cacheWrite?: number; cacheHit?: number } = {
    sent,
    received,
  };
  const cacheWrite = count(match[2]);
  const cacheHit = count(match[3]);
  if (cacheWrite !== undefined) out.cacheWrite = cacheWrite;
  if (cacheHit !== undefined) out.cacheHit = cacheHit;
  return out;
}
