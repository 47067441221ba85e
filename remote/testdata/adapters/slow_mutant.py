# A slow engine with a bug: `mergecheck serve --mutant NAME` (the binary
# $MERGECHECK_BIN names), each answer held back SECONDS, so that a test
# can signal a run while it shrinks; with a third argument, a file, a line
# is added to it for each answer, for the test to count.
# Arguments: NAME SECONDS [FILE].
import json
import os
import subprocess
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
import time

mutant, delay = sys.argv[1], float(sys.argv[2])
count = sys.argv[3] if len(sys.argv) > 3 else None
child = subprocess.Popen([os.environ["MERGECHECK_BIN"], "serve", "--mutant", mutant, "--max-in-flight", "1"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    if json.loads(line).get("type") == "run":
        time.sleep(delay)
    child.stdin.write(line)
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
    if count:
        with open(count, "a") as f:
            f.write("answered\n")
