# Answers a run request with bytes that are not text.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import serve


def binary(request):
    sys.stdout.buffer.write(bytes(range(256)) + b"\n")
    sys.stdout.flush()


serve(binary)
