"""Runs each program before and after synclint's fixes and compares what they compute.

Usage: python3 run_pairs.py DIR   (DIR holds NAME.before.py and NAME.after.py)

Each program runs in a fresh namespace, in this one process, with its standard output captured and the
seeds reset; it may leave its results in a variable `RESULT`. Both versions must compile (py_compile),
print the same text and leave equal results: tensors of the same dtype, shape and values, Python values of
the same type and value. Prints one JSON object per program.

A program whose logging synclint batches on purpose (report every N steps the sum of what was logged every
step) declares `EQUIVALENCE = "batched-logging"` and logs through recorders of its own into `LOGGED`, a list
of `(series, step, value)` records, `step` being the program's own count of training steps when the record
was made. Its LOGGED is compared by `compare_batched_log`; its printed text and RESULT still exactly.

Usage for the harness's own checks: python3 run_pairs.py --self-test
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
    return out.getvalue(), namespace, error


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


BATCHED_LOGGING = "batched-logging"


def compare_batched_log(before, after):
    """Each value logged after the fix is the sum of the values logged before it, over the same steps.

    `before` and `after` are lists of (series, step, value) records. For each series, the steps of the `after`
    records (strictly increasing) cut the steps into windows (previous report, this report]; the `before`
    values of a window, added in order with Python's `+` from 0 (not `sum()`, which compensates float
    rounding since Python 3.12), must equal the reported value exactly, type included (an int count stays an
    int); no window may be empty, and no `before` record may come after the last report (a value lost).
    Returns None, or what differs.
    """
    for name, records in (("before", before), ("after", after)):
        if not isinstance(records, list) or not all(isinstance(r, tuple) and len(r) == 3 and isinstance(r[1], int) for r in records):
            return f"LOGGED ({name}) must be a list of (series, step, value) tuples with an int step"
    if not before:
        return "LOGGED (before) is empty: the program logs nothing to compare"
    series = list(dict.fromkeys(r[0] for r in before))
    if series != list(dict.fromkeys(r[0] for r in after)):
        return f"LOGGED series differ: {series} != {list(dict.fromkeys(r[0] for r in after))}"
    for key in series:
        steps = [(step, value) for s, step, value in before if s == key]
        reports = [(step, value) for s, step, value in after if s == key]
        if any(a[0] > b[0] for a, b in zip(steps, steps[1:])) or any(a[0] >= b[0] for a, b in zip(reports, reports[1:])):
            return f"LOGGED {key!r}: steps out of order"
        previous = None
        for report_step, reported in reports:
            window = [value for step, value in steps if (previous is None or step > previous) and step <= report_step]
            if not window:
                return f"LOGGED {key!r}: the report at step {report_step} covers no step logged before the fix"
            expected = 0
            for value in window:
                expected = expected + value
            if type(expected) is not type(reported) or not (expected == reported or (expected != expected and reported != reported)):
                return f"LOGGED {key!r} at step {report_step}: {reported!r} != {expected!r}, the sum of {len(window)} values logged before the fix"
            previous = report_step
        lost = [step for step, _ in steps if previous is None or step > previous]
        if lost:
            return f"LOGGED {key!r}: the values of steps {lost} are never reported after the fix"
    return None


def logging_problem(namespace_a, namespace_b):
    """The LOGGED comparison a program declares, or None for the ordinary exact one."""
    declared = (namespace_a.get("EQUIVALENCE"), namespace_b.get("EQUIVALENCE"))
    if declared == (None, None):
        return None
    if declared != (BATCHED_LOGGING, BATCHED_LOGGING):
        return f"unknown or inconsistent EQUIVALENCE declaration: {declared}"
    return compare_batched_log(namespace_a.get("LOGGED"), namespace_b.get("LOGGED"))


def self_test():
    """The batched-logging comparison accepts exact window sums and rejects everything else."""
    before = [("loss", 1, 0.1), ("loss", 2, 0.2), ("loss", 3, 0.7), ("n", 1, 2), ("n", 2, 3), ("n", 3, 4)]
    cases = [
        ("windows of 2 and a remainder", [("loss", 2, 0.1 + 0.2), ("loss", 3, 0.7), ("n", 2, 5), ("n", 3, 4)], True),
        ("one window", [("loss", 3, 0.1 + 0.2 + 0.7), ("n", 3, 9)], True),
        ("the same records", list(before), True),
        ("a sum in another order (0.9999999999999999)", [("loss", 3, 0.7 + 0.2 + 0.1), ("n", 3, 9)], False),
        ("the remainder lost", [("loss", 2, 0.1 + 0.2), ("n", 2, 5)], False),
        ("a wrong sum", [("loss", 3, 1.5), ("n", 3, 9)], False),
        ("a mean instead of a sum", [("loss", 3, (0.1 + 0.2 + 0.7) / 3), ("n", 3, 3.0)], False),
        ("a float where an int count was", [("loss", 3, 0.1 + 0.2 + 0.7), ("n", 3, 9.0)], False),
        ("a report covering no step", [("loss", 0, 0.0), ("loss", 3, 0.1 + 0.2 + 0.7), ("n", 3, 9)], False),
        ("reports out of order", [("loss", 3, 0.1 + 0.2 + 0.7), ("loss", 3, 0.0), ("n", 3, 9)], False),
        ("a series missing", [("loss", 3, 0.1 + 0.2 + 0.7)], False),
        ("not records", [0.1], False),
    ]
    failures = [name for name, after, ok in cases if (compare_batched_log(before, after) is None) != ok]
    if compare_batched_log([], []) is None:
        failures.append("nothing logged")
    if compare_batched_log([("x", 1, float("nan")), ("x", 2, 1.0)], [("x", 2, float("nan"))]) is not None:
        failures.append("NaN sums")
    for declared, ok in (((None, None), True), (("batched-logging", "batched-logging"), True), (("batched-logging", None), False), (("batched", "batched"), False)):
        namespaces = [{"EQUIVALENCE": d, "LOGGED": before} if d else {} for d in declared]
        if (logging_problem(*namespaces) is None) != ok:
            failures.append(f"declaration {declared}")
    print(json.dumps({"self_test": "ok" if not failures else "failed", "failures": failures}))
    return 0 if not failures else 1


def main():
    if sys.argv[1] == "--self-test":
        sys.exit(self_test())
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
        out_a, namespace_a, error_a = run(before)
        out_b, namespace_b, error_b = run(after)
        result_a, result_b = namespace_a.get("RESULT"), namespace_b.get("RESULT")
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
        d = logging_problem(namespace_a, namespace_b)
        if d:
            problems.append(d)
        report["ok"] = not problems
        report["problems"] = problems
        report["stdout"] = out_a[-300:]
        print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
