# Takes its time to start: it sleeps before every hello, the seconds its
# first argument gives; with a second argument, a marker file, the first
# process started says hello at once and crashes on its first run request,
# and every later one (the restart) sleeps, having first made the marker
# file with ".restart" added, so that a test can wait for the restart to
# be under way. It refuses every scenario.
import os
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
import time
from badadapter import log, refuse, serve

delay = float(sys.argv[1])
mark = sys.argv[2] if len(sys.argv) > 2 else None
first = mark is not None and not os.path.exists(mark)
if first:
    open(mark, "w").close()
else:
    if mark is not None:
        open(mark + ".restart", "w").close()
    log("slow_start: starting, %gs" % delay)
    time.sleep(delay)


def crash_first(request):
    if first:
        log("slow_start: crashing on purpose")
        sys.exit(1)
    refuse(request)


serve(crash_first)
