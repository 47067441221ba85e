# Says hello once: the first process started marks the file its argument
# names, and every later one (a parallel worker's, a restart) exits at
# once, before its hello.
import os
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import log, refuse, serve

mark = sys.argv[1]
if os.path.exists(mark):
    log("hello_once: started again; refusing to say hello")
    sys.exit(3)
open(mark, "w").close()
serve(refuse)
