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
    write(JSON.stringify({ ts: new Date().toISOString(), level: lvl, msg, ...base, ...serialize(fields) }));
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
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    out[k] = v instanceof Error ? { name: v.name, message: v.message } : v;
  }
  return out;
}

/** For tests and embedded use where logs would only be noise. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};
