# Answers as the reference does, and then answers the same request again.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import Reference, serve

engine = Reference()


def answer(request):
    line = engine.ask(request)
    sys.stdout.write(line + line)
    sys.stdout.flush()


serve(answer)
