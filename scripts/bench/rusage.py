# Runs one command for `npm run bench` and reports its wall time, CPU time (user + system, all threads) and peak
# RSS exactly, from the kernel's rusage of that child (os.wait4), as one JSON line in the file named first.
# Usage: python3 rusage.py <result.json> <stdout-file> <stderr-file> <command> [args...]
import json, os, subprocess, sys, time

result_path, stdout_path, stderr_path, command = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
with open(result_path, "w") as f:
    json.dump({"status": child.returncode, "wall_ms": wall * 1000, "user_ms": usage.ru_utime * 1000,
               "sys_ms": usage.ru_stime * 1000, "max_rss_kb": usage.ru_maxrss}, f)
