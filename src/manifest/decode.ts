/**
 * Bytes → text for YAML files, refusing what is not UTF-8 text (binary files, UTF-16,
 * invalid sequences) with the offset of the first offending byte.
 */

export type Decoded =
  | { ok: true; text: string }
  | { ok: false; code: "binary-file" | "not-utf8"; message: string; offset: number };

function firstInvalidUtf8(bytes: Uint8Array): number {
  // Smallest prefix that fails to decode; `stream` tolerates a cut multi-byte sequence.
  const fails = (n: number) => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fails(mid)) hi = mid;
    else lo = mid + 1;
  }
  return Math.max(0, lo - 1);
}

export function decodeYamlBytes(bytes: Uint8Array): Decoded {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return {
      ok: false,
      code: "not-utf8",
      message: "file is UTF-16 text; save it as UTF-8",
      offset: 0,
    };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return {
      ok: false,
      code: "binary-file",
      message: "binary file (it contains NUL bytes), not YAML",
      offset: nul,
    };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    // Point at the lead byte of the broken sequence, not at the byte that gave it away.
    let at = bad;
    for (let k = 1; k <= 3 && bad - k >= 0; k++) {
      const b = bytes[bad - k] ?? 0;
      if (b >= 0xc0) {
        at = bad - k;
        break;
      }
      if (b < 0x80) break;
    }
    const byte = bytes[at] ?? 0;
    return {
      ok: false,
      code: "not-utf8",
      message: `file is not valid UTF-8 (byte 0x${byte.toString(16).padStart(2, "0")}); save it as UTF-8`,
      offset: at,
    };
  }
  return { ok: true, text };
}

/** 1-based line and column of a byte offset (columns count bytes). */
export function bytePosition(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
