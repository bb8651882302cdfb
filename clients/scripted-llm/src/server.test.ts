import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadModelScript, ModelScriptInvalid, startScriptedModelServer, type ScriptedModelServer } from './index';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async (r: Response | Promise<Response>): Promise<any> => (await r).json();
const chatBody = (text: string) => ({ model: 'm', messages: [{ role: 'user', content: text }] });

describe('scripted model server', () => {
  let server: ScriptedModelServer;
  afterEach(() => server?.close());

  it('answers steps in order, honours match and repeat, and records requests', async () => {
    server = await startScriptedModelServer({
      script: {
        chat: [
          { match: 'about cats', content: 'meow' },
          { answer: { diff: 'd1', reasoning: 'r1' } },
          { content: 'always', repeat: true },
        ],
      },
    });
    const ask = async (t: string) =>
      (await json(post(`${server.baseURL}/chat/completions`, chatBody(t)))).choices[0].message.content;
    expect(await ask('first')).toBe(JSON.stringify({ diff: 'd1', reasoning: 'r1' }));
    expect(await ask('tell me about cats')).toBe('meow');
    expect(await ask('x')).toBe('always');
    expect(await ask('y')).toBe('always');
    expect(server.requests.map((r) => r.step)).toEqual([1, 0, 2, 2]);
    const remote = await json(fetch(server.baseURL.replace('/v1', '/_scripted/requests')));
    expect(remote).toHaveLength(4);
    expect(remote[1].messages[0].content).toBe('tell me about cats');
  });

  it('fails loudly with an OpenAI-style 400 when no step matches, and setScript resets', async () => {
    server = await startScriptedModelServer({ script: { chat: [{ match: 'never', content: 'x' }] } });
    const res = await post(`${server.baseURL}/chat/completions`, chatBody('hello'));
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toBe('scripted model has no step for this request');
    expect(server.requests[0]).toMatchObject({ step: null, outcome: 'no-step' });

    server.setScript({ chat: [{ content: 'ok' }] });
    expect((await post(`${server.baseURL}/chat/completions`, chatBody('hello'))).status).toBe(200);
  });

  it('serves faults, models and base64 embeddings', async () => {
    server = await startScriptedModelServer({
      script: {
        chat: [
          { fault: { status: 429, retryAfterMs: 5 } },
          { fault: { malformed: true } },
          { fault: { emptyChoices: true } },
        ],
        embeddingDimensions: 8,
      },
    });
    const r429 = await post(`${server.baseURL}/chat/completions`, chatBody('a'));
    expect(r429.status).toBe(429);
    expect(r429.headers.get('retry-after-ms')).toBe('5');
    expect((await json(r429)).error).toMatchObject({ type: 'rate_limit_exceeded', code: 429 });
    const bad = await post(`${server.baseURL}/chat/completions`, chatBody('a'));
    expect(bad.status).toBe(200);
    await expect(bad.json()).rejects.toThrow();
    const empty = await json(post(`${server.baseURL}/chat/completions`, chatBody('a')));
    expect(empty).toMatchObject({ object: 'chat.completion', choices: [] });
    expect(server.requests.map((r) => r.outcome)).toEqual(['fault', 'malformed', 'malformed']);

    expect((await json(fetch(`${server.baseURL}/models`))).data[0].id).toBe('scripted-model');

    // The openai client's default encoding: packed little-endian float32.
    const emb = await json(
      post(`${server.baseURL}/embeddings`, { model: 'e', input: 'hi there', encoding_format: 'base64' }),
    );
    const buf = Buffer.from(emb.data[0].embedding, 'base64');
    expect(Array.from(new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4))).toHaveLength(8);
  });
});

describe('loadModelScript', () => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(path.join(tmpdir(), 'scripted-llm-'))));
  const write = async (name: string, text: string) => {
    const file = path.join(dir, name);
    await writeFile(file, text);
    return file;
  };

  it('loads a valid script', async () => {
    const file = await write('ok.json', JSON.stringify({ chat: [{ answer: { diff: 'x' } }], embeddingDimensions: 16 }));
    expect(await loadModelScript(file)).toEqual({ chat: [{ answer: { diff: 'x' } }], embeddingDimensions: 16 });
  });

  it('rejects bad shapes naming the path of each problem', async () => {
    const file = await write(
      'bad.json',
      JSON.stringify({ chat: [{ content: 'a', answer: { diff: 'b' } }, { fault: { status: 'x' } }] }),
    );
    const err = await loadModelScript(file).catch((e) => e);
    expect(err).toBeInstanceOf(ModelScriptInvalid);
    expect(err.message).toContain('bad.json');
    expect(err.message).toContain(
      'chat.0: step needs exactly one of toolCalls, content, answer, fault.status, fault.malformed, fault.emptyChoices (has 2)',
    );
    expect(err.message).toMatch(/chat\.1\.fault\.status: .*number/i);
  });

  it('rejects non-JSON and missing files clearly', async () => {
    await expect(loadModelScript(await write('junk.json', '{chat:'))).rejects.toThrow(/junk\.json is not valid JSON/);
    await expect(loadModelScript(path.join(dir, 'missing.json'))).rejects.toThrow(
      /cannot read model script .*missing\.json/,
    );
  });

  it('CLI prints the base URL and serves until SIGTERM', async () => {
    const file = await write('cli.json', JSON.stringify({ chat: [{ content: 'from cli' }] }));
    const tsx = path.resolve(__dirname, '../../../node_modules/.bin/tsx');
    const child = spawn(tsx, [path.join(__dirname, 'main.ts'), '--script', file, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const baseURL = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      child.once('exit', (code) => reject(new Error(`cli exited ${code}`)));
    });
    expect(baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await json(post(`${baseURL}/chat/completions`, chatBody('q')));
    expect(res.choices[0].message.content).toBe('from cli');
    const code = await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  }, 30000);
});
