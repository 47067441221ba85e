# Writes terminal escape sequences and a NUL byte to standard error, then
# crashes on its first run request.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import serve


def crash(request):
    sys.stderr.write("\x1b[31mfatal:\x1b[0m the engine broke\x00 here\x07\n")
    sys.stderr.flush()
    sys.exit(1)


serve(crash)
