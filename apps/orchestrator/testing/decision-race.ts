import { randomUUID } from 'node:crypto';
import { queryAudit } from '@farm/access';
import { InProcessBus, Topics } from '@farm/bus';
import { farm } from '@farm/proto';
import { serveMetrics, silentLogger } from '@farm/runtime';
import { migrate, type SqlStore } from '@farm/store';
import { changeRequestApi } from '../src/http-api';
import { TaskTopicLauncher } from '../src/launcher';
import { Orchestrator, type OrchestratorOptions } from '../src/orchestrator';
import { readOutbox } from '../src/outbox';
import type { RequestDecision } from '../src/request-decisions';
import { messageMetaSequence } from './message-meta';
import { orchestratorMigrations } from '../src/schema';
import { testApiAccess } from './api-access';

/** One person's decision in a race: what they send to which route, and who they are (`token:<name>`). */
export interface Contender {
  decision: RequestDecision;
  body: Record<string, unknown>;
  token: string;
  subject: string;
}

export interface Answer {
  contender: Contender;
  status: number;
  message: string;
}

/** What one burst of decisions on a request came to. */
export interface RaceOutcome {
  changeRequestId: string;
  answers: Answer[];
  /** The request's audit events other than its submission, oldest first. */
  audit: { action: string; subject: string }[];
  /** After the orchestrator applied what the burst sent. */
  phase: string;
  reason: string;
  taskGoals: Record<string, string>;
}

/**
 * The HTTP API in front of an orchestrator on `store` that consumes nothing: the test plays the planners by
 * calling it, and applies the control commands a burst of decisions sent only once the whole burst was
 * answered. So every decision of a burst arrives before any is applied, as when people click at the same
 * instant, however the machine schedules the calls; what the store lets through is all that decides.
 */
