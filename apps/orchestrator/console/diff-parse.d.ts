// The types of diff-parse.js, for its unit test (the console's modules are plain JavaScript for the browser).

export interface DiffLine {
  kind: 'context' | 'add' | 'del' | 'note';
  text: string;
  oldLine?: number;
  newLine?: number;
}

export interface DiffHunk {
  header: string;
  section: string;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface DiffFile {
  path: string;
  oldPath?: string;
  newPath?: string;
  status: 'added' | 'deleted' | 'modified' | 'renamed';
  binary: boolean;
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
  notes: string[];
}

export function parseUnifiedDiff(text: string): { files: DiffFile[]; notes: string[] };

export function sideBySide(hunk: DiffHunk): { left?: DiffLine; right?: DiffLine; note?: DiffLine }[];

export function diffStats(files: DiffFile[]): { files: number; additions: number; deletions: number };

export function lineDiff(
  before: string,
  after: string,
  max?: number,
): { kind: 'context' | 'add' | 'del'; text: string }[];
