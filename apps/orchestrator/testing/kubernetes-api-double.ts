// A TEST DOUBLE of the Kubernetes API server, not a Kubernetes: no kube-apiserver can be installed here from
// the package registries (Debian ships etcd-server and kubectl but no kube-apiserver; npm/PyPI have none), so
// the launcher and `farm scale` are tested against this HTTP server built from the real API's request and
// response shapes: the batch/v1 Job, core/v1 Pod and ConfigMap, apps/v1 Scale objects, list objects with
// metadata.resourceVersion, newline-delimited watch events, and Status objects for errors. It plays the Job
// controller only through its test controls (completeJob, failJob, setPodWaiting).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';

/* eslint-disable @typescript-eslint/no-explicit-any -- API objects are free-form JSON here, as on the wire */
type Obj = Record<string, any>;
type Kind = 'jobs' | 'pods' | 'configmaps' | 'deployments';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: Obj;
}

interface WatchEvent {
  rv: number;
  kind: Kind;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: Obj;
}

const API_VERSION: Record<Kind, string> = { jobs: 'batch/v1', pods: 'v1', configmaps: 'v1', deployments: 'apps/v1' };
const KIND: Record<Kind, string> = { jobs: 'Job', pods: 'Pod', configmaps: 'ConfigMap', deployments: 'Deployment' };
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** A Kubernetes API error as the server sends it (metav1.Status). */
class ApiStatus extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
  body(): Obj {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
  }
}

/** Equality-based label selectors (`a=b`, `a==b`, `a!=b`, `a`, `!a`), the subset the farm uses. */
export function matchesSelector(labels: Record<string, string> = {}, selector?: string): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const t = term.trim();
    const ne = t.match(/^([^!=]+)!=(.*)$/);
    if (ne) return labels[ne[1]] !== ne[2];
    const eq = t.match(/^([^!=]+)==?(.*)$/);
    if (eq) return labels[eq[1]] === eq[2];
    if (t.startsWith('!')) return !(t.slice(1) in labels);
    return t in labels;
  });
}

