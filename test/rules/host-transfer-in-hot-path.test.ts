import { py } from "../helpers";
import { ruleTester } from "../rule-tester";

ruleTester.run("host-transfer-in-hot-path", {
  valid: [
    {
      name: "an action handed to an environment's `step`, directly or through a name after an `if`/`else` (epsilon-greedy): the simulator on the host needs it now",
      code: py`
        import random
        import numpy as np
        import torch
        def rollout(envs, agent, q_network, device, steps, epsilon):
            obs = envs.reset()
            for step in range(steps):
                action = agent(torch.Tensor(obs).to(device))
                obs, reward, done, info = envs.step(action.cpu().numpy())
                if random.random() < epsilon:
                    actions = np.array([envs.single_action_space.sample()])
                else:
                    q_values = q_network(torch.Tensor(obs).to(device))
                    actions = torch.argmax(q_values, dim=1).cpu().numpy()
                obs, reward, done, info = envs.step(actions)
      `,
    },
    {
      name: "a branch for the few batches listed to show (\`if ret_samples_ids is not None and i in ret_samples_ids:\`) runs on those steps only (DeepLabV3Plus's \`validate\`)",
      code: py`
        import torch
        def validate(model, loader, device, ret_samples_ids=None):
            ret_samples = []
            for i, (images, labels) in enumerate(loader):
                images = images.to(device, non_blocking=True)
                outputs = model(images)
                if ret_samples_ids is not None and i in ret_samples_ids:
                    ret_samples.append(images[0].detach().cpu().numpy())
            return ret_samples
      `,
    },
    {
      name: "the fields of a batch from `metric_logger.log_every(data_loader, ...)` that were never moved are host tensors (VideoMAE's `final_test`)",
      code: py`
        import torch
        def final_test(data_loader, model, device, metric_logger):
            results = []
            for batch in metric_logger.log_every(data_loader, 10, "Test:"):
                videos = batch[0]
                chunk_nb = batch[3]
                videos = videos.to(device, non_blocking=True)
                output = model(videos)
                for i in range(output.size(0)):
                    results.append(int(chunk_nb[i].cpu().numpy()))
            return results
      `,
    },
    {
      name: "a debugging dump that an environment variable turns on (`os.environ.get(\"LOGIT_DUMP\")`, unset by default) does not run every step",
      code: py`
        import os
        import torch
        from torch import nn
        DEBUG = os.getenv("MODEL_DEBUG")
        class Model(nn.Module):
            def forward(self, x):
                logits = self.head(x)
                dump_dir = os.environ.get("LOGIT_DUMP")
                if dump_dir is not None:
                    torch.save(logits.detach().cpu(), os.path.join(dump_dir, "logits.pt"))
                if DEBUG:
                    print(logits.mean().cpu())
                return logits
      `,
    },
    {
      name: "`.to(\"cpu\", non_blocking=True)` does not wait",
      code: py`
        import torch
        def train(loader, model):
            for batch in loader:
                out = model(batch)
                host = out.to("cpu", non_blocking=True)
      `,
    },
    {
      name: "collect on the device, copy once after the loop",
      code: py`
        import torch
        def evaluate(model, loader):
            preds = []
            for x, y in loader:
                preds.append(model(x).argmax(1))
            return torch.cat(preds).cpu().numpy()
      `,
    },
    {
      name: "periodic snapshot",
      code: py`
        import torch
        def train(loader, model):
            for step, batch in enumerate(loader):
                out = model(batch)
                if step % 100 == 0:
                    snapshot = out.detach().cpu()
      `,
    },
    {
      name: "`.tolist()` of a host batch",
      code: py`
        import torch
        def train(loader, model):
            for x, y in loader:
                labels = y.tolist()
      `,
    },
    {
      name: "np.array of a Python list",
      code: py`
        import torch
        import numpy as np
        def train(loader, model):
            for x, y in loader:
                w = np.array([1.0, 2.0])
      `,
    },
    {
      name: "`.numpy()` of a host batch",
      code: py`
        import torch
        def train(loader):
            for x, y in loader:
                a = x.numpy()
      `,
    },
    {
      name: "moving a module to the CPU is not a tensor copy",
      code: py`
        import torch
        def train(loader, model):
            for batch in loader:
                model.cpu()
      `,
    },
    {
      name: "`.cpu()` of a batch that is already on the host",
      code: py`
        import torch
        def train(loader):
            for x, y in loader:
                x = x.cpu()
      `,
    },
    {
      name: "`.tolist()` of a numpy array",
      code: py`
        import torch
        import numpy as np
        def train(loader):
            for x, y in loader:
                arr = np.zeros(3)
                vals = arr.tolist()
      `,
    },
    {
      name: "once per epoch, after the step loop",
      code: py`
        import torch
        def train(loader, model, optimizer, epochs):
            for epoch in range(epochs):
                for x, y in loader:
                    loss = model(x).mean()
                    loss.backward()
                    optimizer.step()
                weights = model.fc.weight.detach().cpu()
      `,
    },
    {
      name: "a function called once",
      code: py`
        import torch
        def export(model, x):
            return model(x).cpu()
        def main(model, x):
            export(model, x)
      `,
    },
    {
      name: "a chat loop that waits for the user's line on every turn is paced by a person, not a step loop",
      code: py`
        import torch
        def chat(model, tokenizer):
            while True:
                lines = []
                while True:
                    line = input()
                    if not line:
                        break
                    lines.append(line)
                ids = tokenizer("\\n".join(lines), return_tensors="pt").input_ids.cuda(non_blocking=True)
                out = model.generate(ids)
                print(tokenizer.decode(out[0].cpu()))
      `,
    },
    {
      name: "a viewer that shows one image per key press (`cv2.waitKey(0)`, or until a plot is closed) is paced by a person: its copies to the host wait for nobody (pytorch-retinanet's visualize.py)",
      code: py`
        import cv2
        import numpy as np
        import torch
        import matplotlib.pyplot as plt
        def show(retinanet, dataloader_val):
            for idx, data in enumerate(dataloader_val):
                scores, classification, boxes = retinanet(data["img"].cuda(non_blocking=True).float())
                idxs = np.where(scores.cpu() > 0.5)
                cv2.imshow("img", data["img"].numpy())
                cv2.waitKey(0)
        def plot(model, loader):
            for x, y in loader:
                out = model(x.cuda(non_blocking=True))
                plt.imshow(out[0].cpu().numpy())
                plt.show()
      `,
    },
  ],
  invalid: [
    {
      name: "a copy that no environment step takes (logged, or handed to another object's `step`) is reported",
      code: py`
        import torch
        def rollout(envs, agent, scheduler, device, steps):
            obs = envs.reset()
            for step in range(steps):
                action = agent(torch.Tensor(obs).to(device))
                logged = action.cpu().numpy()
                scheduler.step(action.cpu().numpy())
                obs, reward, done, info = envs.step(action.argmax().item())
      `,
      errors: [{ line: 6, messageIncludes: "`action.cpu()`" }, { line: 7, messageIncludes: "`action.cpu()`" }],
    },
    {
      name: "a video's display loop (`cv2.waitKey(1)`) or a viewer that waits only for some images is paced by its frames: its copies to the host are per step",
      code: py`
        import cv2
        import numpy as np
        import torch
        def play(model, frames):
            for frame in frames:
                out = model(torch.from_numpy(frame).cuda(non_blocking=True))
                cv2.imshow("out", out.cpu().numpy())
                cv2.waitKey(1)
        def show(model, loader, pause):
            for x, y in loader:
                out = model(x.cuda(non_blocking=True))
                cv2.imshow("out", out.cpu().numpy())
                if pause:
                    cv2.waitKey(0)
      `,
      errors: [{ line: 7 }, { line: 12 }],
    },
    {
      name: "a loop that steps an environment each pass (\`while not done: ... env.step(action)\`) is a step loop, though it nests a loop of updates: a value copied back every environment step is reported, the action the environment takes is not (pytorch-soft-actor-critic)",
      code: py`
        import torch
        def run(env, agent, memory, args, values):
            for episode in range(args.episodes):
                state = env.reset()
                done = False
                while not done:
                    action = agent.policy(torch.as_tensor(state, device="cuda")).cpu().numpy()
                    values.append(agent.critic(torch.as_tensor(state, device="cuda")).cpu().numpy())
                    if len(memory) > args.batch_size:
                        for i in range(args.updates_per_step):
                            agent.update_parameters(memory)
                    state, reward, done, _ = env.step(action)
      `,
      errors: [{ line: 8, messageIncludes: ["step loop"] }],
    },
    {
      name: "a method tensors lack, on a model moved to the GPU and called with GPU tensors, is the model's computation: its output is on the GPU (stylegan3's `G.mapping`)",
      code: py`
        import torch
        def interpolate(G, zs_host, device, grid):
            G = G.to(device)
            zs = zs_host.to(device)
            ws = G.mapping(z=zs, c=None)
            for row in grid:
                values = ws[row].cpu()
      `,
      errors: [{ line: 7, messageIncludes: ["`ws[row].cpu()`"] }],
    },
    {
      name: "an `evaluate` metric's `add_batch` of GPU predictions casts them to NumPy: not host values, nor another object's `add_batch`",
      code: py`
        import torch
        import evaluate
        def evaluate_model(model, loader, device):
            metric = evaluate.load("accuracy")
            for batch in loader:
                batch = batch.to(device, non_blocking=True)
                predictions = model(batch).argmax(dim=-1)
                metric.add_batch(predictions=predictions, references=batch.labels)
                metric.add_batch(predictions=[1, 2], references=[1, 2])
                writer.add_batch(predictions=predictions)
            return metric.compute()
      `,
      errors: [{ line: 8, column: 16, messageIncludes: ["`metric.add_batch(predictions=predictions, referen", "cast_to_python_objects"] }],
    },
    {
      name: "what accelerate's `gather_for_metrics` returns is where its argument was, unpacked too: GPU predictions, not host labels",
      code: py`
        import torch
        def evaluate_model(model, eval_dataloader, accelerator, metric):
            for batch in eval_dataloader:
                logits = model(**batch).logits
                predictions, references = accelerator.gather_for_metrics((logits.argmax(dim=-1), batch["labels"]))
                metric.add_batch(predictions=predictions, references=references)
                labels = accelerator.gather(batch["labels"])
                host_labels = labels.cpu()
                gathered = accelerator.gather_for_metrics(logits)
                kept = gathered.cpu()
      `,
      errors: [
        { line: 6, column: 16, messageIncludes: ["`metric.add_batch(predictions=predictions, referen"] },
        { line: 10, column: 25, messageIncludes: ["`gathered.cpu()`"], messageExcludes: ["(if"] },
      ],
    },
    {
      name: "a batch moved in place by a `.to(device)` statement (a `BatchEncoding`) is on the GPU after it, and only after it",
      code: py`
        import torch
        def evaluate_model(model, test_dataloader, accelerator, outputs):
            for step, batch in enumerate(test_dataloader):
                before = batch["labels"].cpu()
                batch.to(accelerator.device)
                references = batch["labels"]
                outputs.append(references.cpu())
      `,
      errors: [{ line: 7, column: 35, messageIncludes: ["`references.cpu()`"], messageExcludes: ["(if"] }],
    },
    {
      name: "a tokenizer's `decode`/`batch_decode` of generated ids on the GPU turns them into a list (`to_py_obj`): not a list, host ids, or another object's `decode`",
      code: py`
        import torch
        def evaluate(model, tokenizer, loader, device):
            for batch in loader:
                input_ids = batch["input_ids"].to(device, non_blocking=True)
                outputs = model.generate(input_ids, max_new_tokens=10)
                preds = tokenizer.batch_decode(outputs, skip_special_tokens=True)
                labels = tokenizer.batch_decode(batch["labels"])
                text = self.tokenizer.decode(outputs[0])
                other = decoder.decode(outputs)
                listed = tokenizer.decode([1, 2, 3])
      `,
      errors: [
        { line: 6, column: 27, messageIncludes: ["`tokenizer.batch_decode(outputs, skip_special_toke", "to_py_obj"] },
        { line: 8, column: 31, messageIncludes: ["`self.tokenizer.decode(outputs[0])`"] },
      ],
    },
    {
      name: "`.cpu()` in an evaluation loop",
      code: py`
        import torch
        def evaluate(model, loader):
            preds = []
            for x, y in loader:
                out = model(x.cuda(non_blocking=True))
                preds.append(out.argmax(1).cpu())
      `,
      errors: [{ line: 6, column: 36, endColumn: 41, messageIncludes: ["`out.argmax(1).cpu()`", "in the step loop of `evaluate()` (line 4)", "copies a GPU tensor to host memory"] }],
    },
    {
      name: "`.tolist()` of model outputs",
      code: py`
        import torch
        def evaluate(model, loader):
            ids = []
            for batch in loader:
                logits = model(batch)
                ids.extend(logits.argmax(-1).tolist())
      `,
      errors: [{ line: 6, column: 38, messageIncludes: ["to a Python list", "step loop of `evaluate()`"] }],
    },
    {
      name: "`.to(\"cpu\")`",
      code: py`
        import torch
        def train(loader, model):
            for batch in loader:
                out = model(batch)
                host = out.to("cpu")
      `,
      errors: [{ line: 5, column: 20, endColumn: 29 }],
    },
    {
      name: "`.type(torch.FloatTensor)`, a legacy CPU type, of a GPU tensor (then copied back: the `.to(device)` is a copy from the host); not `.type(torch.cuda.FloatTensor)` or a dtype",
      code: py`
        import torch
        def update(loader, model, device, proportion):
            for batch in loader:
                out = model(batch.to(device, non_blocking=True))
                mask = torch.rand(len(out), device=device)
                mask = (mask < proportion).type(torch.FloatTensor).to(device)
                same = (out > 0).type(torch.cuda.FloatTensor)
                half = out.type(torch.float16)
                loss = (out * mask * same * half).mean()
                loss.backward()
      `,
      errors: [{ line: 6, column: 36, endColumn: 59, messageIncludes: "copies a GPU tensor to host memory" }],
    },
    {
      name: "`.to(device=\"cpu\")`",
      code: py`
        import torch
        def train(loader, model):
            for batch in loader:
                out = model(batch)
                host = out.to(device="cpu")
      `,
      errors: [{ line: 5, column: 20 }],
    },
    {
      name: "np.array of a GPU tensor underlines the whole call",
      code: py`
        import torch
        import numpy as np
        def evaluate(model, loader):
            for x, y in loader:
                probs = model(x).softmax(-1)
                arr = np.array(probs)
      `,
      errors: [{ line: 6, column: 15, endColumn: 30, messageIncludes: "`np.array(probs)`" }],
    },
    {
      name: "np.asarray",
      code: py`
        import torch
        import numpy as np
        def evaluate(model, loader):
            for x, y in loader:
                out = model(x)
                arr = np.asarray(out)
      `,
      errors: [{ line: 6, column: 15 }],
    },
    {
      name: "`.numpy(force=True)`",
      code: py`
        import torch
        def evaluate(model, loader):
            for x, y in loader:
                out = model(x)
                arr = out.numpy(force=True)
      `,
      errors: [{ line: 5, column: 19 }],
    },
    {
      name: "`.detach().cpu().numpy()` reports the copy once",
      code: py`
        import torch
        def evaluate(model, loader):
            for x, y in loader:
                out = model(x)
                arr = out.detach().cpu().numpy()
      `,
      errors: [{ line: 5, column: 28, endColumn: 33 }],
    },
    {
      name: "`.cpu()` in forward states the assumption",
      code: py`
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                stats = x.mean(0).cpu()
                return x
      `,
      errors: [{ line: 5, column: 27, messageIncludes: ["in `Net.forward()`", "on every forward pass", "(if `x.mean(0)` is on a GPU)"] }],
    },
    {
      name: "strict preset reports a cold copy",
      preset: "strict",
      code: py`
        import torch
        def export(model, x):
            return model(x).cpu()
        def main(model, x):
            export(model, x)
      `,
      errors: [{ line: 3, column: 21, hot: false, messageIncludes: "in `export()`" }],
    },
    {
      name: "a generation loop that reads a prompt only under an option is not a prompt loop",
      code: py`
        import torch
        def main(args, model, prompts):
            for prompt in prompts:
                if args.interactive:
                    prompt = input()
                ids = torch.tensor(prompt).cuda(non_blocking=True)
                out = model(ids)
                print(out.cpu())
      `,
      errors: [{ line: 8, messageIncludes: ["`out.cpu()`"] }],
    },
    {
      name: "the indices of a top-k of GPU logits are on the GPU",
      code: py`
        import torch
        def predict(loader, model):
            for images in loader:
                logits = model(images.cuda(non_blocking=True))
                top5 = torch.topk(logits, 5).indices.tolist()
      `,
      errors: [{ line: 5, messageIncludes: [".indices.tolist()"] }],
    },
  ],
});
