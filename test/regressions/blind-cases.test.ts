/**
 * Misses found by acceptance-style files that helpers wrote from pytorch-sync-facts.md alone, without reading
 * synclint: detection post-processing outside any step loop, and a batch moved to the GPU by a dict comprehension.
 */
import * as assert from "assert";
import { initParser, lintSource, resolveConfig } from "synclint-rules";
import { py } from "../helpers";

function findings(code: string): Array<[number, string]> {
  return lintSource(code, { config: resolveConfig({}, process.cwd()) }).findings.map((f) => [f.line, f.rule]);
}

describe("cases written blind from the facts", () => {
  before(() => initParser());

  describe("a loop that post-processes a model's outputs where autograd is off", () => {
    // `postprocess` is no step loop: it goes over the images of one batch. Its values are tensors of unknown device.
    const detector = (decorator: string) => py`
      """Post-processing of a detector's outputs on the GPU."""
      import torch
      def nms(boxes: torch.Tensor, scores: torch.Tensor, threshold: float) -> list:
          order = scores.argsort(descending=True)
          keep = []
          while order.numel() > 0:
              i = order[0].item()
              keep.append(i)
              order = order[1:][boxes[order[1:], 0] <= threshold]
          return keep
      ${decorator}
      def postprocess(cls_logits, box_preds, threshold=0.05):
          results = []
          for logits, boxes in zip(cls_logits, box_preds):
              scores, labels = logits.sigmoid().max(dim=-1)
              keep = scores > threshold
              boxes, scores = boxes[keep], scores[keep]
              results.append(nms(boxes, scores, 0.5))
          return results
    `;

    it("reports values known to be tensors under `@torch.no_grad()` and `@torch.inference_mode()`, in the loop and in what it calls", () => {
      const expected: Array<[number, string]> = [
        [7, "item-in-hot-path"],
        [9, "data-dependent-shape"],
        [17, "data-dependent-shape"],
      ];
      assert.deepStrictEqual(findings(detector("@torch.no_grad()")), expected);
      assert.deepStrictEqual(findings(detector("@torch.inference_mode()")), expected);
    });

    it("keeps asking for positive GPU evidence in such a loop where autograd may be on (a list of tensors of any device)", () => {
      assert.deepStrictEqual(findings(detector("@staticmethod")), []);
    });

    it("counts `with torch.no_grad():` around the loop, and still needs tensors: a Python list's items stay quiet", () => {
      const code = (block: string) => py`
        import torch
        def summarize(logits: torch.Tensor, names: list):
            ${block}:
                for row, name in zip(logits, names):
                    print(name, row.max().item())
                    print(name.upper())
        def device_of(model):
            return torch.device("cuda")
      `;
      assert.deepStrictEqual(findings(code("with torch.no_grad()")), [[5, "item-in-hot-path"]]);
      assert.deepStrictEqual(findings(code("with torch.autocast(\"cuda\")")), []);
    });
  });

  describe("a dict comprehension that moves a batch", () => {
    const predict = (move: string) => py`
      import torch
      @torch.no_grad()
      def predict(model, loader, device):
          gold, predictions = [], []
          for batch in loader:
              batch = {k: v${move} for k, v in batch.items()}
              logits = model(batch["input_ids"])
              predictions.append(logits.argmax(-1))
              gold.extend(batch["labels"].tolist())
          return torch.cat(predictions).cpu(), gold
    `;

    it("holds GPU tensors under every key when each value is moved to the GPU", () => {
      assert.deepStrictEqual(findings(predict(".to(device, non_blocking=True)")), [[9, "host-transfer-in-hot-path"]]);
    });

    it("holds nothing known when the values are not moved", () => {
      assert.deepStrictEqual(findings(predict("")), []);
      assert.deepStrictEqual(findings(predict(".float()")), []);
    });
  });
});
