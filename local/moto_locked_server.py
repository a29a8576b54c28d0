"""Run moto's server with every request serialised behind one lock.

moto's backends keep state in plain Python objects with no locking, so two
concurrent conditional writes (or transactions) can both pass their condition
checks. Real DynamoDB never allows that, and our exact-batching guarantees are
built on it, so the emulator must not either. The server stays multi-threaded
(connections are accepted concurrently); only the backend work is serialised.

Prints one JSON line {"port": N} on stdout once it is listening.
"""
import json
import sys
import threading

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import make_server

_lock = threading.Lock()
_app = DomainDispatcherApplication(create_backend_app)


def locked_app(environ, start_response):
    with _lock:
        result = _app(environ, start_response)
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
    return [body]


def main() -> None:
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    server = make_server(host, port, locked_app, threaded=True)
    print(json.dumps({"port": server.port}), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
