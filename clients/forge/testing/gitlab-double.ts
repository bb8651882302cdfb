/**
 * A test double of GitLab's REST API v4 (not GitLab: none can run here). It serves the operations listed in
 * testing/gitlab/api-operations.json with the parameters GitLab's API pages document: an undocumented route,
 * query parameter or body field, a missing required one or a value of the wrong type is answered 400 and
 * recorded in `violations`. Answers are GitLab's documented example responses (testing/gitlab/api/*.json)
 * with the double's in-memory state laid over them.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import Ajv from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

const dir = join(__dirname, 'gitlab');
const load = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Json;
interface DocumentedOperation {
  query?: Record<string, Json>;
  body?: Record<string, Json>;
  required?: string[];
}
const operations = load('api-operations.json').operations as Record<string, DocumentedOperation>;
const example = (name: string) => structuredClone(load(`api/${name}.json`).example) as Json | Json[];

export interface GlDoubleUser {
  id: number;
  username: string;
}
export interface GlDoubleMergeRequest {
  iid: number;
  title: string;
  description: string;
  sourceBranch: string;
  targetBranch: string;
  sha: string;
  state: 'opened' | 'closed' | 'merged';
  author: GlDoubleUser;
  diffs: Array<{ old_path: string; new_path: string; diff: string; new_file?: boolean; deleted_file?: boolean }>;
  approvedBy: GlDoubleUser[];
  diffNotes: Array<{
    id: number;
    author: GlDoubleUser;
    body: string;
    newPath: string;
    newLine: number | null;
    resolved: boolean;
  }>;
}
export interface GlDoubleIssue {
  iid: number;
  title: string;
  description: string;
  labels: string[];
  state: 'opened' | 'closed';
  author: GlDoubleUser;
  updatedAt: string;
}

export interface GitLabDouble {
  /** The API root to give GitLabForge (`apiUrl`). */
  apiUrl: string;
  token: string;
  /** The project's full path (URL-encoded in routes). */
  project: string;
  /** The project's default branch (`main` unless a test changes it; GitLab answers null for an empty one). */
  defaultBranch: string | null;
  requests: string[];
  violations: string[];
  mergeRequests: GlDoubleMergeRequest[];
  issues: GlDoubleIssue[];
  notes: Array<{
    id: number;
    on: 'issues' | 'merge_requests';
    iid: number;
    body: string;
    author: GlDoubleUser;
    system: boolean;
  }>;
  /** Commit statuses by sha and name, with every state they went through. */
  statuses: Array<{ sha: string; name: string; states: string[]; description?: string; targetUrl?: string }>;
  /** The users GitLab knows (`GET /users?username=`). */
  users: GlDoubleUser[];
  /**
   * The project's members by user id, with their highest access level (inherited through groups included:
   * `members/all`) and, for an invitation not yet accepted, `awaiting`.
   */
  members: Record<number, { accessLevel: number; state?: 'active' | 'awaiting' }>;
  maxPageSize: number;
  nextId(): number;
  addMergeRequest(m: Partial<GlDoubleMergeRequest> & { sourceBranch: string }): GlDoubleMergeRequest;
  addIssue(i: Partial<GlDoubleIssue> & { title: string }): GlDoubleIssue;
  close(): Promise<void>;
}

const FARM: GlDoubleUser = { id: 77, username: 'farm-bot' };
const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);

