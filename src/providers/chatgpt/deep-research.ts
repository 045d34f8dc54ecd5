import { z } from 'zod';
import type { DraftMessage } from '../../model/draft.js';
import type { ConversionContext } from '../provider.js';
import { asObject, asString, asText } from '../untrusted.js';

/*
 * ChatGPT's deep research: the assistant calls `research_kickoff_tool.start_research_task` (or
 * `clarify_with_text` first), a `tool` message of that name answers with the task
 * (`metadata.async_task_id`, `async_task_title`, `async_task_prompt`), and the report arrives
 * later in one of two shapes:
 * - an assistant message whose text is the report, marked `metadata.is_async_task_result_message`
 *   with `async_task_type: "research"` and the task's id and title (2025 to early 2026);
 * - a `tool` message of the deep-research app whose `metadata.chatgpt_sdk.widget_state` is JSON
 *   text `{status, plan: {title}, report_message: {id, content: {parts: [markdown]}}}` (2026);
 *   the same report can sit in several snapshots of that state, as it grew.
 * Each report becomes a document attachment of the message that holds it, named after its task,
 * so it is kept whole and found by search as a document, as canvas documents are.
 */
const KICKOFF = 'research_kickoff_tool';
const UNTITLED = 'Deep research report';

// The app's state: JSON in a string, read at this boundary; anything else is not a report.
const widgetState = z.object({
  status: z.string().optional(),
  plan: z.object({ title: z.string().optional() }).passthrough().optional(),
  report_message: z
    .object({
      id: z.string().optional(),
      content: z.object({ parts: z.array(z.unknown()) }).passthrough(),
    })
    .passthrough(),
});

interface Report {
  draft: DraftMessage;
  title: string | undefined;
  taskId: string | undefined;
  text: string;
  shape: 'async-result' | 'app-widget';
}

/** The app-backed report a message's widget state holds, with its id, or undefined. */
function widgetReport(
  metadata: Record<string, unknown>,
): { id: string | undefined; title: string | undefined; text: string } | undefined {
  const sdk = asObject(metadata.chatgpt_sdk);
  if (!sdk) return undefined;
  let state: unknown = sdk.widget_state;
  if (typeof state === 'string') {
    try {
      state = JSON.parse(state);
    } catch {
      return undefined;
    }
  }
  const parsed = widgetState.safeParse(state);
  if (!parsed.success) return undefined;
  const { report_message: message, plan, status } = parsed.data;
  // A report still being written is not the report: a later snapshot holds it.
  if (status !== undefined && status !== 'completed') return undefined;
  const text = message.content.parts
    .filter((part): part is string => typeof part === 'string')
    .join('\n')
    .trim();
  if (text === '') return undefined;
  return { id: message.id, title: asText(plan?.title), text };
}

/** Gives each message that holds a deep-research report that report as a document attachment. */
export function attachResearchReports(
  drafts: DraftMessage[],
  conversationId: string,
  context: ConversionContext,
): void {
  // The task's title, from the kickoff tool's answer, for a report that does not repeat it.
  const titles = new Map<string, string>();
  for (const draft of drafts) {
    const metadata = asObject(draft.raw_metadata.metadata) ?? {};
    const author = asString(draft.raw_metadata.author_name) ?? '';
    const taskId = asText(metadata.async_task_id);
    const title = asText(metadata.async_task_title);
    if (author.startsWith(KICKOFF) && taskId !== undefined && title !== undefined)
      titles.set(taskId, title);
  }

  const reports: Report[] = [];
  const byReportId = new Map<string, Report>();
  for (const draft of drafts) {
    const metadata = asObject(draft.raw_metadata.metadata) ?? {};
    const taskId = asText(metadata.async_task_id);
    if (
      metadata.is_async_task_result_message === true &&
      (metadata.async_task_type === 'research' || taskId?.startsWith('deepresch_') === true)
    ) {
      const text = (draft.content?.text ?? '').trim();
      if (text === '') continue;
      const title =
        asText(metadata.async_task_title) ??
        (taskId !== undefined ? titles.get(taskId) : undefined);
      reports.push({ draft, title, taskId, text, shape: 'async-result' });
      continue;
    }
    const widget = widgetReport(metadata);
    if (!widget) continue;
    const report: Report = {
      draft,
      title: widget.title,
      taskId: widget.id,
      text: widget.text,
      shape: 'app-widget',
    };
    if (widget.id === undefined) {
      reports.push(report);
      continue;
    }
    // Snapshots of one report: the fullest is the report (the first of equals keeps its place).
    const earlier = byReportId.get(widget.id);
    if (!earlier) {
      byReportId.set(widget.id, report);
      reports.push(report);
    } else if (report.text.length > earlier.text.length) {
      reports[reports.indexOf(earlier)] = report;
      byReportId.set(widget.id, report);
    }
  }

  for (const report of reports) {
    const name = report.title ?? UNTITLED;
    report.draft.attachments.push({
      type: 'document',
      name,
      mime_type: 'text/markdown',
      size_bytes: Buffer.byteLength(report.text, 'utf8'),
      ref: context.attachText(conversationId, name, report.text),
      provider_id: report.taskId ?? null,
    });
    report.draft.raw_metadata.deep_research = {
      title: name,
      ...(report.taskId !== undefined ? { id: report.taskId } : {}),
      shape: report.shape,
    };
  }
}
