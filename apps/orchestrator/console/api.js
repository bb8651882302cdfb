// Every call to the farm's API, with the token the user signed in with (kept for this tab in sessionStorage).
import { createParser } from '/console/vendor/eventsource-parser.js';

const TOKEN_KEY = 'farm.console.token';

// What the signed-in token is (GET /v1/whoami) and which forge the farm links to (GET /v1/forge), read once.
let caller;
let forge;

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  signIn(token) {
    caller = forge = undefined;
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  signOut() {
    caller = forge = undefined;
    sessionStorage.removeItem(TOKEN_KEY);
  },
};

/** The caller: { subject, tokenName?, scopes }. */
export function whoami() {
  caller ??= api('GET', '/v1/whoami').catch((err) => {
    caller = undefined;
    throw err;
  });
  return caller;
}

/** The forge ({ kind, webUrl }, or {} without one); a token that may not read it links nothing. */
export function forgeSite() {
  forge ??= api('GET', '/v1/forge').catch(() => ({}));
  return forge;
}

/** Whether the caller holds the scope (the API says so for admin too). */
export const may = (who, scope) => !!who?.scopes?.includes(scope);

/** The API refused the token (401): the user signs in again. */
export class Unauthorized extends Error {}
/** The token lacks the scope for this (403). */
export class Forbidden extends Error {}
/** Any other refusal, with the API's message. */
export class ApiFailure extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function headers(extra = {}) {
  const token = session.token();
  return { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
}

async function refusal(res) {
  const text = await res.text().catch(() => '');
  let message = text || res.statusText;
  try {
    message = JSON.parse(text).error?.message ?? message;
  } catch {
    // not JSON: the text as it is
  }
  if (res.status === 401) return new Unauthorized(message);
  if (res.status === 403) return new Forbidden(message);
  return new ApiFailure(res.status, message);
}

/** A JSON call; throws Unauthorized, Forbidden or ApiFailure. */
export async function api(method, path, body, { signal } = {}) {
  const res = await fetch(path, {
    method,
    signal,
    headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await refusal(res);
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

/** A plain-text resource beside the API (/metrics, /healthz): its status and text. */
export async function text(path) {
  const res = await fetch(path, { headers: headers() });
  if (res.status === 401 || res.status === 403) throw await refusal(res);
  return { status: res.status, text: await res.text() };
}

const FINAL = new Set(['DONE', 'FAILED', 'CANCELLED']);

/**
 * The request's transitions, read from GET /v1/change-requests/{id}/events with fetch (EventSource cannot send
 * the token). A stream that breaks is opened again with Last-Event-ID, so nothing is missed or repeated; it
 * ends once the server has sent the final phase and closed the stream, or when `signal` aborts.
 */
export function followTransitions(id, { signal, onTransition, onReconnect }) {
  return followEvents(`/v1/change-requests/${encodeURIComponent(id)}/events`, {
    signal,
    onReconnect,
    onEvent(event) {
      if (event.event !== 'transition') return false;
      const transition = JSON.parse(event.data);
      onTransition(transition);
      return !transition.taskId && FINAL.has(transition.toPhase);
    },
  });
}

/**
 * A task's steps as its agents take them (GET .../tasks/{taskId}/events): `onStep({ dispatch, runId, seq, step })`
 * for each, `onEnd({ status })` once the task ended; resumed like the request's transitions.
 */
export function followTaskSteps(id, taskId, { signal, onStep, onEnd, onReconnect }) {
  const path = `/v1/change-requests/${encodeURIComponent(id)}/tasks/${encodeURIComponent(taskId)}/events`;
  return followEvents(path, {
    signal,
    onReconnect,
    onEvent(event) {
      if (event.event === 'step') onStep(JSON.parse(event.data));
      if (event.event !== 'end') return false;
      onEnd?.(JSON.parse(event.data));
      return true;
    },
  });
}

/**
 * An event stream of the API read with fetch; `onEvent` says whether the event was the last one. A stream that
 * breaks before it is opened again with Last-Event-ID; it ends after the last event, or when `signal` aborts.
 */
async function followEvents(path, { signal, onEvent, onReconnect }) {
  let lastId = '';
  let final = false;
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      const res = await fetch(path, {
        signal,
        headers: headers({ accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) }),
      });
      if (!res.ok) throw await refusal(res);
      if (attempt > 0) onReconnect?.(lastId);
      const parser = createParser({
        onEvent(event) {
          if (event.id) lastId = event.id;
          if (onEvent(event)) final = true;
        },
      });
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
      if (final) return;
    } catch (err) {
      if (signal.aborted || err instanceof Unauthorized || err instanceof Forbidden) throw err;
      if (err instanceof ApiFailure && err.status < 500) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 500 * 2 ** Math.min(attempt, 4))));
  }
}
