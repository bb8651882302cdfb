/**
 * `farm doctor`: the model endpoint the farm is configured with, asked what it can do before any work is paid
 * for (endpoint-probe.ts), and said in plain words: what works, what will not, and the setting that fixes it.
 * The verdicts are pure (doctorFindings); the command prints them and exits 1 when one is a failure.
 */
import { instructionTokens } from '@farm/coding-agent';
import type { EndpointFacts } from '@farm/llm';
import { CUT_LIMIT } from '@farm/llm';

export type Level = 'ok' | 'note' | 'warn' | 'fail';

export interface Finding {
  level: Level;
  what: string;
  /** The setting (or server option) that helps, when one does. */
  fix?: string;
}

/** The farm's settings a verdict weighs (the agent's, as loaded). */
export interface DoctorSettings {
  roles: string[];
  contextWindowTokens: number;
  contextBudgetTokens: number;
  maxOutputTokens: number;
  timeoutS: number;
  strategy: 'auto' | 'tools' | 'diff';
  priced: boolean;
  /** Tokens the agent's instructions and tool schemas take in every call (instructionTokens()). */
  instructionTokens?: number;
}

const n = (x: number) => x.toLocaleString('en-US');

/** What the facts mean for a farm with `s`; in the order a person would fix them. */
export function doctorFindings(f: EndpointFacts, s: DoctorSettings): Finding[] {
  const out: Finding[] = [];
  const add = (level: Level, what: string, fix?: string) => out.push({ level, what, ...(fix ? { fix } : {}) });
  const agent = s.roles.includes('agent');
  // The setting that names this model: the agent's, else the planner's or the reviewer's.
  const modelSetting = agent ? 'FARM_MODEL' : s.roles.includes('planner') ? 'FARM_PLANNER_MODEL' : 'FARM_REVIEW_MODEL';
  if (f.unreachable) {
    add(
      'fail',
      `the endpoint does not answer: ${f.unreachable}`,
      'start the server, or set OPENAI_BASE_URL to its OpenAI-compatible base (most end in /v1)',
    );
    return out;
  }
  if (f.models.length && !f.models.includes(f.model)) {
    const one = f.models.length === 1 ? f.models[0] : undefined;
    add(
      one ? 'note' : 'warn',
      one
        ? `the server lists one model, ${one}, not ${f.model}: a single-model server (llama.cpp) answers with it whatever the name`
        : `the server does not list ${f.model} (it lists ${f.models.slice(0, 5).join(', ')}${f.models.length > 5 ? ', ...' : ''})`,
      one ? undefined : `set ${modelSetting} to one of the listed models`,
    );
  }
  const instructions = s.instructionTokens ?? instructionTokens();
  const firstPrompt = instructions + s.contextBudgetTokens + 500;
  if (f.contextTokens && !agent)
    add('note', `the server's context is ${n(f.contextTokens)} tokens (${f.contextSource})`);
  else if (f.contextTokens) {
    const ctx = f.contextTokens;
    const said = `the server's context is ${n(ctx)} tokens (${f.contextSource})`;
    if (ctx < instructions + 1000)
      add(
        'fail',
        `${said}: it cannot hold the agent's instructions and tools (about ${n(instructions)} tokens) with a task`,
        "raise the server's context (llama.cpp -c, vLLM --max-model-len, Ollama num_ctx / OLLAMA_CONTEXT_LENGTH) to 8192 or more",
      );
    else if (ctx < firstPrompt)
      add(
        'warn',
        `${said}: a task's first prompt is about ${n(firstPrompt)} tokens (instructions ${n(instructions)}, retrieved context up to ${n(s.contextBudgetTokens)})`,
        `set FARM_CONTEXT_BUDGET_TOKENS=${Math.max(500, Math.floor((ctx - instructions) / 3))}, or raise the server's context`,
      );
    else add('ok', said);
    if (s.contextWindowTokens > ctx)
      add(
        'warn',
        `FARM_CONTEXT_WINDOW_TOKENS (${n(s.contextWindowTokens)}) is larger than the context: the first refusal as too long shortens the conversation, at the cost of a refused call`,
        `set FARM_CONTEXT_WINDOW_TOKENS=${Math.max(1000, Math.floor(ctx * 0.7))}`,
      );
    if (s.maxOutputTokens > ctx / 2)
      add(
        'warn',
        `FARM_LLM_MAX_OUTPUT_TOKENS (${n(s.maxOutputTokens)}) is over half the context: an answer that long leaves little room for the conversation`,
        `set FARM_LLM_MAX_OUTPUT_TOKENS=${Math.max(256, Math.floor(ctx / 4))}`,
      );
  } else
    add(
      'note',
      `the server does not say its context: the farm keeps to FARM_CONTEXT_WINDOW_TOKENS (${n(s.contextWindowTokens)}) and shortens the conversation when a request is refused as too long`,
    );
  if (f.slots)
    add(
      'note',
      `the server answers ${f.slots} request(s) at once (its slots; each has ${f.contextTokens ? `${n(f.contextTokens)} tokens of` : 'a share of'} the context): more agents than that wait in its queue`,
      f.slots < 2
        ? 'start it with more slots (llama.cpp -np, with -c raised to match) to run agents in parallel'
        : undefined,
    );
  const chat = f.chat;
  if (!chat) return out;
  if (!chat.ok) {
    add('fail', `a plain chat call failed: ${chat.error}`, `check OPENAI_API_KEY and ${modelSetting}`);
    return out;
  }
  const seconds = chat.ms / 1000;
  add(
    seconds > s.timeoutS / 2 ? 'warn' : 'ok',
    `a short answer took ${seconds.toFixed(1)} s`,
    seconds > s.timeoutS / 2
      ? `set FARM_LLM_TIMEOUT_S (now ${s.timeoutS}) and FARM_PLANNER_TIMEOUT_S well above a cold first call with a long prompt`
      : undefined,
  );
  if (!chat.usageReported)
    add(
      'warn',
      'the answers report no token usage: the token budgets (FARM_AGENT_MAX_TOKENS) and costs count nothing',
      'use a server or gateway that returns `usage`',
    );
  if (chat.answeredAs && chat.answeredAs !== f.model)
    add('note', `it answers as ${chat.answeredAs}: calls are recorded and priced as ${f.model} (${modelSetting})`);
  if (!s.priced)
    add(
      'warn',
      `no price for ${f.model}: its calls count $0 in the cost budgets and reports`,
      `set FARM_MODEL_PRICES, e.g. '{"${f.model}": {"inputPerMillion": 0, "outputPerMillion": 0}}' for a local model that costs nothing`,
    );
  const t = agent ? f.tools : undefined; // only the agent calls tools
  if (t) {
    const why = t.detail ? ` (${t.detail})` : '';
    if (t.auto === 'calls') add('ok', 'tool calls work (tool_choice auto)');
    else if (t.auto === 'text-calls')
      add(
        'warn',
        'the model writes its tool calls as text, which the farm reads; a server-side parser for its format is more reliable',
        'llama.cpp: --jinja with the model’s chat template; vLLM: --enable-auto-tool-choice --tool-call-parser <the model’s>',
      );
    else if (t.auto === 'refused')
      add(
        s.strategy === 'tools' ? 'fail' : 'warn',
        `the endpoint refuses tool calls${why}: the agent ${s.strategy === 'tools' ? 'cannot work (FARM_AGENT_STRATEGY=tools)' : 'falls back to one-shot diffs'}`,
        'set FARM_AGENT_STRATEGY=diff, or use a server with tool calling (llama.cpp --jinja, vLLM --enable-auto-tool-choice)',
      );
    else
      add(
        s.strategy === 'diff' ? 'note' : 'fail',
        `asked to call a tool, the model did not (tool_choice auto: ${t.auto}; required: ${t.required})${why}`,
        s.strategy === 'diff' ? undefined : 'use a model trained for tool calling, or FARM_AGENT_STRATEGY=diff',
      );
    if (t.auto !== 'calls' && t.required === 'calls')
      add('note', 'with tool_choice required the model does call the tool');
  }
  if (f.json)
    add(
      f.json.ok ? 'ok' : 'warn',
      f.json.ok ? 'JSON answers parse' : `a JSON answer did not parse: ${f.json.detail}`,
      f.json.ok
        ? undefined
        : 'the planner and the diff strategy ask again and then fall back; FARM_LLM_STRUCTURED_OUTPUT=true asks for schema-constrained answers',
    );
  const cut = f.cut;
  if (cut?.error) add('warn', `an answer with an output limit failed: ${cut.error}`);
  else if (cut && cut.completionTokens > CUT_LIMIT + 2)
    add(
      'fail',
      `the server ignores max_tokens (asked ${CUT_LIMIT}, got ${cut.completionTokens}): a model that does not stop runs until its context is full`,
      'cap the output on the server (llama.cpp -n / --n-predict)',
    );
  else if (cut?.finishReason === 'length')
    add('ok', 'an answer cut at the output limit says so (finish_reason length)');
  else if (cut)
    add(
      cut.finishReason ? 'note' : 'warn',
      cut.finishReason
        ? `an answer with a limit of ${CUT_LIMIT} tokens ended "${cut.finishReason}"`
        : 'answers carry no finish_reason: a cut answer cannot be told from a whole one',
    );
  const o = f.overflow;
  if (o?.outcome === 'refused')
    add('ok', 'a request longer than the context is refused as such: the farm shortens the conversation');
  else if (o?.outcome === 'silently-cut')
    add(
      'fail',
      `the server cuts a prompt longer than its context without an error (${o.detail}): the instructions and the task are lost`,
      `raise its context (Ollama: num_ctx or OLLAMA_CONTEXT_LENGTH) to at least ${n(firstPrompt + s.maxOutputTokens)}`,
    );
  else if (o?.outcome === 'other-error')
    add('warn', `a request longer than the context failed another way: ${o.detail}`);
  else if (o) add('note', `a request longer than the context it told was answered (${o.detail})`);
  return out;
}

