/**
 * A word for a shell command line: what it says reaches the command as one argument, literally. Plain words
 * (letters, digits and `_ . / @ + - = :`) stay as they are, so a command line reads as one would type it;
 * anything else is single-quoted, where nothing (`$(...)`, backquotes, globs, spaces) is expanded.
 */
export function shellQuote(word: string): string {
  if (word.includes('\0')) throw new TypeError('a shell word cannot hold a NUL character');
  return /^[\w./@+=:-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
