"""Runs each program before and after synclint's fixes and compares what they compute.

Usage: python3 run_pairs.py DIR   (DIR holds NAME.before.py and NAME.after.py)

Each program runs in a fresh namespace, in this one process, with its standard output captured and the
seeds reset; it may leave its results in a variable `RESULT`. Both versions must compile (py_compile),
print the same text and leave equal results: tensors of the same dtype, shape and values, Python values of
the same type and value. Prints one JSON object per program.
"""
import io
import json
import os
import py_compile
import random
import sys
import traceback
import warnings
from contextlib import redirect_stdout

import numpy as np
import torch

torch.set_num_threads(1)
warnings.simplefilter("ignore")


def run(path):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    namespace = {"__name__": "__main__", "__file__": path}
    out = io.StringIO()
    error = None
    with redirect_stdout(out):
        try:
            exec(compile(source, path, "exec"), namespace)
        except Exception:  # the error is part of what the program does
            error = traceback.format_exception_only(*sys.exc_info()[:2])[-1].strip()
    return out.getvalue(), namespace.get("RESULT"), error


CLOSE = False  # `# equivalence: allclose` in a program: floats may differ by rounding (the order of additions)


def same(a, b, path="RESULT"):
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, torch.Tensor):
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"{path}: {a.dtype}{tuple(a.shape)} != {b.dtype}{tuple(b.shape)}"
        if CLOSE and a.is_floating_point():
            return None if torch.allclose(a.detach().cpu(), b.detach().cpu(), rtol=1e-5, atol=1e-6, equal_nan=True) else f"{path}: tensor values differ beyond rounding"
        if not torch.equal(a.detach().cpu(), b.detach().cpu()):
            both_nan = torch.isnan(a.detach().cpu()) & torch.isnan(b.detach().cpu()) if a.is_floating_point() else None
            if both_nan is None or not torch.equal(torch.where(both_nan, 0, a.detach().cpu()), torch.where(both_nan, 0, b.detach().cpu())):
                return f"{path}: tensor values differ"
        return None
    if isinstance(a, np.ndarray):
        if a.dtype != b.dtype or a.shape != b.shape or not np.array_equal(a, b):
            return f"{path}: arrays differ"
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = same(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path}: keys differ"
        for k in a:
            d = same(a[k], b[k], f"{path}[{k!r}]")
            if d:
                return d
        return None
    if isinstance(a, float) and a != a and b != b:
        return None
    if isinstance(a, float) and CLOSE:
        return None if abs(a - b) <= 1e-6 + 1e-5 * abs(b) else f"{path}: {a!r} != {b!r} beyond rounding"
    if isinstance(a, np.generic):
        return None if (a == b or (a != a and b != b)) and a.dtype == b.dtype else f"{path}: {a!r} != {b!r}"
    return None if a == b else f"{path}: {a!r} != {b!r}"


def main():
    folder = sys.argv[1]
    names = sorted(n[: -len(".before.py")] for n in os.listdir(folder) if n.endswith(".before.py"))
    for name in names:
        before = os.path.join(folder, name + ".before.py")
        after = os.path.join(folder, name + ".after.py")
        report = {"name": name}
        try:
            for source in (before, after):
                py_compile.compile(source, cfile=source + "c", doraise=True)
                os.remove(source + "c")
        except py_compile.PyCompileError as e:
            report["error"] = f"does not compile: {e.msg}"
            print(json.dumps(report), flush=True)
            continue
        global CLOSE
        with open(before, encoding="utf-8") as f:
            CLOSE = "# equivalence: allclose" in f.read()
        report["close"] = CLOSE
        out_a, result_a, error_a = run(before)
        out_b, result_b, error_b = run(after)
        problems = []
        if error_a or error_b:
            problems.append(f"raised: before={error_a} after={error_b}")
        if out_a != out_b and not CLOSE:
            problems.append(f"stdout differs:\n--- before\n{out_a}--- after\n{out_b}")
        if result_a is None:
            problems.append("the program left no RESULT")
        d = same(result_a, result_b)
        if d:
            problems.append(d)
        report["ok"] = not problems
        report["problems"] = problems
        report["stdout"] = out_a[-300:]
        print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
