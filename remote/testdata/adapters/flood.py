# Answers a run request with output that never ends a line: 1 MiB chunks,
# forever, so the line grows past the 64 MiB limit.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import serve

CHUNK = "x" * (1 << 20)


def flood(request):
    try:
        while True:
            sys.stdout.write(CHUNK)
            sys.stdout.flush()
    except (BrokenPipeError, OSError):
        sys.exit(0)


serve(flood)
