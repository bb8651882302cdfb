import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chunkFile, extractSymbols, gitBlobId, type Chunk } from './chunker';

const at = (chunks: Chunk[], symbol: string) => chunks.find((c) => c.symbol === symbol);
const chunk = (p: string, text: string) =>
  chunkFile({ repo: 'https://git.example.com/app.git', commit: 'c'.repeat(40), path: p, text });

const TS = `import { setTimeout as sleep } from 'node:timers/promises';

const DEFAULT_MS = 5000;

/**
 * fetch() that gives up after \`ms\`; braces in strings and regexes must not confuse the chunker: "{" /[{]/
 */
export async function fetchWithTimeout(url: string, ms = DEFAULT_MS): Promise<Response> {
  const pattern = /[{(]/g;
  const label = \`fetch \${url} {\`;
  return fetch(url, { signal: AbortSignal.timeout(ms) });
}

export const withRetry = async <T>(fn: () => Promise<T>, attempts = 3): Promise<T> => {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i + 1 >= attempts) throw err;
      await sleep(100 * 2 ** i);
    }
  }
};

export class HttpClient {
  constructor(private readonly base: string) {}

  async get(path: string): Promise<Response> {
    return fetchWithTimeout(this.base + path);
  }

  static create(
    base: string,
  ): HttpClient {
    return new HttpClient(base);
  }
}

export interface ClientOptions {
  base: string;
  timeoutMs: number;
}
`;

const JS = `'use strict';
const http = require('node:http');

function parseHeaders(raw) {
  return Object.fromEntries(raw.split('\\n').map((l) => l.split(': ')));
}

const handler = (req, res) => {
  res.end(JSON.stringify(parseHeaders(req.rawHeaders.join('\\n'))));
};

module.exports = { parseHeaders, handler };
`;

const PY = `"""HTTP helpers."""
import urllib.request

TIMEOUT = 5


@functools.cache
def fetch_with_timeout(url, timeout=TIMEOUT):
    """Fetch a URL.

    def this_is_not_a_function(): inside a docstring
    """
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


class Client:
    def __init__(self, base):
        self.base = base

    async def get(self, path):
        return fetch_with_timeout(self.base + path)


if __name__ == "__main__":
    print(Client("http://x").base)
`;

describe('chunking TypeScript', () => {
  const chunks = chunk('src/http.ts', TS);

  it('makes each top-level function, arrow function and class its own chunk with its exact lines', () => {
    expect(at(chunks, 'fetchWithTimeout')).toMatchObject({ kind: 'function', startLine: 5, endLine: 12 });
    expect(at(chunks, 'fetchWithTimeout')!.text.split('\n')[0]).toBe('/**'); // the doc comment comes along
    expect(at(chunks, 'withRetry')).toMatchObject({ kind: 'function', startLine: 14, endLine: 23 });
    expect(at(chunks, 'HttpClient')).toMatchObject({ kind: 'class', startLine: 25, endLine: 37 });
    expect(at(chunks, 'ClientOptions')).toMatchObject({ kind: 'type', startLine: 39, endLine: 42 });
  });

  it('keeps imports and small declarations in module chunks, so every line is somewhere', () => {
    expect(chunks[0]).toMatchObject({ kind: 'module', startLine: 1, endLine: 3 });
    const covered = new Set(
      chunks.flatMap((c) => Array.from({ length: c.endLine - c.startLine + 1 }, (_, i) => c.startLine + i)),
    );
    TS.split('\n').forEach((line, i) => line.trim() && expect(covered.has(i + 1)).toBe(true));
  });

  it('gives chunks stable UUID ids and the blob id of the whole file', () => {
    expect(
      chunks.every((c) => /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(c.id)),
    ).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(chunks.length);
    expect(chunk('src/http.ts', TS).map((c) => c.id)).toEqual(chunks.map((c) => c.id));
    expect(new Set(chunks.map((c) => c.blobId))).toEqual(new Set([gitBlobId(TS)]));
  });

  it('extracts symbols with line ranges, methods with their class', () => {
    expect(extractSymbols('src/http.ts', TS)).toEqual([
      { name: 'DEFAULT_MS', kind: 'variable', startLine: 3, endLine: 3 },
      { name: 'fetchWithTimeout', kind: 'function', startLine: 5, endLine: 12 },
      { name: 'withRetry', kind: 'function', startLine: 14, endLine: 23 },
      { name: 'HttpClient', kind: 'class', startLine: 25, endLine: 37 },
      { name: 'get', kind: 'method', startLine: 28, endLine: 30, container: 'HttpClient' },
      { name: 'create', kind: 'method', startLine: 32, endLine: 36, container: 'HttpClient' },
      { name: 'ClientOptions', kind: 'type', startLine: 39, endLine: 42 },
    ]);
  });
});

