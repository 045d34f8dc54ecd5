import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DraftMessage } from '../../model/draft.js';
import type { JsonObject } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { attachResearchReports } from './deep-research.js';

const context: ConversionContext = {
  report: () => undefined,
  resolveAsset: () => undefined,
  attachText: (_conversation, name) => `text/${name ?? 'untitled'}.txt`,
  fallbackTime: undefined,
  record: '#0',
  file: 'conversations.json',
};

function draft(key: string, raw: JsonObject, text = ''): DraftMessage {
  return {
    key,
    parentKey: null,
    provider_message_id: key,
    role: raw.author_name !== undefined ? 'tool' : 'assistant',
    content: { type: 'text', text },
    createdAt: undefined,
    model: null,
    is_thought: false,
    attachments: [],
    citations: [],
    tool_calls: [],
    raw_metadata: raw,
  };
}

const widget = (status: string, report: string, id = 'r1'): JsonObject => ({
  metadata: {
    chatgpt_sdk: {
      widget_state: JSON.stringify({
        status,
        plan: { title: 'Plan title' },
        report_message: { id, content: { parts: [report] } },
      }),
    },
  },
});

describe('attachResearchReports', () => {
  it("names a result message's report after the kickoff's task when it does not repeat the title", () => {
    const drafts = [
      draft('k', {
        author_name: 'research_kickoff_tool.start_research_task',
        metadata: { async_task_id: 'deepresch_1', async_task_title: 'Tide tables' },
      }),
      draft(
        'r',
        { metadata: { is_async_task_result_message: true, async_task_id: 'deepresch_1' } },
        '# Tides\n\nTwice a day.',
      ),
    ];
    attachResearchReports(drafts, 'conv', context);
    expect(drafts[1]?.attachments).toEqual([
      {
        type: 'document',
        name: 'Tide tables',
        mime_type: 'text/markdown',
        size_bytes: 21,
        ref: 'text/Tide tables.txt',
        provider_id: 'deepresch_1',
      },
    ]);
    expect(drafts[0]?.attachments).toEqual([]);
  });

  it('keeps the fullest snapshot of one app report, on the message that holds it', () => {
    const drafts = [
      draft('a', widget('completed', 'Short.')),
      draft('b', widget('completed', 'Short. And the rest of it.')),
      draft('c', widget('completed', 'Short.')),
    ];
    attachResearchReports(drafts, 'conv', context);
    expect(drafts.map((d) => d.attachments.length)).toEqual([0, 1, 0]);
    expect(drafts[1]?.raw_metadata.deep_research).toEqual({
      title: 'Plan title',
      id: 'r1',
      shape: 'app-widget',
    });
  });

  it('leaves a report still being written, and async results of other tasks, alone', () => {
    const drafts = [
      draft('a', widget('running', 'Half of it')),
      draft(
        'b',
        { metadata: { is_async_task_result_message: true, async_task_type: 'image_gen' } },
        'an image',
      ),
    ];
    attachResearchReports(drafts, 'conv', context);
    expect(drafts.every((d) => d.attachments.length === 0)).toBe(true);
  });

  it('never throws on any widget state, and attaches only non-empty text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue()), (state) => {
        const drafts = [draft('a', { metadata: { chatgpt_sdk: { widget_state: state } } })];
        attachResearchReports(drafts, 'conv', context);
        for (const attachment of drafts[0]?.attachments ?? [])
          expect(attachment.size_bytes).toBeGreaterThan(0);
      }),
    );
  });
});
