"""Run moto's server with every request serialised behind one lock.

moto's backends keep state in plain Python objects with no locking, so two
concurrent conditional writes (or transactions) can both pass their condition
checks. Real DynamoDB never allows that, and our exact-batching guarantees are
built on it, so the emulator must not either. The server stays multi-threaded
(connections are accepted concurrently); only the backend work is serialised.

It makes a table Query read only the queried partition. moto 5.2 collects
and sorts every item of the table on each Query (`Table.all_items`), then
keeps those of the partition, so a Query's cost grows with the whole table
(every agent's summaries), where DynamoDB's grows with what it reads.

It also trims what moto does on every request without need: werkzeug's
access log line (a formatted date and a write to stderr), moto's listing of
its own package directory, and the matching of the request's host against
every service's URL patterns (both now computed once per host).

It also makes moto's TransactWriteItems roll back by item instead of by
table: moto 5.2 deep-copies every table a transaction touches, once per
transaction item, so each transaction costs time proportional to the table's
size. Real DynamoDB's cost is per item. We snapshot only the items the
transaction names and restore those on failure, which keeps moto's semantics
(all or nothing) without the quadratic slowdown.

Prints one JSON line {"port": N} on stdout once it is listening, and exits
when its standard input closes (its parent has gone).
"""
import json
import os
import sys
import threading

from moto import backends
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import WSGIRequestHandler, make_server

_lock = threading.Lock()


def _patch_transaction_rollback() -> None:
    import copy as real_copy

    import moto.dynamodb.models as ddb_models
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import Table

    class TableSnapshotsAreItemSnapshots:
        """moto's `copy` module, except that deep-copying a Table is a no-op."""

        def deepcopy(self, obj, memo=None):
            if isinstance(obj, Table):
                return obj
            return real_copy.deepcopy(obj, memo)

        def __getattr__(self, name):
            return getattr(real_copy, name)

    original = DynamoDBBackend.transact_write_items

    def transact_write_items(self, transact_items):
        touched = []
        for entry in transact_items:
            op_type, op = next(iter(entry.items()))
            table = self.tables.get(op.get("TableName"))
            key = op.get("Item") if op_type == "Put" else op.get("Key")
            if table is None or not key or table.hash_key_attr not in key:
                continue
            hash_key = DynamoType(key[table.hash_key_attr])
            range_key = None
            if table.range_key_attr is not None:
                if table.range_key_attr not in key:
                    continue
                range_key = DynamoType(key[table.range_key_attr])
            item = table.get_item(hash_key, range_key)
            snapshot = real_copy.deepcopy(item) if item is not None else None
            touched.append((table, hash_key, range_key, snapshot))
        try:
            return original(self, transact_items)
        except Exception:
            for table, hash_key, range_key, snapshot in reversed(touched):
                if range_key is None:
                    if snapshot is None:
                        table.items.pop(hash_key, None)
                    else:
                        table.items[hash_key] = snapshot
                    continue
                bucket = table.items[hash_key]
                if snapshot is None:
                    bucket.pop(range_key, None)
                else:
                    bucket[range_key] = snapshot
                if not bucket:
                    del table.items[hash_key]
            raise

    ddb_models.copy = TableSnapshotsAreItemSnapshots()
    DynamoDBBackend.transact_write_items = transact_write_items


def _patch_dispatch_lookups() -> None:
    modules = tuple(backends.list_of_moto_modules())
    backends.list_of_moto_modules = lambda: modules

    original = DomainDispatcherApplication.get_backend_for_host
    found: dict = {}

    def get_backend_for_host(self, host):
        if host not in found:
            found[host] = original(self, host)
        return found[host]

    DomainDispatcherApplication.get_backend_for_host = get_backend_for_host


def _patch_partition_query() -> None:
    from moto.dynamodb.models.table import Table

    original = Table.query

    def query(self, hash_key, range_comparison, range_objs, limit, exclusive_start_key, scan_index_forward, projection_expressions, index_name=None, *args, **kwargs):
        if index_name is not None or hash_key is None or not self.range_key_attr:
            return original(self, hash_key, range_comparison, range_objs, limit, exclusive_start_key, scan_index_forward, projection_expressions, index_name, *args, **kwargs)
        # `items` is a defaultdict: `get` does not create the partition. The query sorts what it keeps by range key.
        partition = list(self.items.get(hash_key, {}).values())
        self.all_items = lambda: partition
        try:
            return original(self, hash_key, range_comparison, range_objs, limit, exclusive_start_key, scan_index_forward, projection_expressions, index_name, *args, **kwargs)
        finally:
            del self.all_items

    Table.query = query


class _QuietRequestHandler(WSGIRequestHandler):
    """No access log line per request; errors are still logged."""

    def log_request(self, code="-", size="-"):
        pass


_patch_transaction_rollback()
_patch_dispatch_lookups()
_patch_partition_query()
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


def _exit_with_parent() -> None:
    """The parent holds our stdin open; when it dies, however it dies, we stop too."""
    sys.stdin.read()
    os._exit(0)


def main() -> None:
    threading.Thread(target=_exit_with_parent, daemon=True).start()
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    server = make_server(host, port, locked_app, threaded=True, request_handler=_QuietRequestHandler)
    print(json.dumps({"port": server.port}), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
