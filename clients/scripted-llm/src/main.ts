/**
 * Serves a scripted OpenAI-compatible model until SIGTERM/SIGINT:
 *   tsx clients/scripted-llm/src/main.ts --script script.json [--port 8089] [--host 127.0.0.1]
 * Prints the base URL (ending in /v1) on stdout so a demo script can capture it.
 */
import { parseArgs } from 'node:util';
import { createLogger, errorMessage } from '@farm/runtime';
import { loadModelScript } from './script';
import { startScriptedModelServer } from './server';

async function main() {
  const log = createLogger('scripted-llm');
  const { values } = parseArgs({
    options: {
      script: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
    },
  });
  if (!values.script) throw new Error('usage: main.ts --script file.json [--port N] [--host H]');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, got ${values.port}`);

  const server = await startScriptedModelServer({
    script: await loadModelScript(values.script),
    port,
    host: values.host,
  });
  process.stdout.write(server.baseURL + '\n');
  log.info('scripted model listening', { baseURL: server.baseURL, script: values.script });

  const stop = async (signal: string) => {
    log.info('stopping', { signal, requests: server.requests.length });
    await server.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(errorMessage(err) + '\n');
  process.exit(1);
});
