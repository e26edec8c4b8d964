import { py } from "../helpers";
import { ruleTester } from "../rule-tester";

ruleTester.run("explicit-synchronize", {
  valid: [
    {
      name: "the loop of a function that times the model syncs so that the clock measures the GPU (pycls's `compute_time_eval`)",
      code: py`
        import time
        import torch
        def compute_time_eval(model, inputs, num_iter):
            model.eval()
            times = []
            for cur_iter in range(num_iter):
                torch.cuda.synchronize()
                start = time.perf_counter()
                model(inputs)
                torch.cuda.synchronize()
                times.append(time.perf_counter() - start)
            return sum(times) / len(times)
      `,
    },
    {
      name: "benchmark: one synchronize after the loop",
      code: py`
        import torch
        import time
        def benchmark(model, loader):
            t0 = time.perf_counter()
            for x, y in loader:
                model(x)
            torch.cuda.synchronize()
            return time.perf_counter() - t0
      `,
    },
    {
      name: "periodic synchronize",
      code: py`
        import torch
        def train(loader, model):
            for step, (x, y) in enumerate(loader):
                model(x)
                if step % 100 == 0:
                    torch.cuda.synchronize()
      `,
    },
    {
      name: "module top level",
      code: py`
        import torch
        torch.cuda.synchronize()
      `,
    },
    {
      name: "`torch.cuda.empty_cache()` once between training and evaluation, or every N steps",
      code: py`
        import torch
        def run(model, loader, optimizer, evaluate):
            for step, (x, y) in enumerate(loader):
                model(x.cuda(non_blocking=True)).mean().backward()
                optimizer.step()
                if step % 1000 == 0:
                    torch.cuda.empty_cache()
            torch.cuda.empty_cache()
            evaluate(model)
      `,
    },
    {
      name: "a threading barrier",
      code: py`
        import torch
        import threading
        def train(loader, model, lock: threading.Barrier):
            for x, y in loader:
                lock.wait()
      `,
    },
    {
      name: "an unrelated `.synchronize()` method",
      code: py`
        import torch
        def train(loader, model, replicator):
            for x, y in loader:
                model(x)
                replicator.synchronize()
      `,
    },
    {
      name: "wait_stream orders on the device",
      code: py`
        import torch
        def train(loader, model):
            side = torch.cuda.Stream()
            for x, y in loader:
                torch.cuda.current_stream().wait_stream(side)
      `,
    },
    {
      name: "once per epoch",
      code: py`
        import torch
        def train(loader, model, optimizer, epochs):
            for epoch in range(epochs):
                for x, y in loader:
                    model(x).mean().backward()
                    optimizer.step()
                torch.cuda.synchronize()
      `,
    },
    {
      name: "warm-up function called once",
      code: py`
        import torch
        def warmup(model, x):
            model(x)
            torch.cuda.synchronize()
      `,
    },
    {
      name: "an event's query() does not block",
      code: py`
        import torch
        def train(loader, model):
            done = torch.cuda.Event()
            for x, y in loader:
                model(x)
                done.record()
                ready = done.query()
      `,
    },
  ],
  invalid: [
    {
      name: "`dist.barrier()` every step waits for the current stream (NCCL) and for the slowest process; one under a periodic guard, or asynchronous, does not",
      code: py`
        import torch
        import torch.distributed as dist
        def train(model, loader, optimizer):
            for step, batch in enumerate(loader):
                loss = model(batch.cuda(non_blocking=True)).mean()
                loss.backward()
                optimizer.step()
                dist.barrier()
                work = dist.barrier(async_op=True)
                if step % 1000 == 0:
                    dist.barrier()
      `,
      errors: [{ line: 8, messageIncludes: ["`dist.barrier()` in the step loop of `train()` (line 4) waits until every process reaches it", "`cudaStreamSynchronize`", "every step"] }],
    },
    {
      name: "`torch.cuda.empty_cache()` (or `torch.cuda.memory.empty_cache()`) in the step loop gives back what the next step allocates again",
      code: py`
        import torch
        from torch.cuda import memory
        def train(model, loader, optimizer):
            for x, y in loader:
                loss = model(x.cuda(non_blocking=True)).mean()
                loss.backward()
                optimizer.step()
                torch.cuda.empty_cache()
                memory.empty_cache()
      `,
      errors: [
        { line: 8, messageIncludes: ["`torch.cuda.empty_cache()` in the step loop of `train()` (line 4) gives the allocator's cached blocks back to CUDA with `cudaFree`, which may wait for the GPU", "every step"] },
        { line: 9, messageIncludes: ["`memory.empty_cache()`"] },
      ],
    },
    {
      name: "a timing helper that a benchmark and a detection loop both call is hot through the detection loop (YOLOv7's `time_synchronized`)",
      code: py`
        import time
        import torch
        def time_synchronized():
            torch.cuda.synchronize()
            return time.time()
        def profile(model, x, n=100):
            for _ in range(n):
                t0 = time_synchronized()
                model(x)
                t1 = time_synchronized()
        def detect(model, loader, device):
            for path, img in loader:
                img = img.to(device, non_blocking=True)
                t1 = time_synchronized()
                pred = model(img)
                t2 = time_synchronized()
      `,
      errors: [{ line: 4, messageIncludes: ["in the step loop of `detect()` (line 12)"] }],
    },
    {
      name: "torch.cuda.synchronize() in the step loop",
      code: py`
        import torch
        def train(loader, model, optimizer):
            for x, y in loader:
                loss = model(x).mean()
                loss.backward()
                optimizer.step()
                torch.cuda.synchronize()
      `,
      errors: [{ line: 7, column: 9, endColumn: 33, messageIncludes: ["`torch.cuda.synchronize()`", "every stream on the device", "step loop of `train()` (line 3)"] }],
    },
    {
      name: "stream.synchronize()",
      code: py`
        import torch
        def train(loader, model):
            side = torch.cuda.Stream()
            for x, y in loader:
                with torch.cuda.stream(side):
                    out = model(x)
                side.synchronize()
      `,
      errors: [{ line: 7, column: 14, endColumn: 27, messageIncludes: "work queued on the stream" }],
    },
    {
      name: "event.synchronize()",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                done = torch.cuda.Event()
                out = model(x)
                done.record()
                done.synchronize()
      `,
      errors: [{ line: 7, column: 14, messageIncludes: "work recorded before the event" }],
    },
    {
      name: "timing events by name",
      code: py`
        import torch
        def train(loader, model):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            for x, y in loader:
                start.record()
                out = model(x)
                end.record()
                end.synchronize()
      `,
      errors: [{ line: 9, column: 13 }],
    },
    {
      name: "imported synchronize",
      code: py`
        import torch
        from torch.cuda import synchronize
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                synchronize()
      `,
      errors: [{ line: 6, column: 9 }],
    },
    {
      name: "synchronize in forward",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                torch.cuda.synchronize()
                return x
      `,
      errors: [{ line: 5, column: 9, messageIncludes: ["in `Net.forward()`", "on every forward pass"] }],
    },
    {
      name: "current_stream().synchronize()",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                torch.cuda.current_stream().synchronize()
      `,
      errors: [{ line: 5, column: 37 }],
    },
    {
      name: "torch.xpu.synchronize()",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                torch.xpu.synchronize()
      `,
      errors: [{ line: 5, column: 9 }],
    },
    {
      name: "synchronize with a device argument",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                out = model(x)
                torch.cuda.synchronize(0)
      `,
      errors: [{ line: 5, column: 9 }],
    },
    {
      name: "strict preset reports the warm-up synchronize",
      preset: "strict",
      code: py`
        import torch
        def warmup(model, x):
            model(x)
            torch.cuda.synchronize()
      `,
      errors: [{ line: 4, column: 5, hot: false, messageIncludes: "in `warmup()`" }],
    },
  ],
});
