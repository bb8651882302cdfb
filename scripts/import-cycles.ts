/**
 * Fails on an import cycle among the project's TypeScript files, counting every edge that eslint's
 * `import-x/no-cycle` skips: `import type`, imports of only `{ type X }`, `export ... from` re-exports
 * (type-only ones too), `import x = require()`, `require()` and `import()`. Modules are resolved as the type
 * check resolves them (the tsconfig's options; a workspace package through its entry), so a cycle through
 * another package's index counts as well.
 *
 *   node --import tsx scripts/import-cycles.ts [tsconfig.json]    prints each cycle's module path; exit 1 if any (pnpm lint)
 */
import path from 'node:path';
import ts from 'typescript';

/** Each project file and the project files it imports (absolute paths). */
export type ImportGraph = Map<string, Set<string>>;

export function importGraph(tsconfigPath: string): ImportGraph {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.resolve(tsconfigPath),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${tsconfigPath}`);
  const files = parsed.fileNames.map((f) => path.resolve(f));
  const inProject = new Set(files);
  const cache = ts.createModuleResolutionCache(path.dirname(path.resolve(tsconfigPath)), (f) => f, parsed.options);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = new Set<string>();
    const info = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
    for (const { fileName: specifier } of info.importedFiles) {
      const resolved = ts.resolveModuleName(specifier, file, parsed.options, ts.sys, cache).resolvedModule;
      const target = resolved && path.resolve(resolved.resolvedFileName);
      if (target && inProject.has(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Files that import each other, directly or not: one path around them, and all of them (sorted). */
export interface ImportCycle {
  /** The shortest path from the first file (by name) back to it, e.g. [a, b, a]. */
  path: string[];
  /** Every file on some cycle with these (a strongly connected component): breaking `path` may leave others. */
  modules: string[];
}

export function findCycles(graph: ImportGraph): ImportCycle[] {
  const cycles: ImportCycle[] = [];
  for (const component of stronglyConnected(graph)) {
    const modules = [...component].sort();
    const start = modules[0];
    if (modules.length === 1 && !graph.get(start)?.has(start)) continue;
    cycles.push({ path: shortestCycle(graph, start, component), modules });
  }
  return cycles.sort((a, b) => a.modules[0].localeCompare(b.modules[0]));
}

/** The cycles of a project, each file relative to `root`. */
export function importCycles(tsconfigPath: string, root = path.dirname(path.resolve(tsconfigPath))): ImportCycle[] {
  const relative = (files: string[]) => files.map((f) => path.relative(root, f));
  return findCycles(importGraph(tsconfigPath)).map((c) => ({ path: relative(c.path), modules: relative(c.modules) }));
}

/** Tarjan's algorithm, iterative (a long import chain must not exhaust the stack). */
function stronglyConnected(graph: ImportGraph): Set<string>[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: Set<string>[] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edges: Iterator<string> }[] = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: (graph.get(node) ?? new Set<string>()).values() });
    };
    enter(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edge = frame.edges.next();
      if (!edge.done) {
        const to = edge.value;
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = new Set<string>();
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.add(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** Breadth first from `start` within its component, back to `start`. */
function shortestCycle(graph: ImportGraph, start: string, component: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i += 1) {
    const node = queue[i];
    for (const to of [...(graph.get(node) ?? [])].sort()) {
      if (to === start) {
        const back = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) back.push(at);
        return [...back, start].reverse();
      }
      if (component.has(to) && !cameFrom.has(to) && to !== start) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

if (require.main === module) {
  const tsconfig = process.argv[2] ?? path.join(__dirname, '..', 'tsconfig.json');
  const cycles = importCycles(tsconfig);
  for (const { path: around, modules } of cycles) {
    console.error(`import cycle: ${around.join(' -> ')}`);
    const others = modules.filter((m) => !around.includes(m));
    if (others.length > 0) console.error(`  and on other cycles with these: ${others.join(', ')}`);
  }
  if (cycles.length > 0) {
    console.error(
      `${cycles.length} import cycle(s), type imports and re-exports included: ` +
        'move what the modules share into the module it belongs to',
    );
    process.exit(1);
  }
}
