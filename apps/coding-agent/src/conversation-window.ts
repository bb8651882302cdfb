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

/** Tools whose output is a snapshot the model can ask for again; their old outputs are elided. */
const REREADABLE = new Set(['read_file', 'search', 'list_files', 'find_symbol', 'run_command', 'run_checks']);

export interface ElisionOptions {
  /** An output is elided once this many model turns have followed the call. */
  afterTurns: number;
  /** Outputs shorter than this stay (a stub would save little). */
  minChars: number;
}

export const DEFAULT_ELISION: ElisionOptions = { afterTurns: 4, minChars: 600 };

/** What a call was, in a few words: `read_file src/a.py lines 10-80`. */
function describeCall(name: string, rawArguments: string): string {
  let args: Record<string, unknown> = {};
  try {
    args = JSON.parse(rawArguments || '{}') as Record<string, unknown>;
  } catch {
    return name;
  }
  if (name === 'read_file') {
    const range =
      args.start_line || args.end_line
        ? ` lines ${String(args.start_line ?? 1)}-${String(args.end_line ?? 'end')}`
        : '';
    return `read_file ${String(args.path)}${range}`;
  }
  const shown = JSON.stringify(args);
  return `${name} ${shown.length > 120 ? `${shown.slice(0, 117)}...` : shown}`;
}

/**
 * Replaces the outputs of re-readable tool calls (a file read, a search, a check run) that are `afterTurns`
 * model turns old by a one-line stub naming the call, so the model can make it again: what it read is in its
 * later reasoning and edits, and the file may have changed since. Done in batches, when the number of turns
 * is a multiple of `afterTurns`: between batches the conversation's start stays byte for byte the same, so
 * an endpoint's prompt cache keeps serving it. Shortens in place; returns how many outputs were elided.
 */
export function elideStaleOutputs(messages: ConversationMessage[], opts: ElisionOptions = DEFAULT_ELISION): number {
  const turns = messages.filter((m) => m.role === 'assistant').length;
  if (turns === 0 || turns % opts.afterTurns !== 0) return 0;
  const calls = new Map<string, { name: string; args: string; turn: number }>();
  let turn = 0;
  let elided = 0;
  for (const m of messages) {
    if (m.role === 'assistant') {
      turn++;
      for (const c of m.toolCalls ?? []) calls.set(c.id, { name: c.name, args: c.arguments, turn });
      continue;
    }
    if (m.role !== 'tool' || m.content.length < opts.minChars || m.content.startsWith('[elided')) continue;
    const call = calls.get(m.toolCallId);
    if (!call || !REREADABLE.has(call.name) || turns - call.turn < opts.afterTurns) continue;
    m.content = `[elided: ${describeCall(call.name, call.args)} gave ${m.content.length} characters ${turns - call.turn} turns ago; call it again if you need it]`;
    elided++;
  }
  return elided;
}

/** What the server said when a request did not fit (see ContextOverflow), and what the farm sent. */
export interface OverflowSeen {
  /** The server's context, in its tokens. */
  contextTokens?: number;
  /** The request's prompt as the server counted it. */
  promptTokens?: number;
  /** The conversation as the farm estimates it (conversationTokens). */
  sentTokens: number;
  /** The output limit each call sends. */
  outputLimit?: number;
}

/**
 * The window (in the farm's own estimate) to keep the conversation within after the server refused it as too
 * long: what its context holds once an answer's room is kept free, scaled by how the server counts against the
 * farm's estimate, with a margin. Without the server's sizes, 60 % of the window used.
 */
export function windowAfterOverflow(seen: OverflowSeen, windowTokens: number): number {
  const used = Math.min(windowTokens, seen.sentTokens);
  const { contextTokens, promptTokens } = seen;
  if (!contextTokens) return Math.floor(used * 0.6);
  const room = Math.min(seen.outputLimit ?? Math.floor(contextTokens / 4), Math.floor(contextTokens / 4));
  const fits = contextTokens - room;
  // The server's tokens per the farm's estimated token (the tools' schemas count on its side only).
  const ratio = promptTokens && seen.sentTokens ? Math.max(0.5, promptTokens / seen.sentTokens) : 1.3;
  return Math.max(0, Math.min(Math.floor(used * 0.9), Math.floor((fits / ratio) * 0.9)));
}

/** The smallest the conversation gets by shortening (fitConversation): the system prompt, the task, the latest. */
export function smallestConversation(messages: ConversationMessage[], keepRecent = 6): number {
  const last = messages.length - keepRecent;
  return messages.reduce((n, m, i) => {
    if (i < 2 || i >= last || !m.content || m.content.length < 200 || m.role === 'system' || m.role === 'user')
      return n + messageTokens(m);
    return n + 40; // a note in its place
  }, 0);
}
