import { type Command, InvalidArgumentError } from 'commander';
import type { ChangeRequestDetail } from '@farm/farm-api';
import { cliApi } from './cli-api';

/** `--goal <task>=<text>`, repeatable: a task's new goal. */
function goalPair(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at < 1 || !value.slice(at + 1).trim()) throw new InvalidArgumentError('<task id>=<new goal>');
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1).trim() };
}
const collect = (value: string, previous: string[] = []) => [...previous, value];
const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a whole number from 1');
  return n;
};

/** A request's plan as a person deciding on it reads it: why it waits, then each task. */
export function formatPlan({ request, tasks }: ChangeRequestDetail): string {
  const head = [`${request.id}  ${request.phase}`, `title:   ${request.title}`, `reason:  ${request.reason}`];
  const lines = tasks.map((t) =>
    [
      `${t.id}  ${t.kind ?? ''}`.trimEnd(),
      `  goal:    ${t.goal}`,
      t.path ? `  file:    ${t.path}` : '',
      t.symbols?.length ? `  symbols: ${t.symbols.join(', ')}` : '',
      t.estimatedChangedLines
        ? `  size:    about ${t.estimatedChangedLines} changed lines (the planner's estimate)`
        : '',
      t.dependsOn.length ? `  after:   ${t.dependsOn.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  const next =
    request.phase === 'AWAITING_APPROVAL'
      ? [
          `farm approve ${request.id} [--remove <task>] [--goal <task>=<text>] [--parallelism N]`,
          `farm reject ${request.id} --reason <why>`,
        ]
      : [];
  return [head.join('\n'), ...lines, ...next].join('\n\n');
}

/** `farm plan`, `farm approve`, `farm reject`: a person's decision on a plan waiting for approval. */
export function registerApprovalCommands(program: Command): void {
  program
    .command('plan <id>')
    .description("a request's plan: its tasks (goal, kind, file, symbols, order) and why it waits for approval")
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const detail = await (await cliApi()).get(id);
      process.stdout.write((o.json ? JSON.stringify(detail, null, 2) : formatPlan(detail)) + '\n');
    });
  program
    .command('approve <id>')
    .description('approve the plan of a request waiting for approval (the approve scope), as it is or edited')
    .option('--remove <task>', 'leave this task out (repeatable)', collect)
    .option('--goal <task=text>', "reword a task's goal (repeatable)", goalPair)
    .option('--parallelism <n>', "at most this many of the request's tasks at once", positive)
    .option('--reason <text>', 'why (recorded in the audit and the request)', '')
    .option('--json', 'print JSON')
    .action(
      async (
        id: string,
        o: { remove?: string[]; goal?: Record<string, string>; parallelism?: number; reason: string; json?: boolean },
      ) => {
        const answer = await (
          await cliApi()
        ).approve(id, {
          ...(o.reason ? { reason: o.reason } : {}),
          ...(o.remove?.length ? { removeTasks: o.remove } : {}),
          ...(o.goal ? { goals: o.goal } : {}),
          ...(o.parallelism ? { parallelism: o.parallelism } : {}),
        });
        process.stdout.write(o.json ? JSON.stringify(answer) + '\n' : `approval sent for ${id}\n`);
      },
    );
  program
    .command('reject <id>')
    .description('reject the plan of a request waiting for approval: it ends CANCELLED with the reason')
    .requiredOption('--reason <text>', 'why')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { reason: string; json?: boolean }) => {
      const answer = await (await cliApi()).reject(id, o.reason);
      process.stdout.write(o.json ? JSON.stringify(answer) + '\n' : `rejection sent for ${id}\n`);
    });
}