export async function decisionRaceFarm(store: SqlStore, options: Partial<OrchestratorOptions> = {}) {
  await migrate(store, orchestratorMigrations);
  const bus = new InProcessBus();
  // Never started: it applies only what the test hands it.
  const orchestrator = new Orchestrator({
    bus,
    store,
    launcher: new TaskTopicLauncher(bus),
    log: silentLogger,
    options,
  });
  const { access, tokenWith } = await testApiAccess(store);
  const server = await serveMetrics(
    0,
    silentLogger,
    changeRequestApi({ store, orchestrator, log: silentLogger, access }),
  );
  const base = `http://127.0.0.1:${server.port}`;
  const reader = await tokenWith(['read']);
  const people = new Map<string, { token: string; subject: string }>();
  /** One person per name, with the scopes to decide and cancel (names are unique to the run). */
  const person = async (name: string) => {
    const known = people.get(name);
    if (known) return known;
    const unique = `${name}-${randomUUID().slice(0, 8)}`;
    const made = { token: await tokenWith(['read', 'approve', 'cancel'], unique), subject: `token:${unique}` };
    people.set(name, made);
    return made;
  };
  const meta = messageMetaSequence();
  /** The control commands already applied, per request (their outbox rows). */
  const appliedUpTo = new Map<string, number>();

  const farmApi = {
    orchestrator,
    person,

    /** A request of two tasks (`<id>-a`, `<id>-b`), received and planned; waiting for approval when asked. */
    async planned(opts: { requireApproval: boolean }): Promise<string> {
      const id = `race-${randomUUID().slice(0, 8)}`;
      const repo = { url: 'https://git.example.com/app.git', baseRef: 'main', baseCommit: 'c'.repeat(40) };
      const request = farm.v1.ChangeRequest.create({
        changeRequestId: id,
        title: 'Add retry to the HTTP client',
        repo,
        requireApproval: opts.requireApproval,
      });
      await orchestrator.onChangeRequest(request, meta(Topics.changeRequests.name, id));
      const bundle = farm.v1.TaskBundle.create({
        changeRequestId: id,
        repo,
        tasks: ['a', 'b'].map((s) => ({ id: `${id}-${s}`, goal: `part ${s}`, changeRequestId: id, repo })),
      });
      await orchestrator.onTaskBundle(bundle, meta(Topics.taskBundles.name, id));
      return id;
    },

    /** Sends one decision as its contender, answering with the status and the error's message. */
    async send(id: string, c: Contender): Promise<Answer> {
      const route = c.decision === 'cancel' ? 'cancel' : c.decision;
      const res = await fetch(`${base}/v1/change-requests/${id}/${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(c.body),
      });
      const json = (await res.json()) as { error?: { message?: string } };
      return { contender: c, status: res.status, message: json.error?.message ?? '' };
    },

    /** Applies, in order, the control commands the API sent for the request since the last call. */
    async applyDecisions(id: string): Promise<void> {
      const rows = await readOutbox(store, id, Topics.control.name, appliedUpTo.get(id) ?? 0);
      for (const { row, payload } of rows) {
        await orchestrator.onControl(farm.v1.ControlCommand.decode(payload), meta(Topics.control.name, id));
        appliedUpTo.set(id, row);
      }
    },

    /** A control command as `farm cancel` on Kafka sends it: straight to the control topic, not decided by the API. */
    async sendOnTopic(id: string, action: farm.v1.ControlAction, requestedBy: string, reason = ''): Promise<void> {
      const cmd = farm.v1.ControlCommand.create({ changeRequestId: id, action, requestedBy, reason });
      await orchestrator.onControl(cmd, meta(Topics.control.name, id));
    },

    async request(id: string): Promise<{ phase: string; reason: string; taskGoals: Record<string, string> }> {
      const res = await fetch(`${base}/v1/change-requests/${id}`, { headers: { authorization: `Bearer ${reader}` } });
      const found = (await res.json()) as {
        request: { phase: string; reason: string };
        tasks: { id: string; goal: string }[];
      };
      return {
        phase: found.request.phase,
        reason: found.request.reason,
        taskGoals: Object.fromEntries(found.tasks.map((t) => [t.id, t.goal])),
      };
    },

    async audit(id: string): Promise<{ action: string; subject: string }[]> {
      const events = await queryAudit(store, { changeRequestId: id, limit: 1000 });
      return events
        .filter((e) => e.action !== 'submit')
        .reverse()
        .map((e) => ({ action: e.action, subject: e.subject }));
    },

    /** Fires every contender's decision at once, then applies what was sent and reads what it came to. */
    async race(id: string, contenders: Contender[]): Promise<RaceOutcome> {
      const answers = await Promise.all(contenders.map((c) => farmApi.send(id, c)));
      await farmApi.applyDecisions(id);
      return { changeRequestId: id, answers, audit: await farmApi.audit(id), ...(await farmApi.request(id)) };
    },

    async close(): Promise<void> {
      await orchestrator.stop();
      await server.close();
      await bus.close();
    },
  };
  return farmApi;
}

export type DecisionRaceFarm = Awaited<ReturnType<typeof decisionRaceFarm>>;

const DONE_AS: Record<RequestDecision, string> = { approve: 'approved', reject: 'rejected', cancel: 'cancelled' };

/**
 * What is wrong with a race's outcome (none: it held): exactly one decision answered 202, every other a 409
 * naming that one (who, what); the audit holds that one only; the request is where that decision takes it
 * (`expected`: its phase, and for an approval the tasks' goals).
 */
export function raceProblems(
  outcome: RaceOutcome,
  expected: (winner: Contender) => { phase: string; taskGoals?: Record<string, string> },
): string[] {
  const problems: string[] = [];
  const { changeRequestId: id, answers } = outcome;
  const accepted = answers.filter((a) => a.status === 202);
  if (accepted.length !== 1) {
    const who = accepted.map((a) => `${a.contender.decision} by ${a.contender.subject}`).join(', ');
    return [`${id}: ${accepted.length} decisions answered 202 (${who || 'none'}), not exactly one`];
  }
  const winner = accepted[0].contender;
  const named = `${DONE_AS[winner.decision]} by ${winner.subject} at `;
  for (const a of answers.filter((x) => x !== accepted[0])) {
    if (a.status !== 409 || !a.message.includes(named)) {
      problems.push(`${id}: ${a.contender.decision} answered ${a.status} "${a.message}", not a 409 naming "${named}"`);
    }
  }
  const audited = outcome.audit.map((e) => `${e.action} by ${e.subject}`);
  if (audited.join() !== `${winner.decision} by ${winner.subject}`) {
    problems.push(`${id}: the audit holds [${audited.join(', ')}], not only ${winner.decision} by ${winner.subject}`);
  }
  const want = expected(winner);
  if (outcome.phase !== want.phase) problems.push(`${id}: ${winner.decision} won but the request is ${outcome.phase}`);
  if (!outcome.reason.includes(winner.subject)) {
    problems.push(`${id}: its reason "${outcome.reason}" does not name ${winner.subject}, whose decision applied`);
  }
  if (want.taskGoals && JSON.stringify(outcome.taskGoals) !== JSON.stringify(want.taskGoals)) {
    problems.push(`${id}: its tasks are ${JSON.stringify(outcome.taskGoals)}, not ${JSON.stringify(want.taskGoals)}`);
  }
  return problems;
}

/**
 * The four decisions people may send on one waiting plan, one person each: approve as it is, approve edited
 * (without `<id>-b`, `<id>-a` reworded), reject, cancel; rotated by `round` so that each comes first in turn.
 */
export async function planContenders(race: DecisionRaceFarm, id: string, round: number): Promise<Contender[]> {
  const all: Contender[] = [
    { decision: 'approve', body: {}, ...(await race.person('ann')) },
    {
      decision: 'approve',
      body: { removeTasks: [`${id}-b`], goals: { [`${id}-a`]: 'part a, reworded' }, reason: 'smaller' },
      ...(await race.person('ed')),
    },
    { decision: 'reject', body: { reason: 'too broad' }, ...(await race.person('rex')) },
    { decision: 'cancel', body: { reason: 'not needed' }, ...(await race.person('cas')) },
  ];
  const k = round % all.length;
  return [...all.slice(k), ...all.slice(0, k)];
}

/** Where the winner of a plan race takes the request: approved (as it is or edited) into CODING, else CANCELLED. */
export function planRaceExpectation(id: string) {
  return (winner: Contender): { phase: string; taskGoals?: Record<string, string> } => {
    if (winner.decision !== 'approve') return { phase: 'CANCELLED' };
    const edited = Array.isArray(winner.body.removeTasks);
    return {
      phase: 'CODING',
      taskGoals: edited ? { [`${id}-a`]: 'part a, reworded' } : { [`${id}-a`]: 'part a', [`${id}-b`]: 'part b' },
    };
  };
}
