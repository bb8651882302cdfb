import type { ConversationMessage } from '@farm/llm';
import { conversationTokens, fitConversation } from './conversation-window';

function conversation(): ConversationMessage[] {
  const messages: ConversationMessage[] = [
    { role: 'system', content: 'rules' },
    { role: 'user', content: 'goal ' + 'g'.repeat(400) },
  ];
  for (let i = 0; i < 10; i++) {
    messages.push({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: '{}' }],
    });
    messages.push({ role: 'tool', toolCallId: `c${i}`, content: `file ${i} ` + 'x'.repeat(4000) });
  }
  return messages;
}

describe('keeping the conversation within the context window', () => {
  test('older tool outputs are shortened first, oldest first; the task and the latest messages stay whole', () => {
    const messages = conversation();
    const window = conversationTokens(messages) - 2500;
    const shortened = fitConversation(messages, window);
    expect(shortened).toBe(3);
    expect(conversationTokens(messages)).toBeLessThanOrEqual(window);
    expect(messages[3]).toMatchObject({
      role: 'tool',
      content: expect.stringMatching(/^\[shortened .* read_file output had 4007 characters/),
    });
    expect(messages[7].content).toMatch(/^\[shortened/);
    expect(messages[9].content).toMatch(/^file 3 x/);
    expect(messages[1].content).toMatch(/^goal g/);
    expect(messages.slice(-6).every((m) => !m.content?.startsWith('[shortened'))).toBe(true);
  });

  test('a conversation within the window is left as it is', () => {
    const messages = conversation();
    expect(fitConversation(messages, 1_000_000)).toBe(0);
    expect(messages).toEqual(conversation());
  });
});
