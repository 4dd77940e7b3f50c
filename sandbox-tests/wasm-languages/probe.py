"""A Python guest that looks for a way out of the sandbox (host/cli/tests/
wasm_languages.rs): at `name`, in the host's store, it tries to read a file,
list the environment and open a socket, and reports what it got as its name.
It plays no game; the test only loads it."""

import os

from wit_world import exports


def probe():
    found = []
    try:
        with open("/etc/passwd") as f:
            found.append("file:read " + f.read(20))
    except OSError as e:
        found.append("file:" + type(e).__name__)
    try:
        found.append("dir:" + ",".join(os.listdir("/")))
    except OSError as e:
        found.append("dir:" + type(e).__name__)
    # os.environ is a snapshot taken when the interpreter started, which
    # componentize-py does at build time; getenv of the live WASI environment
    # goes through the same dict, so ask for the variables a shell always has.
    found.append("env:" + ",".join(k for k in ("PATH", "HOME", "USER") if os.environ.get(k)))
    try:
        import socket

        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.connect(("127.0.0.1", 22))
        found.append("net:connected")
    except Exception as e:  # noqa: BLE001 - any refusal is the answer
        found.append("net:" + type(e).__name__)
    return " ".join(found)


class Player(exports.Player):
    def name(self):
        return probe()

    def begin_game(self, setup):
        pass

    def accuse(self, request):
        return None

    def move_to(self, request):
        return request.targets[0]

    def suggest(self, request):
        return None

    def respond(self, request):
        return request.matching[0] if request.matching else None

    def watch(self, event):
        pass
