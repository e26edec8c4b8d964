import { py } from "../helpers";
import { ruleTester } from "../rule-tester";

ruleTester.run("dataloader-pin-memory", {
  valid: [
    {
      name: "a loader of which a loop draws a few batches once (\`if i == args.n_test_samples - 1: break\`, 8 by default) gains nothing from pinning (melgan's test clips)",
      code: py`
        import argparse
        from torch.utils.data import DataLoader
        def main(test_set, save):
            parser = argparse.ArgumentParser()
            parser.add_argument("--n_test_samples", type=int, default=8)
            args = parser.parse_args()
            test_loader = DataLoader(test_set, batch_size=1)
            for i, x_t in enumerate(test_loader):
                save(x_t.cuda())
                if i == args.n_test_samples - 1:
                    break
      `,
    },
    {
      name: "a Lightning hook's loader in a test file: a test's Trainer runs a few batches",
      options: { filePath: "tests/helpers/datamodules.py" },
      code: py`
        import pytorch_lightning as pl
        from torch.utils.data import DataLoader
        class ClassifDataModule(pl.LightningDataModule):
            def train_dataloader(self):
                return DataLoader(self.dataset, batch_size=8)
      `,
    },
    {
      name: "pin_memory=True",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def main(dataset, model, device):
            loader = DataLoader(dataset, batch_size=32, pin_memory=True)
            for x, y in loader:
                x = x.to(device, non_blocking=True)
      `,
    },
    {
      name: "pin_memory from a variable",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def main(dataset, model, device, pin):
            loader = DataLoader(dataset, batch_size=32, pin_memory=pin)
            for x, y in loader:
                x = x.to(device)
      `,
    },
    {
      name: "batches never moved to a device",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def main(dataset, model):
            loader = DataLoader(dataset, batch_size=32)
            for x, y in loader:
                out = model(x)
      `,
    },
    {
      name: "batches moved to the CPU",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def main(dataset):
            loader = DataLoader(dataset, batch_size=32)
            for x, y in loader:
                x = x.to("cpu")
      `,
    },
    {
      name: "loader handed to another file's function without a device, or with a CPU one; its length formatted beside Python numbers",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        from engine import train_one_epoch, compute_stats
        def main(dataset, model, num_epochs):
            cpu_device = torch.device("cpu")
            loader = DataLoader(dataset, batch_size=32)
            total_step = len(loader)
            for epoch in range(num_epochs):
                train_one_epoch(model, loader)
                compute_stats(loader, cpu_device)
                print("Epoch [{}/{}], Step [{}]".format(epoch + 1, num_epochs, total_step))
      `,
    },
    {
      name: "a different loader is moved",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def main(dataset, device, other_loader):
            loader = DataLoader(dataset, batch_size=32)
            for x, y in other_loader:
                x = x.to(device)
      `,
    },
    {
      name: "a factory that returns the loader",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def make_loader(dataset):
            return DataLoader(dataset, batch_size=32)
      `,
    },
    {
      name: "pinned loader iterated through enumerate",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def main(dataset, device):
            loader = DataLoader(dataset, batch_size=32, num_workers=2, pin_memory=True)
            for i, (x, y) in enumerate(loader):
                x = x.cuda()
      `,
    },
    {
      name: "a user class named like DataLoader in a file without moves",
      code: py`
        import torch
        class DataLoader:
            pass
        def main(device):
            loader = DataLoader()
            for item in loader:
                print(item)
      `,
    },
  ],
  invalid: [
    {
      name: "torchdata's `StatefulDataLoader` takes the same `pin_memory` (torchtune's recipes)",
      code: py`
        import torch
        from torchdata.stateful_dataloader import StatefulDataLoader
        def train(model, dataset, device):
            loader = StatefulDataLoader(dataset=dataset, batch_size=8, drop_last=True)
            for batch in loader:
                model(batch.to(device)).backward()
      `,
      errors: [{ line: 4 }],
    },
    {
      name: "batches moved with a blocking copy: the message asks for `non_blocking=True` there too, without which pinning overlaps nothing",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def train(model, dataset, optimizer, device):
            loader = DataLoader(dataset, batch_size=64)
            for x, y in loader:
                x = x.cuda()
                loss = model(x, y.cuda(non_blocking=True))
                loss.backward()
                optimizer.step()
      `,
      errors: [{ line: 4, messageIncludes: ["moved to the GPU at line 6 with a blocking copy; pin them and pass `non_blocking=True` there"] }],
    },
    {
      name: "a loader that a function of the file builds and returns, whose batches a loop of the file moves to the GPU (LLaVA's `create_data_loader`); a factory whose loader is only counted is not reported",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        from tqdm import tqdm
        def create_data_loader(dataset, batch_size=1, num_workers=4):
            data_loader = DataLoader(dataset, batch_size=batch_size, num_workers=num_workers, shuffle=False)
            return data_loader
        def make_counted(dataset):
            return DataLoader(dataset, batch_size=4)
        def eval_model(model, dataset, questions):
            data_loader = create_data_loader(dataset)
            for (input_ids, image_tensor), line in tqdm(zip(data_loader, questions), total=len(questions)):
                input_ids = input_ids.to(device="cuda", non_blocking=True)
                output = model(input_ids, image_tensor)
            print(len(make_counted(dataset)))
      `,
      errors: [{ line: 5, messageIncludes: ["moved to the GPU at line 12"] }],
    },
    {
      name: "a loader that a Lightning hook builds is moved batch by batch by the Trainer; one pinned, one of a class that is not Lightning's, or one built outside the hooks is not reported",
      code: py`
        import pytorch_lightning as pl
        from torch.utils.data import DataLoader
        class DataModuleFromConfig(pl.LightningDataModule):
            def train_dataloader(self):
                return DataLoader(self.datasets["train"], batch_size=self.batch_size, num_workers=4, shuffle=True)
            def val_dataloader(self):
                return DataLoader(self.datasets["validation"], batch_size=self.batch_size, pin_memory=True)
            def preview(self):
                return DataLoader(self.datasets["train"], batch_size=4)
        class Plain:
            def train_dataloader(self):
                return DataLoader(self.dataset, batch_size=8)
        class Assigned(pl.LightningDataModule):
            def __init__(self):
                self.val_dataloader = self._val_dataloader
            def _val_dataloader(self):
                return DataLoader(self.dataset, batch_size=8)
      `,
      errors: [
        { line: 5, messageIncludes: ["`train_dataloader()`", "Lightning's Trainer", "non_blocking=True"] },
        { line: 17, messageIncludes: ["`val_dataloader()`", "Lightning's Trainer"] },
      ],
    },
    {
      name: "a loader handed to `accelerator.prepare(...)` has its batches moved by accelerate with a blocking copy; a pinned one, or one prepared nowhere, is not reported",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        from accelerate import Accelerator
        def main(model, optimizer, train_set, eval_set, test_set):
            accelerator = Accelerator()
            train_dataloader = DataLoader(train_set, batch_size=8, shuffle=True)
            eval_dataloader = DataLoader(eval_set, batch_size=8, pin_memory=True)
            test_dataloader = DataLoader(test_set, batch_size=8)
            model, optimizer, train_dataloader, eval_dataloader = accelerator.prepare(model, optimizer, train_dataloader, eval_dataloader)
            for batch in train_dataloader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
      `,
      errors: [{ line: 6, messageIncludes: ["`accelerator.prepare()` at line 9", "DataLoaderConfiguration(non_blocking=True)"] }],
    },
    {
      name: "batches drawn with `next()` from an iterator or a generator over the loader, and moved in the loop",
      code: py`
        import torch
        from torch.utils import data
        def sample_data(loader):
            while True:
                for batch in loader:
                    yield batch
        def train(loader, generator, device, iters):
            loader = sample_data(loader)
            for idx in range(iters):
                real_img = next(loader)
                real_img = real_img.to(device)
        def main(dataset, generator, device):
            loader = data.DataLoader(dataset, batch_size=16, drop_last=True)
            train(loader, generator, device, 1000)
            val = data.DataLoader(dataset, batch_size=16)
            val_iter = iter(val)
            for step in range(100):
                batch = utils.batch_to_device(next(val_iter), device)
      `,
      errors: [
        { line: 13, messageIncludes: ["without `pin_memory=True`", "moved to the GPU at line 11"] },
        { line: 15, messageIncludes: ["without `pin_memory=True`", "moved to the GPU at line 18"] },
      ],
    },
    {
      name: "batches moved with `.type(Tensor)`, a legacy CUDA tensor type",
      code: py`
        import torch
        cuda = torch.cuda.is_available()
        Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
        dataloader = torch.utils.data.DataLoader(dataset, batch_size=64, shuffle=True)
        for epoch in range(200):
            for i, (imgs, _) in enumerate(dataloader):
                real_imgs = imgs.type(Tensor)
      `,
      errors: [{ line: 4, messageIncludes: ["without `pin_memory=True`", "moved to the GPU at line 7"] }],
    },
    {
      name: "no pin_memory, batches moved in the same function",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def main(dataset, model, device):
            loader = DataLoader(dataset, batch_size=32, shuffle=True)
            for x, y in loader:
                x = x.to(device, non_blocking=True)
      `,
      errors: [{ line: 4, column: 14, endColumn: 62, hot: false, messageIncludes: ["without `pin_memory=True`", "moved to the GPU at line 6"] }],
    },
    {
      name: "explicit pin_memory=False",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def main(dataset, model):
            loader = DataLoader(dataset, batch_size=32, pin_memory=False)
            for x, y in loader:
                x = x.cuda(non_blocking=True)
      `,
      errors: [{ line: 4, column: 14, messageIncludes: "line 6" }],
    },
    {
      name: "loader passed to a same-file training function",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def train(model, data, device):
            for x, y in data:
                x = x.to(device)
        def main(dataset, model, device):
            train_loader = DataLoader(dataset, batch_size=64, num_workers=4)
            train(model, train_loader, device)
      `,
      errors: [{ line: 7, column: 20, messageIncludes: "moved to the GPU at line 5" }],
    },
    {
      name: "loader handed to another file's training and evaluation functions together with a GPU device",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        from engine import train_one_epoch
        import engine
        def main(args, dataset_train, dataset_val, model, criterion, optimizer):
            device = torch.device(args.device)
            data_loader_train = DataLoader(dataset_train, batch_size=2, num_workers=2)
            data_loader_val = DataLoader(dataset_val, batch_size=2, num_workers=2)
            for epoch in range(args.epochs):
                train_one_epoch(model, criterion, data_loader_train, optimizer, device, epoch)
                engine.evaluate(model, data_loader_val, device=device)
      `,
      errors: [
        { line: 7, column: 25, messageIncludes: "`train_one_epoch()` is given it with the GPU device `device` at line 10" },
        { line: 8, column: 23, messageIncludes: "`engine.evaluate()` is given it with the GPU device `device` at line 11" },
      ],
    },
    {
      name: "loader passed by keyword",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def train(model, data, device):
            for x, y in data:
                x = x.to(device)
        def main(dataset, model, device):
            train_loader = DataLoader(dataset, batch_size=64)
            train(model, data=train_loader, device=device)
      `,
      errors: [{ line: 7, column: 20, messageIncludes: "line 5" }],
    },
    {
      name: "enumerate(tqdm(loader)) through a module alias",
      code: py`
        import torch
        from tqdm import tqdm
        import torch.utils.data as tud
        def main(dataset, model):
            loader = tud.DataLoader(dataset, batch_size=8)
            for i, (x, y) in enumerate(tqdm(loader)):
                x = x.cuda()
      `,
      errors: [{ line: 5, column: 14, messageIncludes: "line 7" }],
    },
    {
      name: "module-level script",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        loader = DataLoader(range(10), batch_size=2)
        for batch in loader:
            batch = batch.to("cuda")
      `,
      errors: [{ line: 3, column: 10, messageIncludes: "line 5" }],
    },
    {
      name: "torch.utils.data.DataLoader by full name",
      code: py`
        import torch
        def main(dataset, device):
            val_loader = torch.utils.data.DataLoader(dataset, batch_size=128, shuffle=False)
            for images, labels in val_loader:
                images = images.to(device)
      `,
      errors: [{ line: 3, column: 18, messageIncludes: "line 5" }],
    },
    {
      name: "reported in the recommended preset although not hot",
      code: py`
        import torch
        from torch.utils.data import DataLoader
        def build_and_train(dataset, model, device, epochs):
            loader = DataLoader(dataset, batch_size=16)
            for epoch in range(epochs):
                for x, y in loader:
                    x = x.to(device, non_blocking=True)
      `,
      errors: [{ line: 4, column: 14, hot: false, messageIncludes: "line 7" }],
    },
  ],
});
