/** Where a conversation is on its platform, for the sources whose links are known. */
export function platformUrl(source: string, platformId: string): string | null {
  const id = encodeURIComponent(platformId);
  if (platformId === '') return null;
  if (source === 'chatgpt') return `https://chatgpt.com/c/${id}`;
  if (source === 'claude-ai') return `https://claude.ai/chat/${id}`;
  return null;
}
