import type { ConversationMessage } from '@farm/llm';

/** Rough tokens of a message (~4 characters a token, plus the wire format's overhead). */
export function messageTokens(m: ConversationMessage): number {
  const calls =
    m.role === 'assistant' ? (m.toolCalls ?? []).reduce((n, c) => n + c.name.length + c.arguments.length, 0) : 0;
  return Math.ceil(((m.content ?? '').length + calls) / 4) + 4;
}

export const conversationTokens = (messages: ConversationMessage[]): number =>
  messages.reduce((n, m) => n + messageTokens(m), 0);

/**
 * Keeps the conversation within `windowTokens`: first the outputs of older tool calls are shortened to a
 * note (the model can call the tool again), oldest first, then older assistant text. The system prompt, the
 * task and the `keepRecent` latest messages stay whole. Shortens in place; returns how many were shortened.
 */
export function fitConversation(messages: ConversationMessage[], windowTokens: number, keepRecent = 6): number {
  let total = conversationTokens(messages);
  if (total <= windowTokens) return 0;
  const toolNames = new Map<string, string>();
  for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) toolNames.set(c.id, c.name);
  const last = messages.length - keepRecent;
  let shortened = 0;
  for (const role of ['tool', 'assistant'] as const) {
    for (let i = 2; i < last && total > windowTokens; i++) {
      const m = messages[i];
      if (m.role !== role || !m.content || m.content.length < 200 || m.content.startsWith('[shortened')) continue;
      const before = messageTokens(m);
      const note =
        m.role === 'tool'
          ? `[shortened to keep the conversation in the context window: the ${toolNames.get(m.toolCallId) ?? 'tool'} output had ${m.content.length} characters; call the tool again if you need it]`
          : `[shortened: ${m.content.length} characters of earlier reasoning]`;
      m.content = note;
      total -= before - messageTokens(m);
      shortened++;
    }
  }
  return shortened;
}
