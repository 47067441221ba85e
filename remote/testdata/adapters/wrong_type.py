# Answers every run request with a message of an unknown type, and says
# nothing on standard error: its faults are the same whichever request they
# answer, so a run's results must not depend on how requests are numbered.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import send, serve


def wrong_type(request):
    send({"type": "tracee", "id": request["id"]})


serve(wrong_type)
