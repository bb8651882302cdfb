import type { MessageMeta } from '@farm/bus';

/** The metadata of messages handed to the orchestrator's handlers directly, each at the next position of its own. */
export function messageMetaSequence(): (topic: string, key: string) => MessageMeta {
  let position = 0;
  return (topic, key) => ({ topic, key, headers: {}, position: String(++position), attempt: 1 });
}
