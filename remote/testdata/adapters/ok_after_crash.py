# Crashes (exit 1) on the first run request if the file named by
# $CRASH_ONCE_FILE does not exist yet, creating it; otherwise, and in every
# later process, refuses each request as unsupported. A test sees the restart.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
import os
from badadapter import log, refuse, serve

STATE = os.environ["CRASH_ONCE_FILE"]


def run(request):
    if not os.path.exists(STATE):
        open(STATE, "w").close()
        log("bad adapter: crashing once")
        sys.exit(1)
    refuse(request)


serve(run)
