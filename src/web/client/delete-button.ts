import { ApiFailure, type ConversationInfo } from './api.js';
import { h } from './dom.js';

/**
 * The conversation view's Delete button: asks first, then deletes the conversation everywhere
 * (bundle, store; a later import leaves it out) and goes back to the list.
 */
export function deleteButton(conversation: ConversationInfo): HTMLButtonElement {
  const button = h(
    'button',
    {
      type: 'button',
      id: 'delete-conversation',
      class: 'delete-conversation',
      onclick: () => {
        const sure = window.confirm(
          `Delete "${conversation.name}" everywhere (its bundle file, attachments and search entries)? Importing its export again will leave it out.`,
        );
        if (!sure) return;
        button.disabled = true;
        void remove(conversation.id).then(
          () => {
            window.location.hash = '#/';
          },
          (error: unknown) => {
            button.disabled = false;
            window.alert(error instanceof Error ? error.message : String(error));
          },
        );
      },
    },
    'Delete',
  );
  return button;
}

async function remove(id: string): Promise<void> {
  const response = await fetch(`/api/conversations/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  });
  if (!response.ok) throw new ApiFailure(response.status, (await response.text()).trim());
}