export async function startGitLabDouble(opts: { project?: string } = {}): Promise<GitLabDouble> {
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: true });
  addFormats(ajv);
  const project = opts.project ?? 'acme/platform/shop';
  let counter = 5000;
  const double: GitLabDouble = {
    apiUrl: '',
    token: 'glpat-double-token',
    project,
    defaultBranch: 'main',
    requests: [],
    violations: [],
    mergeRequests: [],
    issues: [],
    notes: [],
    statuses: [],
    users: [],
    members: {},
    maxPageSize: 100,
    nextId: () => ++counter,
    addMergeRequest: (m) => {
      const mr: GlDoubleMergeRequest = {
        iid: double.mergeRequests.length + 1,
        title: 'a change',
        description: '',
        targetBranch: 'main',
        sha: 'd'.repeat(40),
        state: 'opened',
        author: { id: 5, username: 'someone' },
        diffs: [],
        approvedBy: [],
        diffNotes: [],
        ...m,
      };
      double.mergeRequests.push(mr);
      return mr;
    },
    addIssue: (i) => {
      const issue: GlDoubleIssue = {
        iid: double.issues.length + 1,
        description: '',
        labels: [],
        state: 'opened',
        author: { id: 6, username: 'reporter' },
        updatedAt: new Date().toISOString(),
        ...i,
      };
      double.issues.push(issue);
      return issue;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const web = `https://gitlab.example/${project}`;
  const user = (u: GlDoubleUser) => ({ id: u.id, username: u.username, name: u.username, state: 'active' });
  const mrJson = (m: GlDoubleMergeRequest) => ({
    ...(example('merge-request') as Json),
    iid: m.iid,
    id: m.iid + 100,
    title: m.title,
    description: m.description,
    source_branch: m.sourceBranch,
    target_branch: m.targetBranch,
    sha: m.sha,
    state: m.state,
    author: user(m.author),
    web_url: `${web}/-/merge_requests/${m.iid}`,
    references: { short: `!${m.iid}`, relative: `!${m.iid}`, full: `${project}!${m.iid}` },
  });
  const issueJson = (i: GlDoubleIssue) => ({
    ...(example('issue') as Json),
    iid: i.iid,
    id: i.iid + 200,
    title: i.title,
    description: i.description,
    labels: i.labels,
    state: i.state,
    author: user(i.author),
    updated_at: i.updatedAt,
    web_url: `${web}/-/issues/${i.iid}`,
  });
  const noteJson = (n: GitLabDouble['notes'][number]) => ({
    ...(example('note') as Json),
    id: n.id,
    body: n.body,
    author: user(n.author),
    system: n.system,
    noteable_iid: n.iid,
    noteable_type: n.on === 'issues' ? 'Issue' : 'MergeRequest',
  });

  type Answer = { status: number; body: unknown; headers?: Record<string, string> };
  const notFound: Answer = { status: 404, body: { message: '404 Not found' } };

  function page(items: unknown[], url: URL, query: Json): Answer {
    const perPage = Math.min(Number(query.per_page ?? 20), double.maxPageSize);
    const n = Number(query.page ?? 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const next = new URL(url);
    next.searchParams.set('page', String(n + 1));
    return {
      status: 200,
      body: items.slice((n - 1) * perPage, n * perPage),
      headers: {
        'x-page': String(n),
        'x-per-page': String(perPage),
        'x-total': String(items.length),
        ...(n < last ? { link: `<${next}>; rel="next"`, 'x-next-page': String(n + 1) } : { 'x-next-page': '' }),
      },
    };
  }

  function route(key: string, p: Record<string, string>, query: Json, body: Json, url: URL): Answer {
    if (key === 'GET /users') {
      const wanted = typeof query.username === 'string' ? query.username.toLowerCase() : undefined;
      const [template] = example('users') as Json[];
      const list = double.users
        .filter((u) => wanted === undefined || u.username.toLowerCase() === wanted)
        .map((u) => ({ ...template, ...user(u), web_url: `https://gitlab.example/${u.username}` }));
      return page(list, url, query);
    }
    if (p.id !== project) return { status: 404, body: { message: '404 Project Not Found' } };
    const mr = p.merge_request_iid
      ? double.mergeRequests.find((m) => m.iid === Number(p.merge_request_iid))
      : undefined;
    if (p.merge_request_iid && !mr) return notFound;
    const issue = p.issue_iid ? double.issues.find((i) => i.iid === Number(p.issue_iid)) : undefined;
    if (p.issue_iid && !issue) return notFound;
    switch (key) {
      case 'GET /projects/:id':
        return {
          status: 200,
          body: {
            ...(example('project') as Json),
            name: project.split('/').at(-1),
            path: project.split('/').at(-1),
            path_with_namespace: project,
            default_branch: double.defaultBranch,
            http_url_to_repo: `${web}.git`,
            ssh_url_to_repo: `git@gitlab.example:${project}.git`,
            web_url: web,
          },
        };
      case 'GET /projects/:id/merge_requests': {
        const list = double.mergeRequests.filter(
          (m) =>
            (query.state === undefined || query.state === 'all' || m.state === query.state) &&
            (query.source_branch === undefined || m.sourceBranch === query.source_branch) &&
            (query.target_branch === undefined || m.targetBranch === query.target_branch),
        );
        return page(list.map(mrJson), url, query);
      }
      case 'POST /projects/:id/merge_requests': {
        const same = double.mergeRequests.find((m) => m.state === 'opened' && m.sourceBranch === body.source_branch);
        if (same) {
          return {
            status: 409,
            body: { message: [`Another open merge request already exists for this source branch: !${same.iid}`] },
          };
        }
        const created = double.addMergeRequest({
          sourceBranch: String(body.source_branch),
          targetBranch: String(body.target_branch),
          title: String(body.title),
          description: String(body.description ?? ''),
          author: FARM,
        });
        return { status: 201, body: mrJson(created) };
      }
      case 'GET /projects/:id/merge_requests/:merge_request_iid':
        return { status: 200, body: mrJson(mr!) };
      case 'PUT /projects/:id/merge_requests/:merge_request_iid':
        if (body.title !== undefined) mr!.title = String(body.title);
        if (body.description !== undefined) mr!.description = String(body.description);
        return { status: 200, body: mrJson(mr!) };
      case 'GET /projects/:id/merge_requests/:merge_request_iid/diffs': {
        const template = (example('diffs') as Json[])[0]!;
        const list = mr!.diffs.map((d) => ({ ...template, new_file: false, deleted_file: false, ...d }));
        return page(list, url, query);
      }
      case 'GET /projects/:id/issues/:issue_iid/notes':
      case 'GET /projects/:id/merge_requests/:merge_request_iid/notes': {
        const on = p.issue_iid ? 'issues' : 'merge_requests';
        const iid = Number(p.issue_iid ?? p.merge_request_iid);
        const list = double.notes.filter((n) => n.on === on && n.iid === iid);
        if (query.sort === 'desc') list.reverse();
        return page(list.map(noteJson), url, query);
      }
      case 'POST /projects/:id/issues/:issue_iid/notes':
      case 'POST /projects/:id/merge_requests/:merge_request_iid/notes': {
        const n = {
          id: double.nextId(),
          on: p.issue_iid ? ('issues' as const) : ('merge_requests' as const),
          iid: Number(p.issue_iid ?? p.merge_request_iid),
          body: String(body.body),
          author: FARM,
          system: false,
        };
        double.notes.push(n);
        return { status: 201, body: noteJson(n) };
      }
      case 'GET /projects/:id/merge_requests/:merge_request_iid/discussions': {
        const [diffTemplate] = example('discussions') as Json[];
        const noteTemplate = (diffTemplate!.notes as Json[])[0]!;
        const list = mr!.diffNotes.map((n) => ({
          ...diffTemplate,
          id: `d${n.id}`,
          notes: [
            {
              ...noteTemplate,
              id: n.id,
              body: n.body,
              author: user(n.author),
              resolved: n.resolved,
              position: {
                ...(noteTemplate.position as Json),
                head_sha: mr!.sha,
                old_path: n.newPath,
                new_path: n.newPath,
                new_line: n.newLine,
                old_line: n.newLine === null ? 3 : null,
              },
            },
          ],
        }));
        return page(list, url, query);
      }
      case 'GET /projects/:id/merge_requests/:merge_request_iid/approvals':
        return {
          status: 200,
          body: {
            ...(example('approvals') as Json),
            iid: mr!.iid,
            approved_by: mr!.approvedBy.map((u) => ({ user: user(u) })),
          },
        };
      case 'GET /projects/:id/issues': {
        const labels = String(query.labels ?? '')
          .split(',')
          .filter(Boolean);
        const since = query.updated_after ? Date.parse(String(query.updated_after)) : 0;
        const list = double.issues.filter(
          (i) =>
            (query.state === undefined || query.state === 'all' || i.state === query.state) &&
            labels.every((l) => i.labels.includes(l)) &&
            Date.parse(i.updatedAt) >= since,
        );
        return page(list.map(issueJson), url, query);
      }
      case 'GET /projects/:id/issues/:issue_iid':
        return { status: 200, body: issueJson(issue!) };
      case 'GET /projects/:id/members/all/:user_id': {
        const id = Number(p.user_id);
        const member = double.members[id];
        const who = double.users.find((u) => u.id === id);
        if (!member || !who) return { status: 404, body: { message: '404 Not found' } };
        return {
          status: 200,
          body: {
            ...(example('member') as Json),
            ...user(who),
            access_level: member.accessLevel,
            membership_state: member.state ?? 'active',
          },
        };
      }
      case 'POST /projects/:id/statuses/:sha': {
        const name = String(body.name ?? body.context ?? 'default');
        const state = String(body.state);
        let s = double.statuses.find((x) => x.sha === p.sha && x.name === name && !FINISHED.has(x.states.at(-1)!));
        // GitLab's state machine refuses to move a status to the state it is in.
        if (s?.states.at(-1) === state) {
          const verb = state === 'running' ? 'run' : state === 'pending' ? 'enqueue' : state;
          return { status: 400, body: { message: `Cannot transition status via :${verb} from :${state}` } };
        }
        if (!s) double.statuses.push((s = { sha: p.sha!, name, states: [] }));
        s.states.push(state);
        s.description = body.description as string | undefined;
        s.targetUrl = body.target_url as string | undefined;
        return {
          status: 201,
          body: {
            ...(example('commit-status') as Json),
            id: double.nextId(),
            sha: p.sha,
            name,
            status: state,
            description: s.description ?? null,
            target_url: s.targetUrl ?? null,
          },
        };
      }
      default:
        return { status: 501, body: { message: `the double does not serve ${key}` } };
    }
  }

  const routes = Object.keys(operations).map((key) => {
    const [method, path] = key.split(' ') as [string, string];
    const names: string[] = [];
    const pattern = new RegExp(
      '^' +
        path.replace(/:([a-z_]+)/g, (_m, n: string) => {
          names.push(n);
          return '([^/]+)';
        }) +
        '$',
    );
    return { key, method, pattern, names };
  });

  function check(key: string, where: string, schema: Json | undefined, name: string, value: unknown): string[] {
    if (!schema) return [`${key}: undocumented ${where} ${name}`];
    const holder = { v: value };
    const validate = ajv.compile({ type: 'object', properties: { v: schema } });
    return validate(holder) ? [] : [`${key}: ${where} ${name}: ${ajv.errorsText(validate.errors)}`];
  }

  function send(res: ServerResponse, a: Answer): void {
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(JSON.stringify(a.body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The raw path: a project path is one URL-encoded segment (`acme%2Fshop`), as GitLab requires.
    const rawPath = (req.url ?? '/').split('?')[0]!;
    const url = new URL(req.url ?? '/', double.apiUrl);
    const method = req.method ?? 'GET';
    double.requests.push(`${method} ${rawPath}${url.search}`);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    if (req.headers['private-token'] !== double.token) {
      send(res, { status: 401, body: { message: '401 Unauthorized' } });
      return;
    }
    const problems: string[] = [];
    const apiPath = rawPath.replace(/^\/api\/v4/, '');
    const r = routes.find((x) => x.method === method && x.pattern.test(apiPath));
    let body: Json = {};
    if (raw) {
      try {
        body = JSON.parse(raw) as Json;
      } catch {
        problems.push('body is not JSON');
      }
    }
    if (!r) problems.push(`undocumented request: ${method} ${apiPath}`);
    const params: Record<string, string> = {};
    const query: Json = {};
    if (r) {
      const op = operations[r.key]!;
      r.pattern
        .exec(apiPath)!
        .slice(1)
        .forEach((v, i) => (params[r.names[i]!] = decodeURIComponent(v)));
      for (const name of new Set(url.searchParams.keys())) {
        query[name] = url.searchParams.get(name);
        problems.push(...check(r.key, 'query parameter', op.query?.[name], name, query[name]));
      }
      if (raw && !op.body) problems.push(`${r.key}: takes no body`);
      for (const [name, value] of Object.entries(body)) {
        problems.push(...check(r.key, 'body field', op.body?.[name], name, value));
      }
      for (const name of op.required ?? [])
        if (body[name] === undefined) problems.push(`${r.key}: ${name} is required`);
    }
    if (problems.length || !r) {
      double.violations.push(...problems);
      send(res, { status: 400, body: { message: problems.join('; ') } });
      return;
    }
    send(res, route(r.key, params, query, body, url));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      double.violations.push(`double failed: ${(err as Error).stack}`);
      send(res, { status: 500, body: { message: String(err) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  double.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`;
  return double;
}
