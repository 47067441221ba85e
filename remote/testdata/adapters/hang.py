# Never answers a run request. It starts a child (this script again, with
# --child and its own arguments) that sleeps too, so a test can see the
# whole group stopped; an argument such as a tag lets a test find its own.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
import os
import subprocess
import time
from badadapter import serve


def hang(request):
    subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child"] + sys.argv[1:], stdin=subprocess.DEVNULL)
    while True:
        time.sleep(3600)


if "--child" in sys.argv:
    while True:
        time.sleep(3600)
serve(hang)
