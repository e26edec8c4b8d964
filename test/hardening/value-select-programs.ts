/**
 * Step loops built from the value selections and checks that the host-read fixes rewrite (`torch.where`, `clamp`,
 * "check every N steps"), in random combinations, nestings and layouts, for the fix properties.
 */
import { fc } from "./properties";

/** Lines of one piece; a leading `>` indents a line one level deeper than the piece. */
const PIECES: string[][] = [
  ["weight = out if loss.item() > 1.0 else out * 0.5"],
  ["shift = out if out.mean() >= 0 else 0.0"],
  ["margin = float(loss) if loss > 0 else 0.0"],
  ["scaled = out / max(loss.item(), 1e-6)"],
  ["capped = min(loss, 10.0)"],
  ["if loss > 2.0:", ">target = out", "else:", ">target = -out"],
  ["if loss.item() > 1e4:", ">break"],
  ["if torch.isnan(loss).any():", ">print('nan')", ">break"],
  ["if not torch.isfinite(loss):", ">raise FloatingPointError('loss')"],
  ["if torch.isnan(loss) or torch.isinf(loss):", ">return None"],
  ["if (step + 1) % 10 == 0 and torch.isnan(loss).any():", ">break"],
  ["if torch.isnan(loss).any():", ">continue"],
];

export const valueSelectProgramArbitrary: fc.Arbitrary<string> = fc
  .record({
    indent: fc.constantFrom("    ", "  ", "\t"),
    newline: fc.constantFrom("\n", "\r\n"),
    iterate: fc.constantFrom("for x, y in loader:", "for step, (x, y) in enumerate(loader):", "for i in range(n):", "for (x, y) in loader:", "while True:"),
    nested: fc.boolean(),
    declared: fc.boolean(),
    pieces: fc.subarray(PIECES, { minLength: 1 }),
  })
  .map(({ indent, newline, iterate, nested, declared, pieces }) => {
    const depth = nested ? 2 : 1;
    const at = (level: number, line: string) => `${indent.repeat(level)}${line}`;
    const body = ["out = model(x.cuda())", "loss = criterion(out, y)"].map((line) => at(depth + 1, line));
    for (const piece of pieces) for (const line of piece) body.push(at(depth + 1 + (line.startsWith(">") ? 1 : 0), line.replace(/^>/, "")));
    const lines = [
      "import torch",
      "",
      "def train(model, loader, criterion, n):",
      ...(nested ? [at(1, "for epoch in range(3):")] : []),
      ...(declared ? [at(depth, "check_every = 5")] : []),
      at(depth, iterate),
      ...body,
      at(1, "return model"),
      "",
    ];
    return lines.join(newline);
  });
