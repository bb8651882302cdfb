import { SseDecoder } from '@farm/farm-api';
import { formatSseComment, formatSseEvent } from './server-sent-events';

describe('server-sent events', () => {
  test('what the server writes, split at every possible point, decodes to the same events', () => {
    const wire =
      formatSseComment('hello') +
      formatSseEvent({ id: 1, event: 'transition', data: '{"a":1}' }) +
      formatSseComment('keep-alive') +
      formatSseEvent({ id: 2, event: 'transition', data: 'two\nlines' });
    for (let cut = 0; cut <= wire.length; cut++) {
      const decoder = new SseDecoder();
      const events = [...decoder.push(wire.slice(0, cut)), ...decoder.push(wire.slice(cut))];
      expect(events).toEqual([
        { id: '1', event: 'transition', data: '{"a":1}' },
        { id: '2', event: 'transition', data: 'two\nlines' },
      ]);
    }
  });

  test('CRLF line ends, also split between CR and LF, and an incomplete last event waits for more', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('id: 3\r\nevent: transition\r\ndata: x\r')).toEqual([]);
    expect(decoder.push('\n\r\ndata: y')).toEqual([{ id: '3', event: 'transition', data: 'x' }]);
    expect(decoder.push('\n\n')).toEqual([{ id: undefined, event: 'message', data: 'y' }]);
  });
});
