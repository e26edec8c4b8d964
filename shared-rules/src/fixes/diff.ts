/** A unified diff (`--diff`), three lines of context, for a file and its fixed text. */
export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string): string {
  if (oldText === newText) return "";
  const a = splitLines(oldText);
  const b = splitLines(newText);
  // Trim the common prefix and suffix, then diff the middle with an LCS table (fixes touch few lines).
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const ops = diffLines(midA, midB).map((op) => ({ ...op, aIndex: op.aIndex + prefix, bIndex: op.bIndex + prefix }));
  const all: Op[] = [];
  for (let i = 0; i < prefix; i++) all.push({ kind: " ", line: a[i], aIndex: i, bIndex: i });
  all.push(...ops);
  for (let i = 0; i < suffix; i++) all.push({ kind: " ", line: a[a.length - suffix + i], aIndex: a.length - suffix + i, bIndex: b.length - suffix + i });
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  const context = 3;
  let i = 0;
  while (i < all.length) {
    if (all[i].kind === " ") {
      i++;
      continue;
    }
    let start = Math.max(0, i - context);
    let end = i;
    // Extend the hunk while changes are within 2*context lines of each other.
    for (;;) {
      while (end < all.length && all[end].kind !== " ") end++;
      let next = end;
      while (next < all.length && all[next].kind === " " && next - end < 2 * context) next++;
      if (next < all.length && all[next].kind !== " " && next - end <= 2 * context) {
        end = next;
        continue;
      }
      break;
    }
    const stop = Math.min(all.length, end + context);
    const hunk = all.slice(start, stop);
    const aStart = hunk.find((op) => op.kind !== "+")?.aIndex ?? hunk[0].aIndex;
    const bStart = hunk.find((op) => op.kind !== "-")?.bIndex ?? hunk[0].bIndex;
    const aCount = hunk.filter((op) => op.kind !== "+").length;
    const bCount = hunk.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${aCount === 0 ? aStart : aStart + 1},${aCount} +${bCount === 0 ? bStart : bStart + 1},${bCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line.replace(/\r?\n$/, "")}${op.line.endsWith("\n") ? "" : "\n\\ No newline at end of file"}`);
    i = stop;
    start = stop;
  }
  return `${out.join("\n")}\n`;
}

interface Op {
  kind: " " | "-" | "+";
  line: string;
  aIndex: number;
  bIndex: number;
}

function splitLines(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g);
  return lines ?? [];
}

function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) {
    // Too large for the table: replace the whole middle.
    return [...a.map((line, i) => ({ kind: "-" as const, line, aIndex: i, bIndex: 0 })), ...b.map((line, j) => ({ kind: "+" as const, line, aIndex: n, bIndex: j }))];
  }
  const table: Uint32Array[] = [];
  for (let i = 0; i <= n; i++) table.push(new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i], aIndex: i++, bIndex: j++ });
    } else if (i < n && (j >= m || table[i + 1][j] >= table[i][j + 1])) {
      ops.push({ kind: "-", line: a[i], aIndex: i++, bIndex: j });
    } else {
      ops.push({ kind: "+", line: b[j], aIndex: i, bIndex: j++ });
    }
  }
  return ops;
}
