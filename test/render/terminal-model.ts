/**
 * A tiny terminal for tests: replays raw output (as a pseudo-terminal captured it) onto a
 * screen of `width` columns and says what a person would see at the end. It knows what
 * phctl writes: printable text (wrapping at the right margin, xterm's deferred wrap),
 * carriage return, newline, backspace, ESC[2K (erase line), ESC[K (erase to the end),
 * ESC[nA / ESC[nB (cursor up / down), ESC[nG (column); colours and other sequences are
 * ignored. Rows are kept without limit (the scrollback is part of the screen).
 */
export interface Screen {
  rows: string[];
  /** Rows written past the right margin (each would be a wrap the program did not plan). */
  wraps: number;
}

export function replay(raw: string, width: number): Screen {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  let pendingWrap = false;
  let wraps = 0;
  const line = () => (rows[row] ??= []);
  const down = () => {
    row++;
    while (rows.length <= row) rows.push([]);
  };
  const chars = [...raw];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === "\u001b") {
      if (chars[i + 1] === "]") {
        // OSC: up to BEL or ESC \
        while (i < chars.length && chars[i] !== "\u0007" && chars[i] !== "\u009c") {
          if (chars[i] === "\u001b" && chars[i + 1] === "\\") break;
          i++;
        }
        continue;
      }
      if (chars[i + 1] !== "[") {
        i++;
        continue;
      }
      let j = i + 2;
      let params = "";
      while (j < chars.length && /[0-9;?]/.test(chars[j])) params += chars[j++];
      const final = chars[j];
      i = j;
      const n = params === "" ? 1 : Number(params.split(";")[0]) || 0;
      pendingWrap = false;
      switch (final) {
        case "K":
          if (params === "2") rows[row] = [];
          else if (params === "" || params === "0") line().length = Math.min(line().length, col);
          break;
        case "A":
          row = Math.max(0, row - Math.max(1, n));
          break;
        case "B":
          for (let k = 0; k < Math.max(1, n); k++) down();
          break;
        case "G":
          col = Math.max(0, Math.min(width - 1, n - 1));
          break;
        default:
          break; // colours (m) and anything else: no effect on the text
      }
      continue;
    }
    if (ch === "\r") {
      col = 0;
      pendingWrap = false;
    } else if (ch === "\n") {
      down();
      pendingWrap = false;
    } else if (ch === "\b") {
      col = Math.max(0, col - 1);
      pendingWrap = false;
    } else if (ch >= " ") {
      if (pendingWrap) {
        wraps++;
        down();
        col = 0;
        pendingWrap = false;
      }
      const l = line();
      while (l.length < col) l.push(" ");
      l[col] = ch;
      if (col === width - 1) pendingWrap = true;
      else col++;
    }
  }
  return { rows: rows.map((r) => r.join("").trimEnd()), wraps };
}
