import type { AgentTool } from './agent-tool';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { editFile } from './edit-file';
import { findSymbol } from './find-symbol';
import { finish } from './finish';
import { listFiles } from './list-files';
import { readFile } from './read-file';
import { runChecks } from './run-checks';
import { runCommand } from './run-command';
import { search } from './search';

/** The coding agent's tools, in the order the model is shown them: explore, change, verify, finish. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  listFiles,
  readFile,
  search,
  findSymbol,
  editFile,
  createFile,
  deleteFile,
  runChecks,
  runCommand,
  finish,
];