describe('chunking JavaScript', () => {
  it('finds plain functions and arrow functions assigned to consts', () => {
    const chunks = chunk('lib/headers.js', JS);
    expect(at(chunks, 'parseHeaders')).toMatchObject({ kind: 'function', startLine: 4, endLine: 6 });
    expect(at(chunks, 'handler')).toMatchObject({ kind: 'function', startLine: 8, endLine: 10 });
    expect(extractSymbols('lib/headers.js', JS).map((s) => s.name)).toEqual(['http', 'parseHeaders', 'handler']);
  });
});

describe('chunking Python', () => {
  const chunks = chunk('app/http.py', PY);

  it('chunks by indentation: a decorated def is one chunk, docstrings do not fool it', () => {
    expect(at(chunks, 'fetch_with_timeout')).toMatchObject({ kind: 'function', startLine: 7, endLine: 14 });
    expect(at(chunks, 'fetch_with_timeout')!.text.startsWith('@functools.cache\ndef fetch_with_timeout')).toBe(true);
    expect(at(chunks, 'Client')).toMatchObject({ kind: 'class', startLine: 17, endLine: 22 });
    expect(chunks.at(-1)).toMatchObject({ kind: 'module', startLine: 25, endLine: 26 });
  });

  it('extracts functions, classes, methods and module constants', () => {
    expect(extractSymbols('app/http.py', PY)).toEqual([
      { name: 'TIMEOUT', kind: 'variable', startLine: 4, endLine: 4 },
      { name: 'fetch_with_timeout', kind: 'function', startLine: 7, endLine: 14 },
      { name: 'Client', kind: 'class', startLine: 17, endLine: 22 },
      { name: '__init__', kind: 'method', startLine: 18, endLine: 19, container: 'Client' },
      { name: 'get', kind: 'method', startLine: 21, endLine: 22, container: 'Client' },
    ]);
  });
});

describe('chunking other files', () => {
  it('uses overlapping line windows and extracts no symbols', () => {
    const text = Array.from({ length: 130 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const chunks = chunk('docs/notes.md', text);
    expect(chunks.map((c) => [c.kind, c.startLine, c.endLine])).toEqual([
      ['lines', 1, 60],
      ['lines', 51, 110],
      ['lines', 101, 130],
    ]);
    expect(extractSymbols('docs/notes.md', text)).toEqual([]);
  });

  it('splits a very long function into windows that keep its symbol', () => {
    const body = Array.from({ length: 300 }, (_, i) => `  x += ${i};`).join('\n');
    const chunks = chunkFile(
      { repo: 'r', commit: 'c', path: 'big.ts', text: `export function big() {\n  let x = 0;\n${body}\n}\n` },
      { maxChunkLines: 200, overlapLines: 10 },
    );
    expect(chunks.map((c) => [c.symbol, c.startLine, c.endLine])).toEqual([
      ['big', 1, 200],
      ['big', 191, 303],
    ]);
  });
});

describe('gitBlobId', () => {
  it('matches git hash-object', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rag-blob-'));
    try {
      const file = path.join(dir, 'f.ts');
      writeFileSync(file, TS);
      expect(gitBlobId(TS)).toBe(execFileSync('git', ['hash-object', file], { encoding: 'utf8' }).trim());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
