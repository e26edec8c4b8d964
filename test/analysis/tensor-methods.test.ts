import * as assert from "assert";
import { spawnSync } from "child_process";
import { TENSOR_METHODS } from "synclint-rules/out/analysis/tensor-methods";
import { PYTHON, torchAvailable } from "../helpers";

describe("TENSOR_METHODS", () => {
  it("holds every public method of the installed PyTorch's torch.Tensor", function () {
    if (!torchAvailable()) {
      if (process.env.CI) throw new Error(`${PYTHON} cannot import torch: install it (apt-get install -y python3-torch); CI must run this test`);
      this.skip();
    }
    const listed = spawnSync(PYTHON, ["-c", "import torch; print('\\n'.join(m for m in dir(torch.Tensor) if not m.startswith('_') and callable(getattr(torch.Tensor, m, None))))"], { encoding: "utf8", timeout: 60000 });
    assert.strictEqual(listed.status, 0, listed.stderr);
    const missing = listed.stdout.split("\n").filter((name) => name && !TENSOR_METHODS.has(name));
    assert.deepStrictEqual(missing, []);
  });

  it("holds no method that tensors lack", () => {
    for (const name of ["get_step", "mapping", "decode_first_stage", "encode", "sample", "keys", "startswith"]) assert.ok(!TENSOR_METHODS.has(name), name);
  });
});
