import { farm } from '@farm/proto';
import { advance, newProgress, statusLine } from './progress';
import { parseServerSentEvents } from './farm-api';

const P = farm.v1.Phase;
const t = (fields: Partial<farm.v1.IPhaseTransition>) => farm.v1.PhaseTransition.create(fields);

describe('progress of a request', () => {
  it('follows the phase and counts tasks done out of all, with the running ones and the elapsed time', () => {
    let p = newProgress(0);
    p = advance(p, t({ sequence: 1, toPhase: P.PLANNING }));
    p = advance(p, t({ sequence: 2, toPhase: P.CODING }));
    p = advance(p, t({ sequence: 3, toPhase: P.CODING, taskId: 'a', taskState: 'DISPATCHED' }));
    p = advance(p, t({ sequence: 4, toPhase: P.CODING, taskId: 'b', taskState: 'PENDING' }));
    expect(statusLine(p, 5_000)).toBe('CODING  tasks 0/2 done, 1 running  5s');
    p = advance(p, t({ sequence: 5, toPhase: P.CODING, taskId: 'a', taskState: 'SUCCESS' }));
    p = advance(p, t({ sequence: 6, toPhase: P.BUILD }));
    expect(statusLine(p, 125_000)).toBe('BUILD  tasks 1/2 done  2m05s');
  });
});

describe('server-sent events', () => {
  const stream = (...chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
        c.close();
      },
    });

  it('parses events split anywhere across chunks, skipping comments', async () => {
    const events = [];
    for await (const e of parseServerSentEvents(
      stream(
        ': keep-alive\n\nid: 1\nevent: transition\nda',
        'ta: {"a":1}\n\nid: 2\r\nevent: transition\r\ndata: x\r\ndata: y\r\n\r\n',
      ),
    ))
      events.push(e);
    expect(events).toEqual([
      { id: '1', event: 'transition', data: '{"a":1}' },
      { id: '2', event: 'transition', data: 'x\ny' },
    ]);
  });
});
