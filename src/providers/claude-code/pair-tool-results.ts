import type { DraftMessage } from '../../model/draft.js';
import { toolResultText } from '../tool-result-text.js';
import type { ConversionContext } from '../provider.js';
import { asText } from '../untrusted.js';
import type { SessionDrafts } from './session-drafts.js';

/**
 * Pairs tool results, which arrive on later lines, with their calls: the output goes on the
 * call, an orphan result is reported and kept on the message that held it, a Task/Agent result
 * links the subagent conversation it started, and failed calls are listed on their message.
 * A followed session pairs only the results from `from` on, and learns in `touched` which
 * drafts changed.
 */
export function pairToolResults(
  session: SessionDrafts,
  sessionId: string | undefined,
  context: ConversionContext,
  from = 0,
  touched?: Set<DraftMessage>,
): void {
  const { drafts, calls, callOwner } = session;
  for (const { block, holder, agentId } of session.pendingResults.slice(from)) {
    const id = asText(block.tool_use_id);
    const call = id !== undefined ? calls.get(id) : undefined;
    const output = toolResultText(block.content);
    if (!call) {
      context.report({
        level: 'warning',
        code: 'orphan-tool-result',
        message: `tool_result for ${id ?? 'no id'} has no matching tool_use; kept in raw_metadata.orphan_tool_results`,
        record: context.record,
      });
      const target = holder ?? drafts.at(-1);
      if (target) appendRaw(target, 'orphan_tool_results', { tool_use_id: id ?? null, output });
      if (target) touched?.add(target);
      continue;
    }
    call.output = call.output === null ? output : `${call.output}\n${output}`;
    // Maps, not searches: a long session has thousands of results to pair.
    const caller = callOwner.get(call);
    if (caller) touched?.add(caller);
    if (agentId !== undefined && caller && sessionId !== undefined) {
      appendRaw(caller, 'subagents', {
        tool_use_id: call.id,
        conversation_id: `${sessionId}/agent-${agentId}`,
      });
    }
    if (block.is_error === true && caller) appendRaw(caller, 'tool_errors', call.id);
  }
}

function appendRaw(draft: DraftMessage, field: string, value: unknown): void {
  const list = Array.isArray(draft.raw_metadata[field])
    ? (draft.raw_metadata[field] as unknown[])
    : [];
  list.push(value);
  draft.raw_metadata[field] = list;
}