const MARK: Record<Level, string> = { ok: 'ok  ', note: 'note', warn: 'warn', fail: 'FAIL' };

export function formatFindings(title: string, findings: Finding[]): string {
  const lines = [title];
  for (const f of findings) {
    lines.push(`  ${MARK[f.level]}  ${f.what}`);
    if (f.fix) lines.push(`        → ${f.fix}`);
  }
  return lines.join('\n');
}

/** The agent's (and the planner's, the reviewer's) models, each probed once, as the farm is configured. */
export async function doctorCommand(o: { json?: boolean; overflowUpTo?: string }): Promise<void> {
  const [{ loadAgentConfig, priceOf }, { probeEndpoint }, { requestPlannerConfigSchema }, { loadConfig }] =
    await Promise.all([
      import('@farm/coding-agent'),
      import('@farm/llm'),
      import('@farm/request-planner'),
      import('@farm/runtime'),
    ]);
  const agent = loadAgentConfig();
  const planner = loadConfig(requestPlannerConfigSchema, process.env);
  const roles = new Map<string, string[]>();
  const role = (model: string, name: string) => roles.set(model, [...(roles.get(model) ?? []), name]);
  role(agent.FARM_MODEL, 'agent');
  if (planner.OPENAI_BASE_URL) role(planner.FARM_PLANNER_MODEL, 'planner');
  if (agent.FARM_REVIEW_ROUNDS > 0) role(agent.FARM_REVIEW_MODEL ?? agent.FARM_MODEL, 'reviewer');
  const reports = [];
  let failed = false;
  for (const [model, names] of roles) {
    const facts = await probeEndpoint(
      {
        baseURL: agent.OPENAI_BASE_URL,
        apiKey: agent.OPENAI_API_KEY,
        model,
        timeoutMs: agent.FARM_LLM_TIMEOUT_S * 1000,
      },
      { overflowUpTo: o.overflowUpTo ? Number(o.overflowUpTo) : undefined },
    );
    const findings = doctorFindings(facts, {
      roles: names,
      contextWindowTokens: agent.FARM_CONTEXT_WINDOW_TOKENS,
      contextBudgetTokens: agent.FARM_CONTEXT_BUDGET_TOKENS,
      maxOutputTokens: agent.FARM_LLM_MAX_OUTPUT_TOKENS,
      timeoutS: agent.FARM_LLM_TIMEOUT_S,
      strategy: agent.FARM_AGENT_STRATEGY,
      priced: !!priceOf(agent.FARM_MODEL_PRICES, model),
    });
    failed ||= findings.some((f) => f.level === 'fail');
    reports.push({ model, roles: names, facts, findings });
    if (!o.json)
      process.stdout.write(
        `${formatFindings(`${model} at ${agent.OPENAI_BASE_URL} (${names.join(', ')})`, findings)}\n\n`,
      );
  }
  if (o.json) process.stdout.write(JSON.stringify({ ok: !failed, models: reports }, null, 2) + '\n');
  else
    process.stdout.write(
      failed
        ? 'farm doctor: the farm cannot work with this endpoint as configured (FAIL above)\n'
        : 'farm doctor: no failure\n',
    );
  process.exitCode = failed ? 1 : 0;
}