/** HTTP double of the Kubernetes API (see the file comment). Start it, point a KubeConfig at `url`. */
export class KubernetesApiDouble {
  readonly requests: RecordedRequest[] = [];
  private readonly store: Record<Kind, Map<string, Obj>> = {
    jobs: new Map(),
    pods: new Map(),
    configmaps: new Map(),
    deployments: new Map(),
  };
  private readonly events: WatchEvent[] = [];
  private readonly watchers = new Set<{ kind: Kind; ns: string; selector?: string; res: http.ServerResponse }>();
  private rv = 100;
  private server?: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.closeWatches();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  /** A client configuration for this server (plain HTTP, a dummy bearer token). */
  kubeConfig(namespace = 'default'): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'double', server: this.url, skipTLSVerify: true }],
      users: [{ name: 'test', token: 'test-token' }],
      contexts: [{ name: 'double', cluster: 'double', user: 'test', namespace }],
      currentContext: 'double',
    });
    return kc;
  }

  // ---- test controls: what the Job controller and kubelet would do ----

  job(namespace: string, name: string): Obj | undefined {
    return this.store.jobs.get(`${namespace}/${name}`);
  }

  jobs(namespace?: string): Obj[] {
    return [...this.store.jobs.values()].filter((j) => !namespace || j.metadata.namespace === namespace);
  }

  podsOf(namespace: string, jobName: string): Obj[] {
    return [...this.store.pods.values()].filter(
      (p) => p.metadata.namespace === namespace && p.metadata.labels?.['batch.kubernetes.io/job-name'] === jobName,
    );
  }

  /** The pod ran the agent and it exited 0; the Job gets SuccessCriteriaMet, then Complete. */
  completeJob(namespace: string, name: string): void {
    this.terminatePods(namespace, name, { exitCode: 0, reason: 'Completed' }, 'Succeeded');
    const now = new Date().toISOString();
    this.updateStatus(namespace, name, (s) => ({
      ...s,
      active: 0,
      ready: 0,
      succeeded: 1,
      completionTime: now,
      conditions: [condition('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods')],
    }));
    this.updateStatus(namespace, name, (s) => ({
      ...s,
      conditions: [
        ...s.conditions,
        condition('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods'),
      ],
    }));
  }

  /**
   * The Job fails: first FailureTarget (as the controller does while pods terminate), then Failed with the
   * reason. `pod` sets how the agent container ended (e.g. OOMKilled 137) or what it waits on (ImagePullBackOff).
   */
  failJob(
    namespace: string,
    name: string,
    reason: 'BackoffLimitExceeded' | 'DeadlineExceeded' | 'PodFailurePolicy',
    pod?: { terminated?: { reason: string; exitCode: number }; waiting?: { reason: string; message?: string } },
  ): void {
    if (pod?.waiting) this.setPodWaiting(namespace, name, pod.waiting.reason, pod.waiting.message);
    if (pod?.terminated) this.terminatePods(namespace, name, pod.terminated, 'Failed');
    const message = {
      BackoffLimitExceeded: 'Job has reached the specified backoff limit',
      DeadlineExceeded: 'Job was active longer than specified deadline',
      PodFailurePolicy: `Container agent for pod ${namespace}/${this.podsOf(namespace, name)[0]?.metadata.name} failed with exit code ${pod?.terminated?.exitCode ?? 3} matching FailJob rule at index 0`,
    }[reason];
    this.updateStatus(namespace, name, (s) => ({
      ...s,
      active: 0,
      ready: 0,
      failed: (s.failed ?? 0) + 1,
      conditions: [condition('FailureTarget', reason, message)],
    }));
    this.updateStatus(namespace, name, (s) => ({
      ...s,
      conditions: [...s.conditions, condition('Failed', reason, message)],
    }));
  }

  /** The kubelet cannot start the agent container (ImagePullBackOff, ErrImagePull, ...); the Job stays active. */
  setPodWaiting(namespace: string, jobName: string, reason: string, message = ''): void {
    for (const pod of this.podsOf(namespace, jobName)) {
      const image = pod.spec.containers[0].image;
      this.put(
        'pods',
        {
          ...pod,
          status: {
            ...pod.status,
            phase: 'Pending',
            containerStatuses: [
              {
                name: pod.spec.containers[0].name,
                image,
                imageID: '',
                ready: false,
                restartCount: 0,
                started: false,
                state: { waiting: { reason, message } },
              },
            ],
          },
        },
        'MODIFIED',
      );
    }
  }

  /** Seeds a Deployment (only what the scale subresource reads). */
  addDeployment(namespace: string, name: string, replicas: number): void {
    this.put(
      'deployments',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace, labels: { 'app.kubernetes.io/name': name } },
        spec: { replicas, selector: { matchLabels: { 'app.kubernetes.io/name': name } } },
        status: { replicas },
      },
      'ADDED',
    );
  }

  deployment(namespace: string, name: string): Obj | undefined {
    return this.store.deployments.get(`${namespace}/${name}`);
  }

  configMap(namespace: string, name: string): Obj | undefined {
    return this.store.configmaps.get(`${namespace}/${name}`);
  }

  setConfigMap(namespace: string, name: string, data: Record<string, string>): void {
    const existing = this.configMap(namespace, name);
    this.put(
      'configmaps',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...existing?.metadata, name, namespace }, data },
      existing ? 'MODIFIED' : 'ADDED',
    );
  }

  /** Ends every open watch as the server does on its own timeout; clients must re-list or resume. */
  closeWatches(): void {
    for (const w of this.watchers) w.res.end();
    this.watchers.clear();
  }

  // ---- the HTTP API ----

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://double');
    const query = Object.fromEntries(url.searchParams);
    const raw = await readBody(req);
    let body: Obj | undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return send(res, 400, new ApiStatus(400, 'BadRequest', 'request body is not JSON').body());
    }
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query, body });
    try {
      const route = this.route(req.method ?? 'GET', url.pathname);
      if (!route)
        throw new ApiStatus(404, 'NotFound', `the server could not find the requested resource (${url.pathname})`);
      if (query.watch === 'true' || query.watch === '1') return this.openWatch(route.kind, route.ns, query, res);
      const out = route.run(query, body, req.headers['content-type'] ?? '');
      send(res, out.code ?? 200, out.body);
    } catch (err) {
      const status = err instanceof ApiStatus ? err : new ApiStatus(500, 'InternalError', String(err));
      send(res, status.code, status.body());
    }
  }

  private route(
    method: string,
    path: string,
  ):
    | {
        kind: Kind;
        ns: string;
        run: (q: Obj, b: Obj | undefined, ct: string) => { code?: number; body: Obj };
      }
    | undefined {
    const m = path.match(
      /^\/(?:api\/v1|apis\/batch\/v1|apis\/apps\/v1)\/namespaces\/([^/]+)\/(jobs|pods|configmaps|deployments)(?:\/([^/]+))?(?:\/(scale))?$/,
    );
    if (!m) return undefined;
    const [, ns, kind, name, sub] = m as unknown as [string, string, Kind, string | undefined, string | undefined];
    const group = path.startsWith('/apis/batch/') ? 'jobs' : path.startsWith('/apis/apps/') ? 'deployments' : 'core';
    if ((group === 'jobs') !== (kind === 'jobs') || (group === 'deployments') !== (kind === 'deployments'))
      return undefined;
    if (kind === 'deployments' && sub !== 'scale') return undefined; // only the scale subresource is doubled
    if (sub === 'scale') return { kind, ns, run: (_q, b, ct) => this.scale(method, ns, name!, b, ct) };
    if (!name) {
      if (method === 'GET') return { kind, ns, run: (q) => ({ body: this.list(kind, ns, q.labelSelector) }) };
      if (method === 'POST') return { kind, ns, run: (_q, b) => ({ code: 201, body: this.create(kind, ns, b) }) };
      if (method === 'DELETE')
        return {
          kind,
          ns,
          run: (q, b) => ({
            body: this.deleteCollection(kind, ns, q.labelSelector, q.propagationPolicy ?? b?.propagationPolicy),
          }),
        };
      return undefined;
    }
    if (method === 'GET') return { kind, ns, run: () => ({ body: this.get(kind, ns, name) }) };
    if (method === 'PUT') return { kind, ns, run: (_q, b) => ({ body: this.replace(kind, ns, name, b) }) };
    if (method === 'PATCH') return { kind, ns, run: (_q, b, ct) => ({ body: this.patch(kind, ns, name, b, ct) }) };
    if (method === 'DELETE')
      return {
        kind,
        ns,
        run: (q, b) => ({ body: this.delete(kind, ns, name, q.propagationPolicy ?? b?.propagationPolicy) }),
      };
    return undefined;
  }

  private list(kind: Kind, ns: string, selector?: string): Obj {
    const items = [...this.store[kind].values()].filter(
      (o) => o.metadata.namespace === ns && matchesSelector(o.metadata.labels, selector),
    );
    return {
      kind: `${KIND[kind]}List`,
      apiVersion: API_VERSION[kind],
      metadata: { resourceVersion: String(this.rv) },
      items,
    };
  }

  private get(kind: Kind, ns: string, name: string): Obj {
    const obj = this.store[kind].get(`${ns}/${name}`);
    if (!obj) throw notFound(kind, name);
    return obj;
  }

  private create(kind: Kind, ns: string, body: Obj | undefined): Obj {
    const name = body?.metadata?.name;
    if (!name)
      throw new ApiStatus(
        422,
        'Invalid',
        `${KIND[kind]} "" is invalid: metadata.name: Required value: name or generateName is required`,
      );
    if (body.metadata.namespace && body.metadata.namespace !== ns)
      throw new ApiStatus(
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    if (this.store[kind].has(`${ns}/${name}`))
      throw new ApiStatus(409, 'AlreadyExists', `${kind}.${group(kind)} "${name}" already exists`);
    if (kind === 'jobs') validateJob(body);
    const obj: Obj = structuredClone(body);
    obj.apiVersion = API_VERSION[kind];
    obj.kind = KIND[kind];
    obj.metadata = { ...obj.metadata, namespace: ns, uid: randomUUID(), creationTimestamp: new Date().toISOString() };
    if (kind === 'jobs') this.defaultJob(obj);
    this.put(kind, obj, 'ADDED');
    if (kind === 'jobs') this.startPod(obj);
    return this.store[kind].get(`${ns}/${name}`)!;
  }

  private replace(kind: Kind, ns: string, name: string, body: Obj | undefined): Obj {
    const cur = this.get(kind, ns, name);
    if (body?.metadata?.resourceVersion && body.metadata.resourceVersion !== cur.metadata.resourceVersion)
      throw new ApiStatus(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${kind} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    this.put(
      kind,
      { ...body, apiVersion: cur.apiVersion, kind: cur.kind, metadata: { ...cur.metadata, ...body?.metadata } },
      'MODIFIED',
    );
    return this.get(kind, ns, name);
  }

  private patch(kind: Kind, ns: string, name: string, body: Obj | undefined, contentType: string): Obj {
    const cur = this.get(kind, ns, name);
    if (!contentType.includes('merge-patch+json') && !contentType.includes('strategic-merge-patch+json'))
      throw new ApiStatus(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got "${contentType}")`,
      );
    this.put(kind, mergePatch(cur, body ?? {}), 'MODIFIED');
    return this.get(kind, ns, name);
  }

  private delete(kind: Kind, ns: string, name: string, propagationPolicy?: string): Obj {
    const obj = this.get(kind, ns, name);
    this.store[kind].delete(`${ns}/${name}`);
    this.emit(kind, 'DELETED', { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } });
    // Background and Foreground propagation let the garbage collector remove the Job's pods; Orphan keeps them.
    if (kind === 'jobs' && propagationPolicy !== 'Orphan')
      for (const p of this.podsOf(ns, name)) this.delete('pods', ns, p.metadata.name);
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: group(kind), kind, uid: obj.metadata.uid },
    };
  }

  private deleteCollection(kind: Kind, ns: string, selector: string | undefined, propagationPolicy?: string): Obj {
    const doomed = this.list(kind, ns, selector).items as Obj[];
    for (const o of doomed) this.delete(kind, ns, o.metadata.name, propagationPolicy);
    return {
      kind: `${KIND[kind]}List`,
      apiVersion: API_VERSION[kind],
      metadata: { resourceVersion: String(this.rv) },
      items: doomed,
    };
  }

  /** apps/v1 Deployment scale subresource: GET, PUT (a Scale) and PATCH (merge patch of a Scale). */
  private scale(method: string, ns: string, name: string, body: Obj | undefined, contentType: string): { body: Obj } {
    const dep = this.store.deployments.get(`${ns}/${name}`);
    if (!dep) throw new ApiStatus(404, 'NotFound', `deployments.apps "${name}" not found`);
    const asScale = (d: Obj): Obj => ({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name,
        namespace: ns,
        uid: d.metadata.uid,
        resourceVersion: d.metadata.resourceVersion,
        creationTimestamp: d.metadata.creationTimestamp,
      },
      spec: { replicas: d.spec.replicas },
      status: { replicas: d.status.replicas, selector: 'app.kubernetes.io/name=' + name },
    });
    if (method === 'GET') return { body: asScale(dep) };
    let replicas: unknown;
    if (method === 'PUT') {
      if (body?.kind !== 'Scale')
        throw new ApiStatus(
          400,
          'BadRequest',
          `Scale in version "v1" cannot be handled as a Scale: kind "${body?.kind}" not Scale`,
        );
      if (body.metadata?.resourceVersion && body.metadata.resourceVersion !== dep.metadata.resourceVersion)
        throw new ApiStatus(
          409,
          'Conflict',
          `Operation cannot be fulfilled on deployments.apps "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      replicas = body.spec?.replicas;
    } else if (method === 'PATCH') {
      if (!contentType.includes('merge-patch+json'))
        throw new ApiStatus(415, 'UnsupportedMediaType', `unsupported patch type ${contentType}`);
      replicas = body?.spec?.replicas;
    } else throw new ApiStatus(405, 'MethodNotAllowed', `${method} is not supported on deployments/scale`);
    if (!Number.isInteger(replicas) || (replicas as number) < 0)
      throw new ApiStatus(
        422,
        'Invalid',
        `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${replicas}: must be greater than or equal to 0`,
      );
    this.put('deployments', { ...dep, spec: { ...dep.spec, replicas }, status: { replicas } }, 'MODIFIED');
    return { body: asScale(this.store.deployments.get(`${ns}/${name}`)!) };
  }

  /** Streams watch events after `resourceVersion` (or ADDED for what exists when none is given), then live ones. */
  private openWatch(kind: Kind, ns: string, query: Obj, res: http.ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const selector: string | undefined = query.labelSelector;
    const write = (type: string, object: Obj) => res.write(JSON.stringify({ type, object }) + '\n');
    const since = query.resourceVersion ? Number(query.resourceVersion) : undefined;
    if (since === undefined || since === 0) {
      for (const o of this.list(kind, ns, selector).items) write('ADDED', o);
    } else if (this.events.length && since < this.events[0].rv - 1) {
      // Like etcd after compaction: the client must list again.
      write('ERROR', {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `too old resource version: ${since}`,
        reason: 'Expired',
        code: 410,
      });
      res.end();
      return;
    } else {
      for (const e of this.events)
        if (
          e.rv > since &&
          e.kind === kind &&
          e.object.metadata.namespace === ns &&
          matchesSelector(e.object.metadata.labels, selector)
        )
          write(e.type, e.object);
    }
    const watcher = { kind, ns, selector, res };
    this.watchers.add(watcher);
    res.on('close', () => this.watchers.delete(watcher));
    if (query.timeoutSeconds) setTimeout(() => res.end(), Number(query.timeoutSeconds) * 1000).unref();
  }

  /** Forgets watch history so that a resume from an older resourceVersion gets 410 Expired. */
  compactHistory(): void {
    this.events.splice(0, this.events.length - 1);
  }

  // ---- object store ----

  private put(kind: Kind, obj: Obj, type: 'ADDED' | 'MODIFIED'): void {
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    this.store[kind].set(`${stored.metadata.namespace}/${stored.metadata.name}`, stored);
    this.emit(kind, type, stored);
  }

  private emit(kind: Kind, type: WatchEvent['type'], object: Obj): void {
    this.events.push({ rv: Number(object.metadata.resourceVersion), kind, type, object });
    for (const w of this.watchers)
      if (w.kind === kind && w.ns === object.metadata.namespace && matchesSelector(object.metadata.labels, w.selector))
        w.res.write(JSON.stringify({ type, object }) + '\n');
  }

  private updateStatus(ns: string, name: string, fn: (status: Obj) => Obj): void {
    const job = this.get('jobs', ns, name);
    this.put('jobs', { ...job, status: fn(job.status ?? {}) }, 'MODIFIED');
  }

  /** What the API server defaults on a Job: selector, controller-uid and job-name labels, counts. */
  private defaultJob(job: Obj): void {
    const uid = job.metadata.uid;
    const extra = {
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': job.metadata.name,
      'controller-uid': uid,
      'job-name': job.metadata.name,
    };
    job.spec = {
      parallelism: 1,
      completions: 1,
      completionMode: 'NonIndexed',
      suspend: false,
      manualSelector: false,
      ...job.spec,
    };
    job.spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
    job.spec.template = {
      ...job.spec.template,
      metadata: { ...job.spec.template.metadata, labels: { ...job.spec.template.metadata?.labels, ...extra } },
    };
    job.status = { active: 1, ready: 0, startTime: new Date().toISOString(), uncountedTerminatedPods: {} };
  }

  /** The Job controller's pod, Pending until a test control moves it on. */
  private startPod(job: Obj): void {
    const tmpl = job.spec.template;
    this.put(
      'pods',
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${job.metadata.name.slice(0, 57)}-${randomUUID().slice(0, 5)}`,
          namespace: job.metadata.namespace,
          labels: tmpl.metadata.labels,
          ownerReferences: [
            {
              apiVersion: 'batch/v1',
              kind: 'Job',
              name: job.metadata.name,
              uid: job.metadata.uid,
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        spec: tmpl.spec,
        status: { phase: 'Pending', conditions: [] },
      },
      'ADDED',
    );
  }

  private terminatePods(
    ns: string,
    jobName: string,
    terminated: { exitCode: number; reason: string },
    phase: string,
  ): void {
    const now = new Date().toISOString();
    for (const pod of this.podsOf(ns, jobName)) {
      const c = pod.spec.containers[0];
      this.put(
        'pods',
        {
          ...pod,
          status: {
            ...pod.status,
            phase,
            containerStatuses: [
              {
                name: c.name,
                image: c.image,
                imageID: `${c.image}@sha256:${'0'.repeat(64)}`,
                ready: false,
                restartCount: 0,
                started: false,
                state: {
                  terminated: {
                    ...terminated,
                    startedAt: now,
                    finishedAt: now,
                    containerID: `containerd://${randomUUID()}`,
                  },
                },
                lastState: {},
              },
            ],
          },
        },
        'MODIFIED',
      );
    }
  }
}

