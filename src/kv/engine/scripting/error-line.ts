// How Redis puts a script's error or status text on one line.

export const LINE_ENDS = /[\r\n]/g;

/** An error as Redis formats one it sends (addReplyErrorFormat): line ends trimmed off its end, spaces inside. */
export function errorLine(text: string): string {
  return text.replace(/[\r\n]+$/, '').replace(LINE_ENDS, ' ');
}
