import type { Command } from 'commander';
import { waitingMessage, type DataFolder } from '../index.js';
import type { EmbedReport } from '../api/models.js';
import {
  describeFirstPassDone,
  describePlan,
  describeRate,
  EmbedProgressBar,
  formatDuration,
  passDone,
} from './embed-progress.js';
import { plural } from './plural.js';
import { wrapWords } from './wrap-words.js';

/** The options `embed` (and `import --embed`) take about the model. */
export interface EmbedCliOptions {
  model?: string;
  endpoint?: string;
  allowRemote?: boolean;
  redact?: boolean;
  quiet?: boolean;
}

/** Adds the model options to a command. */
export function withModelOptions(command: Command): Command {
  return command
    .option(
      '--model <model>',
      'the embedding model: a name from `chatgraph model list`, a folder holding model.onnx and tokenizer.json, or the endpoint’s model (default: the one the data folder was embedded with, else all-minilm-l6-v2)',
    )
    .option(
      '--endpoint <url>',
      'embed through an OpenAI-compatible endpoint instead (a local Ollama or LM Studio: http://127.0.0.1:11434)',
    )
    .option(
      '--allow-remote',
      'let texts go to an endpoint that is not on this machine (they leave it: think twice)',
    );
}

/**
 * Embeds what the store has not embedded yet, with a plan first, a progress bar, and a summary;
 * Ctrl-C stops it cleanly (what was embedded is kept, and the next run goes on from there).
 */
export async function runEmbed(
  folder: DataFolder,
  options: EmbedCliOptions,
  printLine: (text: string) => void,
  columns?: number,
): Promise<EmbedReport> {
  const controller = new AbortController();
  const stop = (): void => {
    controller.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const bar = new EmbedProgressBar();
  const started = Date.now();
  // On a terminal, each sentence in lines of its width (the continuations indented); written
  // elsewhere (a log, a pipe), a sentence a line, for grep.
  const print = (line: string): void => {
    for (const part of columns === undefined ? [line] : wrapWords(line, columns, '  '))
      printLine(part);
  };
  let firstPassSaid = false;
  try {
    const report = await folder.embed({
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
      allowRemote: options.allowRemote === true,
      redact: options.redact === true,
      signal: controller.signal,
      onWait: (holder) => {
        process.stderr.write(`chatgraph: ${waitingMessage(holder)}\n`);
      },
      onWarning: (message) => {
        process.stderr.write(`chatgraph: warning: ${message}\n`);
      },
      onModelChoice: (line) => {
        if (!options.quiet) print(line);
      },
      onPlan: (plan, model) => {
        bar.workers = plan.workers;
        if (!options.quiet) print(describePlan(plan, `${model.id} (${model.source})`));
      },
      ...(options.quiet
        ? {}
        : {
            onProgress: (progress) => {
              bar.update(progress);
              // The first pass done is what a person waits for: said once, with its time, since
              // cutting every text for the second pass takes a while before its plan appears.
              if (progress.pass === 'conversations' && !firstPassSaid && passDone(progress)) {
                firstPassSaid = true;
                bar.done();
                print(describeFirstPassDone(progress, (Date.now() - started) / 1000));
              }
            },
          }),
    });
    bar.done();
    const seconds = (Date.now() - started) / 1000;
    if (report.replacedModel !== undefined)
      print(`the vectors of ${report.replacedModel} were replaced by ${report.model}'s`);
    const again = report.interrupted ? '; run chatgraph embed again to go on' : '';
    // The passes' pace (the plan, the language check and the memories are left out of it).
    const pace =
      report.embedded > 0
        ? ` (${describeRate(report.embedded, report.seconds, report.workers)})`
        : '';
    // Nothing was to be embedded: the plan said so, and a summary of zeros would add nothing.
    if (report.conversations === 0 && !report.interrupted && report.replacedModel === undefined)
      return report;
    // Stopped in the first pass: the conversations are counted by the vector each one got.
    if (report.pass === 'conversations')
      print(
        `stopped; ${report.gists.toLocaleString('en-US')} of ${plural(report.conversations, 'conversation')} got their first vector in ${formatDuration(seconds)}${pace} (found by meaning from now on), none embedded whole yet${again}`,
      );
    else
      print(
        `${report.interrupted ? 'stopped; ' : ''}embedded ${report.conversationsDone.toLocaleString('en-US')} of ${plural(report.conversations, 'conversation')} in ${formatDuration(seconds)}: ${plural(report.embedded, 'text chunk')} by the model${pace}, ${report.cached.toLocaleString('en-US')} from the cache${report.gists > 0 ? `, after one vector each for ${plural(report.gists, 'conversation')} first` : ''}${again}`,
      );
    return report;
  } finally {
    bar.done();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