function condition(type: string, reason: string, message: string): Obj {
  const now = new Date().toISOString();
  return { type, status: 'True', reason, message, lastProbeTime: now, lastTransitionTime: now };
}

function group(kind: Kind): string {
  return kind === 'jobs' ? 'batch' : kind === 'deployments' ? 'apps' : '';
}

function notFound(kind: Kind, name: string): ApiStatus {
  const g = group(kind);
  return new ApiStatus(404, 'NotFound', `${kind}${g ? '.' + g : ''} "${name}" not found`);
}

/** The validation rules of the real API that the launcher could break. */
function validateJob(job: Obj): void {
  const problems: string[] = [];
  const name: string = job.metadata.name;
  // Job names go into the pods' job-name label, so the API holds them to a label's 63 characters.
  if (!DNS_LABEL.test(name) || name.length > 63)
    problems.push(`metadata.name: Invalid value: "${name}": must be a DNS-1123 label of at most 63 characters`);
  for (const [where, labels] of [
    ['metadata.labels', job.metadata.labels],
    ['spec.template.metadata.labels', job.spec?.template?.metadata?.labels],
  ] as const)
    for (const [k, v] of Object.entries<string>(labels ?? {}))
      if (typeof v !== 'string' || v.length > 63 || !LABEL_VALUE.test(v))
        problems.push(`${where}: Invalid value: "${v}": a valid label value (${k}) must be 63 characters or less`);
  const pod = job.spec?.template?.spec;
  if (!pod?.containers?.length) problems.push('spec.template.spec.containers: Required value');
  if (!['Never', 'OnFailure'].includes(pod?.restartPolicy))
    problems.push(`spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`);
  if (job.spec?.podFailurePolicy && pod?.restartPolicy !== 'Never')
    problems.push(
      'spec.template.spec.restartPolicy: Invalid value: only "Never" is supported when podFailurePolicy is specified',
    );
  if (problems.length) throw new ApiStatus(422, 'Invalid', `Job.batch "${name}" is invalid: [${problems.join(', ')}]`);
}

/** RFC 7386 JSON merge patch. */
function mergePatch(target: Obj, patch: Obj): Obj {
  const out: Obj = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' && out[k] !== null)
      out[k] = mergePatch(out[k], v);
    else out[k] = v;
  }
  return out;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, code: number, body: Obj): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
