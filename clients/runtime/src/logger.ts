/** Structured logs: one JSON object per line on stderr, so stdout stays free for command output. */
import { environmentRedactor, type Redactor } from './secret-redaction';

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
    // Asked for each line: credentials the process learns while it runs (a new --repo URL's) are redacted too.
    const redact = environmentRedactor();
    write(
      JSON.stringify({
        ts: new Date().toISOString(),
        level: lvl,
        msg: redact(msg),
        ...serialize(base, redact),
        ...serialize(fields, redact),
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

function serialize(fields: LogFields | undefined, redact: Redactor): LogFields | undefined {
  if (!fields) return fields;
  return serializeValue(fields, 0, redact) as LogFields;
}

/**
 * Errors keep their name, message, stack, cause and (for FarmErrors) details; strings lose every secret the
 * process holds and every credential written in a URL (secret-redaction.ts).
 */
function serializeValue(v: unknown, depth: number, redact: Redactor): unknown {
  if (typeof v === 'string') return redact(v);
  if (v === null || typeof v !== 'object') return v;
  // Deeper values are written as their JSON text, redacted all the same.
  if (depth > 6) return redact(JSON.stringify(v) ?? '');
  if (v instanceof Error) {
    const e = v as Error & { details?: unknown; retryable?: unknown };
    return {
      name: e.name,
      message: redact(e.message),
      ...(e.retryable !== undefined ? { retryable: e.retryable } : {}),
      ...(e.details && Object.keys(e.details).length ? { details: serializeValue(e.details, depth + 1, redact) } : {}),
      ...(e.cause !== undefined ? { cause: serializeValue(e.cause, depth + 1, redact) } : {}),
      ...(e.stack ? { stack: redact(e.stack) } : {}),
    };
  }
  if (Array.isArray(v)) return v.map((x) => serializeValue(x, depth + 1, redact));
  if (Buffer.isBuffer(v)) return `<${v.length} bytes>`;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, serializeValue(x, depth + 1, redact)]));
}

/** For tests and embedded use where logs would only be noise. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};
