import { chatgpt } from './chatgpt/index.js';
import { claudeAi } from './claude-ai/index.js';
import { claudeCode } from './claude-code/index.js';
import { codex } from './codex/index.js';
import { geminiCli } from './gemini-cli/index.js';
import { qwenCode } from './qwen-code/index.js';
import { cline } from './cline/index.js';
import { rooCode } from './roo-code/index.js';
import { kiloCode } from './kilo-code/index.js';
import { aider } from './aider/index.js';
import { windsurf } from './windsurf/index.js';
import { copilotCli } from './copilot-cli/index.js';
import { mistralVibe } from './mistral-vibe/index.js';
import { pi } from './pi/index.js';
import { vscodeCopilotChat } from './vscode-copilot-chat/index.js';
import { amp } from './amp/index.js';
import { continueDev } from './continue/index.js';
import { opencode } from './opencode/index.js';
import { goose } from './goose/index.js';
import { zed } from './zed/index.js';
import { cursor } from './cursor/index.js';
import { kiro } from './kiro/index.js';
import { deepseek } from './deepseek/index.js';
import { grok } from './grok/index.js';
import { leChat } from './le-chat/index.js';
import { copilot } from './copilot/index.js';
import { gemini } from './gemini/index.js';
import { pam } from './pam/index.js';
import { perplexity } from './perplexity/index.js';
import type { Provider } from './provider.js';

/** Every provider chatgraph knows, in the order detection asks them. */
// PAM first: its detection (a `schema` member naming PAM) is the narrowest. DeepSeek before
// ChatGPT: both have a `mapping`; DeepSeek's detection is the narrower.
export const PROVIDERS: readonly Provider[] = [
  pam,
  deepseek,
  chatgpt,
  claudeAi,
  codex,
  geminiCli,
  qwenCode,
  cline,
  rooCode,
  kiloCode,
  aider,
  windsurf,
  copilotCli,
  mistralVibe,
  pi,
  vscodeCopilotChat,
  amp,
  continueDev,
  claudeCode,
  opencode,
  goose,
  zed,
  cursor,
  kiro,
  grok,
  leChat,
  copilot,
  gemini,
  perplexity,
];

/** The provider with this graph `source` or PAM name, if any. */
export function findProvider(nameOrSource: string): Provider | undefined {
  return PROVIDERS.find((p) => p.source === nameOrSource || p.name === nameOrSource);
}

/** The providers in the order people are shown them (help, messages), not detection's. */
const LISTED: readonly Provider[] = [
  chatgpt,
  claudeAi,
  claudeCode,
  codex,
  geminiCli,
  qwenCode,
  cline,
  rooCode,
  kiloCode,
  aider,
  cursor,
  opencode,
  goose,
  zed,
  kiro,
  copilotCli,
  mistralVibe,
  pi,
  vscodeCopilotChat,
  amp,
  continueDev,
  windsurf,
  gemini,
  grok,
  deepseek,
  copilot,
  leChat,
  perplexity,
  pam,
];

/** The products chatgraph reads, for a sentence: `ChatGPT, Claude.ai, … or Le Chat`. */
export function productList(): string {
  const names = LISTED.map((p) => p.product);
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
}
