export * from './drift-edits';
export * from './real-hunks';
