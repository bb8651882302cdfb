/** Structured logs: one JSON object per line on stderr, so stdout stays free for command output. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(
  component: string,
  options: { level?: LogLevel; fields?: LogFields; write?: (line: string) => void } = {},
): Logger {
  const level = options.level ?? ((process.env.LOG_LEVEL as LogLevel | undefined) || 'info');
  const min = ORDER[level] ?? ORDER.info;
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const base = { component, ...options.fields };
  const log = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[lvl] < min) return;
    write(
      JSON.stringify({
        ts: new Date().toISOString(),
        level: lvl,
        msg: redactUrlCredentials(msg),
        ...base,
        ...serialize(fields),
      }),
    );
  };
  return {
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
    child: (fields) => createLogger(component, { level, write, fields: { ...options.fields, ...fields } }),
  };
}

function serialize(fields?: LogFields): LogFields | undefined {
  if (!fields) return fields;
  return serializeValue(fields, 0) as LogFields;
}

/** Credentials written in a URL (`https://user:token@host`) never reach a log line. */
export function redactUrlCredentials(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@');
}

/** Errors keep their name, message, stack, cause and (for FarmErrors) details; strings lose URL credentials. */
function serializeValue(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return redactUrlCredentials(v);
  if (depth > 6 || v === null || typeof v !== 'object') return v;
  if (v instanceof Error) {
    const e = v as Error & { details?: unknown; retryable?: unknown };
    return {
      name: e.name,
      message: redactUrlCredentials(e.message),
      ...(e.retryable !== undefined ? { retryable: e.retryable } : {}),
      ...(e.details && Object.keys(e.details).length ? { details: serializeValue(e.details, depth + 1) } : {}),
      ...(e.cause !== undefined ? { cause: serializeValue(e.cause, depth + 1) } : {}),
      ...(e.stack ? { stack: redactUrlCredentials(e.stack) } : {}),
    };
  }
  if (Array.isArray(v)) return v.map((x) => serializeValue(x, depth + 1));
  if (Buffer.isBuffer(v)) return `<${v.length} bytes>`;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, serializeValue(x, depth + 1)]));
}

/** For tests and embedded use where logs would only be noise. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};
