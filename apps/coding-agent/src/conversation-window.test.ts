import type { ConversationMessage } from '@farm/llm';
import { conversationTokens, elideStaleOutputs, fitConversation } from './conversation-window';

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

describe('eliding old tool outputs once read', () => {
  /** A conversation of `turns` model turns: reads of a.py lines i..i+99, an edit at turn 3. */
  function reads(turns: number): ConversationMessage[] {
    const messages: ConversationMessage[] = [
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'goal' },
    ];
    for (let t = 1; t <= turns; t++) {
      const name = t === 3 ? 'edit_file' : 'read_file';
      const args = JSON.stringify({ path: 'a.py', start_line: t, end_line: t + 99 });
      messages.push({ role: 'assistant', content: null, toolCalls: [{ id: `c${t}`, name, arguments: args }] });
      messages.push({ role: 'tool', toolCallId: `c${t}`, content: `${t}| ` + 'x'.repeat(1000) });
    }
    return messages;
  }

  test('re-readable outputs older than the window become a stub naming the file and range; others stay', () => {
    const messages = reads(8);
    expect(elideStaleOutputs(messages, { afterTurns: 4, minChars: 600 })).toBe(3);
    expect(messages[3].content).toBe(
      '[elided: read_file a.py lines 1-100 gave 1003 characters 7 turns ago; call it again if you need it]',
    );
    expect(messages[5].content).toMatch(/^\[elided: read_file a\.py lines 2-101 /);
    expect(messages[7].content).toMatch(/^3\| x/); // an edit's result is not a snapshot to re-read
    expect(messages[9].content).toMatch(/^\[elided: read_file a\.py lines 4-103 gave 1003 characters 4 turns ago/);
    expect(messages[11].content).toMatch(/^5\| x/);
    expect(messages.slice(0, 2)).toEqual(reads(8).slice(0, 2));
  });

  test('only every afterTurns turns, so the start of the conversation stays the same between batches', () => {
    const messages = reads(9);
    expect(elideStaleOutputs(messages, { afterTurns: 4, minChars: 600 })).toBe(0);
    expect(messages).toEqual(reads(9));
    const twelve = reads(12);
    expect(elideStaleOutputs(twelve, { afterTurns: 4, minChars: 600 })).toBe(7);
    expect(elideStaleOutputs(twelve, { afterTurns: 4, minChars: 600 })).toBe(0); // already elided
  });
});
